"""The guide's replica_device_setter setup, run for real: workers training one model held on ps tasks."""

import threading

import numpy as np
import pytest

import numflow as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_worker_threads_train_one_shared_model_without_losing_updates():
    workers, ps_servers = tf.test.create_local_cluster(num_workers=3, num_ps=2)
    cluster = tf.train.ClusterSpec({
        "ps": [s.target[len("grpc://"):] for s in ps_servers],
        "worker": [w.target[len("grpc://"):] for w in workers],
    })
    rng = np.random.default_rng(0)
    true_w = rng.standard_normal((8, 1)).astype(np.float32)
    data_x = rng.standard_normal((256, 8)).astype(np.float32)
    data_y = data_x @ true_w + 0.5

    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        x = tf.placeholder(tf.float32, [None, 8])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", [8, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=global_step)
    assert {w.device, b.device} == {"/job:ps/task:0", "/job:ps/task:1"}
    assert global_step.device.startswith("/job:ps/task:")
    assert train_op.device == global_step.device  # TF colocates the step increment with global_step
    assert loss.device == "/job:worker"

    with tf.Session(workers[0].target) as sess:
        sess.run(tf.global_variables_initializer())
        initial_loss = sess.run(loss, {x: data_x, y: data_y})

    steps_per_worker = 60

    def work(task):
        with tf.Session(workers[task].target) as sess:
            for i in range(steps_per_worker):
                batch = slice((i * 32) % 256, (i * 32) % 256 + 32)
                sess.run(train_op, {x: data_x[batch], y: data_y[batch]})

    threads = [threading.Thread(target=work, args=(task,)) for task in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    with tf.Session(workers[1].target) as sess:
        assert sess.run(global_step) == 3 * steps_per_worker
        final_loss = sess.run(loss, {x: data_x, y: data_y})
    assert final_loss < initial_loss / 20
