"""Regression and classification with tf.layers.dense: a two-layer regressor trained by gradient descent on a
noisy quadratic, and a classifier with an L2 kernel regularizer whose loss joins the cross entropy through
tf.losses.get_regularization_loss."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def regression():
    rng = np.random.RandomState(1)
    xs = rng.uniform(-1, 1, (100, 1)).astype(np.float32)
    ys = (xs ** 2 - 0.5 + rng.normal(0, 0.05, (100, 1))).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 1])
    y = tf.placeholder(tf.float32, [None, 1])
    hidden = tf.layers.dense(x, 10, tf.nn.relu)
    output = tf.layers.dense(hidden, 1)
    loss = tf.losses.mean_squared_error(y, output)
    train = tf.train.GradientDescentOptimizer(learning_rate=0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            _, value = sess.run([train, loss], {x: xs, y: ys})
            if step % 10 == 0:
                print(f"regression step {step} loss {value:.6g}")
        print("prediction", np.array2string(sess.run(output, {x: [[0.0], [0.5]]}).ravel(), precision=5))


def classification():
    rng = np.random.RandomState(2)
    xs = rng.normal(0, 1, (120, 4)).astype(np.float32)
    labels = (xs[:, 0] + xs[:, 1] * xs[:, 2] > 0).astype(np.int32) + (xs[:, 3] > 1).astype(np.int32)
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int32, [None])
    l2 = lambda w: 0.001 * tf.nn.l2_loss(w)  # noqa: E731
    hidden = tf.layers.dense(x, 16, activation=tf.nn.tanh, kernel_regularizer=l2, name="hidden")
    logits = tf.layers.dense(hidden, 3, kernel_regularizer=l2, name="logits")
    xent = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    loss = xent + tf.losses.get_regularization_loss()
    train = tf.train.MomentumOptimizer(0.1, momentum=0.9).minimize(loss)
    predictions = tf.argmax(logits, axis=1, output_type=tf.int32)
    accuracy, update_accuracy = tf.metrics.accuracy(labels=y, predictions=predictions)
    print("regularization losses", [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)])
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        for step in range(30):
            _, value, reg = sess.run([train, xent, tf.losses.get_regularization_loss()], {x: xs, y: labels})
            if step % 10 == 0:
                print(f"classification step {step} xent {value:.6g} regularization {reg:.6g}")
        sess.run(update_accuracy, {x: xs, y: labels})
        print(f"accuracy {sess.run(accuracy):.4f}")


def main():
    with tf.Graph().as_default():
        tf.set_random_seed(21)
        regression()
    with tf.Graph().as_default():
        tf.set_random_seed(22)
        classification()


if __name__ == "__main__":
    main()
