"""Deployment steps of TF1 tutorials: train, freeze the graph with convert_variables_to_constants over
sess.graph_def, write it with write_graph, read it back with gfile into a GraphDef and import it into a
fresh graph; and a one-variable model saved, reloaded with import_meta_graph, its train op taken back from
a collection."""

import os

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(59)
    x = tf.placeholder(tf.float32, [None, 3], name="input")
    w = tf.Variable(tf.truncated_normal([3, 2], stddev=0.5), name="weights")
    b = tf.Variable(tf.zeros([2]), name="bias")
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    probabilities = tf.nn.softmax(logits, name="output")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=logits))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    feed = {x: [[1.0, 0.0, -1.0], [0.0, 1.0, 2.0]]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train_op, feed)
        expected = sess.run(probabilities, feed)
        frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["output"])
        tf.train.write_graph(frozen, workdir, "frozen.pb", as_text=False)
        tf.train.write_graph(sess.graph_def, workdir, "graph.pbtxt")
    print([(node.name, node.op) for node in frozen.node])

    with tf.gfile.GFile(os.path.join(workdir, "frozen.pb"), "rb") as f:
        graph_def = tf.GraphDef()
        graph_def.ParseFromString(f.read())
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
        output = graph.get_tensor_by_name("output:0")
        with tf.Session(graph=graph) as sess:
            result = sess.run(output, {"input:0": feed[x]})
    print(output, np.allclose(result, expected), np.round(result, 5))

    tf.reset_default_graph()
    v = tf.Variable(3.0, name="v")
    scaled = tf.multiply(tf.placeholder(tf.float32, name="scale"), v, name="scaled")
    tf.add_to_collection("train_op", tf.assign_add(v, 1.0))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, os.path.join(workdir, "one"))
    tf.reset_default_graph()
    with tf.Session() as sess:
        saver = tf.train.import_meta_graph(path + ".meta")
        saver.restore(sess, path)
        sess.run(tf.get_collection("train_op")[0])
        print(sess.run("scaled:0", {"scale:0": 2.0}), [var.name for var in tf.global_variables()], scaled.name)
