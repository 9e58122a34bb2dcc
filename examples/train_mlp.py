"""Train a small multi-layer perceptron, checkpoint it, and restore it into a fresh session.

The data is synthetic: 784-feature inputs whose class (one of 10) is decided by a fixed random
linear teacher, so the model has something real to learn. Run it with ``python examples/train_mlp.py``;
it finishes in well under a minute on two cores. The script is plain TensorFlow 1.x code: with
``import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`` in place of the import it runs there too.
"""

import os
import tempfile
import time

import numpy as np

import numflow as tf

STEPS = 1500
BATCH = 64
CHECKPOINT_EVERY = 500


def make_data(num, seed):
    rng = np.random.default_rng(seed)
    teacher = np.random.default_rng(0).standard_normal((784, 10)).astype(np.float32)
    x = rng.standard_normal((num, 784)).astype(np.float32)
    return x, np.argmax(x @ teacher, axis=1).astype(np.int64)


def dense(x, units, activation=None):
    """A fully connected layer whose variables live in the current variable scope."""
    weights = tf.get_variable("weights", [x.shape[1], units], initializer=tf.glorot_uniform_initializer(seed=1))
    biases = tf.get_variable("biases", [units], initializer=tf.zeros_initializer())
    y = tf.matmul(x, weights) + biases
    return activation(y) if activation else y


def mlp(x):
    with tf.variable_scope("hidden"):
        h = dense(x, 200, tf.nn.relu)
    with tf.variable_scope("logits"):
        return dense(h, 10)


def loss_of(logits, labels):
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def build():
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    with tf.variable_scope("model"):
        train_loss = loss_of(mlp(x), y)
    with tf.variable_scope("model", reuse=True):
        eval_logits = mlp(x)
    eval_loss = loss_of(eval_logits, y)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(eval_logits, 1), y), tf.float32))
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(1e-3).minimize(train_loss, global_step=global_step)
    return x, y, train_op, train_loss, eval_loss, accuracy, global_step


def main(steps=STEPS):
    train_x, train_y = make_data(20000, seed=1)
    test_x, test_y = make_data(2000, seed=2)
    x, y, train_op, train_loss, eval_loss, accuracy, global_step = build()
    saver = tf.train.Saver(max_to_keep=3)
    checkpoint_dir = tempfile.mkdtemp(prefix="numflow-mlp-")
    test_feed = {x: test_x, y: test_y}
    rng = np.random.default_rng(3)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        start = time.perf_counter()
        for _ in range(steps):
            batch = rng.integers(0, len(train_x), BATCH)
            _, loss, step = sess.run([train_op, train_loss, global_step], {x: train_x[batch], y: train_y[batch]})
            if step % 100 == 0:
                rate = step / (time.perf_counter() - start)
                print(f"step {step:5d}  loss {loss:.4f}  {rate:7.1f} steps/s", flush=True)
            if step % CHECKPOINT_EVERY == 0 or step == steps:
                saver.save(sess, os.path.join(checkpoint_dir, "mlp"), global_step=step)
        trained_loss, trained_acc = sess.run([eval_loss, accuracy], test_feed)
        print(f"trained:  eval loss {trained_loss:.4f}  accuracy {trained_acc:.3f}")

    latest = tf.train.latest_checkpoint(checkpoint_dir)
    with tf.Session() as sess:
        saver.restore(sess, latest)
        restored_loss, restored_acc = sess.run([eval_loss, accuracy], test_feed)
        print(f"restored: eval loss {restored_loss:.4f}  accuracy {restored_acc:.3f}  from {latest}")
    assert restored_loss == trained_loss, "the restored model must evaluate exactly as the trained one"
    return trained_loss, trained_acc


if __name__ == "__main__":
    main()
