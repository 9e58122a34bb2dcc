"""Regenerate tf_sharded/: a checkpoint TensorFlow 2.21 writes with Saver(sharded=True) from a
worker's session over two ps tasks, and the values it holds; and tf_sharded_partitioned/: the same
with a variable of three parts spread over the two ps tasks (ps0, ps1, ps0) beside a whole one.

Run with TensorFlow's interpreter: /opt/tfenv/bin/python tests/cluster/data/make_sharded_golden.py
"""

import json
import os
import shutil
import socket

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tf_sharded")
OUT_PARTITIONED = os.path.join(HERE, "tf_sharded_partitioned")
PARTITIONED = np.arange(12, dtype=np.float32).reshape(6, 2) / 8


def _free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _cluster():
    ports = [_free_port() for _ in range(3)]
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{p}" for p in ports[:2]], "worker": [f"localhost:{ports[2]}"]})
    servers = [tf.train.Server(cluster, "ps", i) for i in range(2)] + [tf.train.Server(cluster, "worker", 0)]
    return cluster, servers


def write_whole_variables():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    cluster, servers = _cluster()
    workers = servers[2:]
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        a = tf.get_variable("a", initializer=np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
        b = tf.get_variable("b", initializer=np.array([7, -3, 2**40, 0], np.int64))
        c = tf.get_variable("c", initializer=np.float32(-2.5))
        d = tf.get_variable("layer/d", initializer=np.linspace(-1, 1, 5).astype(np.float64))
    devices = {v.op.name: v.device for v in (a, b, c, d)}
    saver = tf.train.Saver(sharded=True)
    with tf.Session(workers[0].target) as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, os.path.join(OUT, "model"), global_step=7, write_meta_graph=False)
        values = {v.op.name: sess.run(v).tolist() for v in (a, b, c, d)}
    os.remove(os.path.join(OUT, "checkpoint"))
    with open(os.path.join(HERE, "tf_sharded.json"), "w") as f:
        json.dump({"devices": devices, "values": values, "files": sorted(os.listdir(OUT))}, f, indent=1)
        f.write("\n")


def write_partitioned_variable():
    shutil.rmtree(OUT_PARTITIONED, ignore_errors=True)
    os.makedirs(OUT_PARTITIONED)
    with tf.Graph().as_default():
        cluster, servers = _cluster()
        with tf.device(tf.train.replica_device_setter(cluster=cluster)):
            emb = tf.get_variable("emb", shape=PARTITIONED.shape, initializer=tf.zeros_initializer(),
                                  partitioner=tf.fixed_size_partitioner(3))
            tf.get_variable("bias", initializer=np.array([0.5, -1.5], np.float32))
        with tf.Session(servers[2].target) as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([part.assign(PARTITIONED[2 * i:2 * i + 2]) for i, part in enumerate(emb)])
            tf.train.Saver(sharded=True).save(sess, os.path.join(OUT_PARTITIONED, "model"), write_meta_graph=False)
    os.remove(os.path.join(OUT_PARTITIONED, "checkpoint"))


if __name__ == "__main__":
    write_whole_variables()
    write_partitioned_variable()
