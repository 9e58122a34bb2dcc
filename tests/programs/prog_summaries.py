"""TensorBoard summaries: name scopes, scalar and histogram summaries merged with merge_all, a FileWriter
with the graph, add_summary every step; the event file read back with summary_iterator."""

import glob
import os

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(23)
    logs_path = os.path.join(workdir, "logs")
    with tf.name_scope("input"):
        x = tf.placeholder(tf.float32, [None, 4], name="x-input")
        y = tf.placeholder(tf.float32, [None, 1], name="y-input")
    with tf.name_scope("model"):
        W = tf.Variable(tf.random_normal([4, 1]), name="weights")
        b = tf.Variable(tf.zeros([1]), name="bias")
        pred = tf.matmul(x, W) + b
    with tf.name_scope("loss"):
        cost = tf.reduce_mean(tf.square(pred - y))
    with tf.name_scope("train"):
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
    tf.summary.scalar("loss", cost)
    tf.summary.histogram("weights", W)
    lr_summary = tf.summary.scalar("learning_rate", tf.constant(0.1), collections=["extra"])
    merged = tf.summary.merge_all()
    print(merged, lr_summary, tf.get_collection(tf.GraphKeys.SUMMARIES), sep="\n")

    rng = np.random.RandomState(23)
    data = rng.randn(32, 4).astype(np.float32)
    target = data.dot([[1.0], [-2.0], [0.5], [0.0]]).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        writer = tf.summary.FileWriter(logs_path, graph=tf.get_default_graph())
        for step in range(5):
            _, c, summary = sess.run([train_op, cost, merged], {x: data, y: target})
            writer.add_summary(summary, step)
            print("step", step, "cost", c)
        writer.add_summary(sess.run(lr_summary), 5)
        writer.close()
    events = glob.glob(os.path.join(logs_path, "events.out.tfevents.*"))
    print(len(events))
    for event in tf.train.summary_iterator(events[0]):
        if event.HasField("graph_def"):
            print("graph", len(tf.GraphDef.FromString(event.graph_def).node) > 10)
        for value in event.summary.value:
            kind = value.WhichOneof("value")
            shown = round(value.simple_value, 5) if kind == "simple_value" else value.histo.num
            print(event.step, value.tag, kind, shown)
