"""A seeded (multinomial) logistic regression trained with GradientDescent, saved, restored into a new
session and trained on: the Saver round trip must carry every bit."""

import os
import tempfile

import numpy as np

STEPS = 6


def run(tf, config):
    """Train, save, restore into a fresh session, train again; the losses, then the variables."""
    rng = np.random.default_rng(11)
    data = rng.standard_normal((256, 784)).astype(np.float32)
    labels = np.eye(24, dtype=np.float32)[rng.integers(0, 24, 256)]
    tf.set_random_seed(5)
    x = tf.constant(data)
    w = tf.get_variable("w", [784, 24], initializer=tf.glorot_uniform_initializer())
    b = tf.get_variable("b", [24], initializer=tf.zeros_initializer())
    logits = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    saver = tf.train.Saver()
    fetched = {}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model")
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(STEPS):
                _, fetched[f"loss/{step}"] = sess.run([train, loss])
            saver.save(sess, path)
        with tf.Session(config=config) as sess:
            saver.restore(sess, path)
            for step in range(STEPS, 2 * STEPS):
                _, fetched[f"loss/{step}"] = sess.run([train, loss])
            fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
