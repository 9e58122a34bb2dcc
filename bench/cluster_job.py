"""One task of the cluster benchmarks (``benchmarks/bench_cluster.py``), run by numflow or TensorFlow.

    TF_CONFIG=... python bench/cluster_job.py --engine numflow|tensorflow train --features 784 --classes 10
    TF_CONFIG=... python bench/cluster_job.py --engine ... transfer --megabytes 4

Its role comes from TF_CONFIG. A ps task serves (numflow's ``join`` returns when the workers are
done; TensorFlow's never does, and the harness stops it). ``train``: softmax regression between
graphs (``replica_device_setter``), batch 100, each worker generating its own batches; the chief
initializes, the others poll until the variables are ready; 2 s of warm-up, then each worker counts
its steps in a window of ``--seconds`` and prints ``steps_per_s``. ``transfer`` (one worker): push
(feed a tensor to an ``assign_add`` on the ps) and pull (fetch the ps variable) of ``--megabytes``,
printing the fastest of ``--repeat`` of each in seconds.

``--parts k`` splits the weights into k variables of ``classes / k`` columns each (one per ps task
when k is the number of ps tasks). Each worker also reports ``first_step_s``, the seconds from
``NUMFLOW_BENCH_LAUNCHED_AT`` (the harness's ``time.time()`` at launch) to the end of its first step,
and ``max_rss_mb``. ``--ray-node-temp-dir DIR`` (numflow's ps only): join the Ray node whose temp
dir is DIR, so that the ps's actor runs on that node (a second node of the same machine).
"""

import argparse
import json
import os
import resource
import time

import numpy as np


def _engine(name):
    if name == "numflow":
        import numflow as tf

        return tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    return tf


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="numflow")
    sub = parser.add_subparsers(dest="mode", required=True)
    train = sub.add_parser("train")
    train.add_argument("--features", type=int, default=784)
    train.add_argument("--classes", type=int, default=10)
    train.add_argument("--seconds", type=float, default=10.0)
    train.add_argument("--warmup", type=float, default=2.0)
    train.add_argument("--parts", type=int, default=1)
    transfer = sub.add_parser("transfer")
    transfer.add_argument("--megabytes", type=float, default=4)
    transfer.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--ray-node-temp-dir", default=None)
    options = parser.parse_args()
    tf = _engine(options.engine)
    config = json.loads(os.environ["TF_CONFIG"])
    if options.ray_node_temp_dir and config["task"]["type"] == "ps" and options.engine == "numflow":
        import ray  # joined before the server's own (address-only) join, which then keeps this node

        ray.init(address=os.environ["RAY_ADDRESS"], _temp_dir=options.ray_node_temp_dir, configure_logging=False)
    cluster = tf.train.ClusterSpec(config["cluster"])
    job, task = config["task"]["type"], int(config["task"]["index"])
    session_config = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1,
                                    device_filters=["/job:ps", f"/job:worker/task:{task}"])
    server = tf.train.Server(cluster, job_name=job, task_index=task, config=session_config)
    if job == "ps":
        server.join()
        return
    if options.mode == "train":
        _train(tf, cluster, server, task, session_config, options)
    else:
        _transfer(tf, server, session_config, options)


def _ready_session(tf, server, config, chief, init):
    sess = tf.Session(server.target, config=config)
    if chief:
        sess.run(init)
    report = tf.report_uninitialized_variables()
    while len(sess.run(report)):
        time.sleep(0.05)
    return sess


def _train(tf, cluster, server, task, config, options):
    with tf.device(tf.train.replica_device_setter(worker_device=f"/job:worker/task:{task}", cluster=cluster)):
        x = tf.placeholder(tf.float32, [None, options.features])
        labels = tf.placeholder(tf.int64, [None])
        ws = [tf.get_variable(f"w{i}", [options.features, options.classes // options.parts],
                              initializer=tf.zeros_initializer()) for i in range(options.parts)]
        b = tf.get_variable("b", [options.classes], initializer=tf.zeros_initializer())
        logits = tf.concat([tf.matmul(x, w) for w in ws], 1) if options.parts > 1 else tf.matmul(x, ws[0])
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits + b))
        step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=step)
    init = tf.global_variables_initializer()
    sess = _ready_session(tf, server, config, task == 0, init)
    rng = np.random.default_rng(task)
    batches = [(rng.standard_normal((100, options.features)).astype(np.float32),
                rng.integers(0, options.classes, 100)) for _ in range(8)]
    start = time.perf_counter()
    steps, window_start, first_step_s = 0, None, None
    while True:
        bx, by = batches[steps % len(batches)]
        sess.run(train_op, {x: bx, labels: by})
        now = time.perf_counter()
        if first_step_s is None:
            first_step_s = time.time() - float(os.environ.get("NUMFLOW_BENCH_LAUNCHED_AT", "nan"))
        if window_start is None:
            if now - start >= options.warmup:
                window_start, steps = now, 0
            continue
        steps += 1
        if now - window_start >= options.seconds:
            break
    print(json.dumps({"task": task, "steps_per_s": steps / (time.perf_counter() - window_start),
                      "first_step_s": first_step_s,
                      "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)


def _transfer(tf, server, config, options):
    n = int(options.megabytes * 1024 * 1024 // 4)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(tf.zeros([n]), name="v")
        delta = tf.placeholder(tf.float32, [n])
        push = v.assign_add(delta).op
    sess = _ready_session(tf, server, config, True, v.initializer)
    value = np.ones(n, np.float32)
    pushes, pulls = [], []
    for _ in range(options.repeat + 1):
        t0 = time.perf_counter()
        sess.run(push, {delta: value})
        t1 = time.perf_counter()
        sess.run(v)
        t2 = time.perf_counter()
        pushes.append(t1 - t0)
        pulls.append(t2 - t1)
    print(json.dumps({"push_s": min(pushes[1:]), "pull_s": min(pulls[1:]), "bytes": n * 4}), flush=True)


if __name__ == "__main__":
    main()
