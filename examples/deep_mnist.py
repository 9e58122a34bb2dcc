"""Train TensorFlow 1.x's "Deep MNIST" tutorial network on synthetic digits.

The graph is the tutorial's, written with ``tf.nn`` ops and ``tf.Variable`` as it was: two 5x5
convolutions of 32 and 64 filters, each followed by a 2x2 max pool, a 1024-unit dense layer,
dropout fed through a ``keep_prob`` placeholder, softmax cross entropy and Adam. The images are
synthetic: each of the 10 classes is a fixed random pattern of strokes, drawn with noise, so the
network has something to learn without a download. Run it with ``python examples/deep_mnist.py``;
with ``import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`` in place of the import it
runs on TensorFlow too, and prints the same losses.
"""

import time

import numpy as np

import numflow as tf

STEPS = 300
BATCH = 50


def make_data(num, seed):
    """``(images [num, 784] in [0, 1], one-hot labels [num, 10])``: class patterns plus noise."""
    patterns = (np.random.default_rng(0).random((10, 28, 28)) > 0.8).astype(np.float32)
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, num)
    images = patterns[labels] * rng.uniform(0.5, 1.0, (num, 1, 1)) + rng.normal(0, 0.3, (num, 28, 28))
    return np.clip(images, 0, 1).reshape(num, 784).astype(np.float32), np.eye(10, dtype=np.float32)[labels]


def weight_variable(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1))


def bias_variable(shape):
    return tf.Variable(tf.constant(0.1, shape=shape))


def conv2d(x, w):
    return tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME")


def max_pool_2x2(x):
    return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


def build(learning_rate=1e-4):
    """The tutorial's graph: ``(x, y_, keep_prob, train_step, cross_entropy, accuracy)``."""
    x = tf.placeholder(tf.float32, [None, 784])
    y_ = tf.placeholder(tf.float32, [None, 10])
    x_image = tf.reshape(x, [-1, 28, 28, 1])

    w_conv1, b_conv1 = weight_variable([5, 5, 1, 32]), bias_variable([32])
    h_pool1 = max_pool_2x2(tf.nn.relu(conv2d(x_image, w_conv1) + b_conv1))
    w_conv2, b_conv2 = weight_variable([5, 5, 32, 64]), bias_variable([64])
    h_pool2 = max_pool_2x2(tf.nn.relu(conv2d(h_pool1, w_conv2) + b_conv2))

    w_fc1, b_fc1 = weight_variable([7 * 7 * 64, 1024]), bias_variable([1024])
    h_fc1 = tf.nn.relu(tf.matmul(tf.reshape(h_pool2, [-1, 7 * 7 * 64]), w_fc1) + b_fc1)
    keep_prob = tf.placeholder(tf.float32)
    h_fc1_drop = tf.nn.dropout(h_fc1, keep_prob)
    w_fc2, b_fc2 = weight_variable([1024, 10]), bias_variable([10])
    y_conv = tf.matmul(h_fc1_drop, w_fc2) + b_fc2

    cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y_conv))
    train_step = tf.train.AdamOptimizer(learning_rate).minimize(cross_entropy)
    correct = tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    return x, y_, keep_prob, train_step, cross_entropy, accuracy


def main(steps=STEPS, batch=BATCH, seed=1):
    train_x, train_y = make_data(5000, seed=1)
    test_x, test_y = make_data(500, seed=2)
    tf.set_random_seed(seed)
    x, y_, keep_prob, train_step, cross_entropy, accuracy = build()
    rng = np.random.default_rng(3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        start = time.perf_counter()
        for step in range(1, steps + 1):
            rows = rng.integers(0, len(train_x), batch)
            _, loss = sess.run([train_step, cross_entropy], {x: train_x[rows], y_: train_y[rows], keep_prob: 0.5})
            if step % 50 == 0:
                rate = step / (time.perf_counter() - start)
                print(f"step {step:4d}  loss {loss:.4f}  {rate:6.1f} steps/s", flush=True)
        test_accuracy = sess.run(accuracy, {x: test_x, y_: test_y, keep_prob: 1.0})
    print(f"test accuracy {test_accuracy:.3f}")
    return loss, test_accuracy


if __name__ == "__main__":
    main()
