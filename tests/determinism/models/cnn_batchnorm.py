"""A seeded CNN trained with Adam: convolutions and their gradients split into blocks of one-thread
BLAS products, max pooling, fused batch normalization (its statistics summed in fixed blocks),
dropout, and a train/eval switch through ``tf.cond``."""

import numpy as np

STEPS = 4


def run(tf, config):
    """Train for STEPS on fixed images; the fetched losses and eval logits, then the variables."""
    rng = np.random.default_rng(11)
    images = rng.standard_normal((16, 14, 14, 3)).astype(np.float32)
    labels = rng.integers(0, 10, 16)
    tf.set_random_seed(5)
    x = tf.placeholder(tf.float32, [None, 14, 14, 3])
    y = tf.placeholder(tf.int64, [None])
    training = tf.placeholder_with_default(True, [])
    w1 = tf.Variable(tf.truncated_normal([5, 5, 3, 16], stddev=0.1), name="w1")
    scale = tf.Variable(tf.ones([16]), name="scale")
    offset = tf.Variable(tf.zeros([16]), name="offset")
    w2 = tf.Variable(tf.truncated_normal([3, 3, 16, 32], stddev=0.1), name="w2")
    w3 = tf.Variable(tf.truncated_normal([7 * 7 * 32, 10], stddev=0.05), name="w3")
    conv1 = tf.nn.conv2d(x, w1, strides=[1, 1, 1, 1], padding="SAME")
    normed, _, _ = tf.nn.fused_batch_norm(conv1, scale, offset, is_training=True)
    pooled = tf.nn.max_pool(tf.nn.relu(normed), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    conv2 = tf.nn.relu(tf.nn.conv2d(pooled, w2, strides=[1, 1, 1, 1], padding="SAME"))
    flat = tf.reshape(conv2, [-1, 7 * 7 * 32])
    kept = tf.cond(training, lambda: tf.nn.dropout(flat, rate=0.25), lambda: flat)
    logits = tf.matmul(kept, w3)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.AdamOptimizer(1e-3).minimize(loss)
    fetched = {}
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: images, y: labels}
        for step in range(STEPS):
            _, fetched[f"loss/{step}"] = sess.run([train, loss], feed)
        fetched["eval_logits"] = sess.run(logits, {x: images, training: False})
        fetched.update({v.op.name: sess.run(v) for v in tf.global_variables()})
    return fetched
