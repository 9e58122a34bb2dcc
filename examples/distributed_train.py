"""Between-graph replication as TensorFlow 1.x's distributed guide writes it: one process per task.

Each ps task serves the variables; each worker builds the same graph with ``replica_device_setter``
and trains it under ``MonitoredTrainingSession`` (worker 0 is the chief and initializes). The
cluster comes from ``--ps_hosts``/``--worker_hosts``/``--job_name``/``--task_index``, or from
``TF_CONFIG`` as ``python -m numflow.cluster`` sets it:

    python -m numflow.cluster --ps 1 --workers 2 examples/distributed_train.py --steps 200

Softmax regression on synthetic data; ``--features 784`` is a 31 KB model, ``--features 4096
--classes 256`` a 4 MB one.
"""

import time

import numpy as np

import numflow as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "", "Comma-separated ps addresses (default: TF_CONFIG's cluster).")
flags.DEFINE_string("worker_hosts", "", "Comma-separated worker addresses.")
flags.DEFINE_string("job_name", "", "ps or worker.")
flags.DEFINE_integer("task_index", 0, "This task's index in its job.")
flags.DEFINE_integer("steps", 200, "Train until the global step reaches this.")
flags.DEFINE_integer("features", 784, "Input features.")
flags.DEFINE_integer("classes", 10, "Classes.")
flags.DEFINE_integer("batch", 100, "Examples per step.")
flags.DEFINE_string("protocol", "grpc", "Server protocol: ray runs each task in its own process.")
flags.DEFINE_string("checkpoint_dir", None, "Where the chief saves sharded checkpoints (at the start and the end).")
FLAGS = flags.FLAGS


def cluster_and_task():
    if FLAGS.ps_hosts:
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": FLAGS.worker_hosts.split(",")})
        return cluster, FLAGS.job_name, FLAGS.task_index
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    return resolver.cluster_spec(), resolver.task_type, resolver.task_id


def main(_):
    cluster, job_name, task_index = cluster_and_task()
    server = tf.train.Server(cluster, job_name=job_name, task_index=task_index, protocol=FLAGS.protocol)
    if job_name == "ps":
        server.join()
        print("ps done", flush=True)
        return
    with tf.device(tf.train.replica_device_setter(worker_device=f"/job:worker/task:{task_index}", cluster=cluster)):
        x = tf.placeholder(tf.float32, [None, FLAGS.features])
        labels = tf.placeholder(tf.int64, [None])
        w = tf.get_variable("w", [FLAGS.features, FLAGS.classes], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [FLAGS.classes], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                             logits=tf.matmul(x, w) + b))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=global_step)

    rng = np.random.default_rng(task_index)
    centers = np.random.default_rng(0).standard_normal((FLAGS.classes, FLAGS.features)).astype(np.float32)
    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.steps)]
    steps, first_loss, start = 0, None, time.perf_counter()
    saving = {"save_checkpoint_secs": None, "save_checkpoint_steps": 10**9 if FLAGS.checkpoint_dir else None}
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=task_index == 0, hooks=hooks,
                                           checkpoint_dir=FLAGS.checkpoint_dir, save_summaries_steps=None,
                                           **saving) as sess:
        while not sess.should_stop():
            y = rng.integers(0, FLAGS.classes, FLAGS.batch)
            batch = centers[y] + rng.standard_normal((FLAGS.batch, FLAGS.features)).astype(np.float32)
            _, step, value = sess.run([train_op, global_step, loss], {x: batch, labels: y})
            first_loss = value if first_loss is None else first_loss
            steps += 1
    seconds = time.perf_counter() - start
    print(f"worker {task_index}: steps={steps} global_step={step} first_loss={first_loss:.4f} loss={value:.4f} "
          f"steps_per_s={steps / seconds:.1f}", flush=True)


if __name__ == "__main__":
    tf.app.run()
