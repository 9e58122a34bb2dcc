"""A seeded MLP trained with Adam: matrix products wide enough that BLAS would thread them, an L2 term
whose gradient meets the loss's at an AddN, reduce_sum and reduce_mean losses."""

import numpy as np

STEPS = 8


def run(tf, config):
    """Train for STEPS on fixed data; the fetched losses and logits, then the variables."""
    rng = np.random.default_rng(7)
    data = rng.standard_normal((64, 784)).astype(np.float32)
    labels = rng.integers(0, 10, 64)
    tf.set_random_seed(3)
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.int64, [None])
    w1 = tf.Variable(tf.random_normal([784, 200], stddev=0.05), name="w1")
    b1 = tf.Variable(tf.zeros([200]), name="b1")
    w2 = tf.Variable(tf.truncated_normal([200, 10], stddev=0.1), name="w2")
    b2 = tf.Variable(tf.zeros([10]), name="b2")
    hidden = tf.nn.relu(tf.matmul(x, w1) + b1)
    logits = tf.matmul(hidden, w2) + b2
    xent = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    loss = xent + 1e-3 * (tf.reduce_sum(tf.square(w1)) + tf.reduce_sum(tf.square(w2)))
    train = tf.train.AdamOptimizer(1e-2).minimize(loss)
    fetched = {}
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: data, y: labels}
        for step in range(STEPS):
            _, fetched[f"loss/{step}"], fetched[f"logits/{step}"] = sess.run([train, loss, logits], feed)
        fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
