"""Softmax regression on synthetic digits, in an InteractiveSession with Tensor.eval and Operation.run."""

import numpy as np


def main(tf, workdir):
    rng = np.random.RandomState(0)
    templates = rng.rand(10, 64).astype(np.float32)
    labels = rng.randint(0, 10, size=200)
    images = (templates[labels] + 0.5 * rng.rand(200, 64)).astype(np.float32)
    one_hot = np.eye(10)[labels]

    x = tf.placeholder(tf.float32, [None, 64])
    W = tf.Variable(tf.zeros([64, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.nn.softmax(tf.matmul(x, W) + b)
    y_ = tf.placeholder(tf.float32, [None, 10])
    cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)
    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    print(x, W, y, cross_entropy, train_step.name, correct_prediction, sep="\n")

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    for i in range(20):
        batch = slice(10 * i, 10 * i + 10)
        train_step.run(feed_dict={x: images[batch], y_: one_hot[batch]})
        if i % 5 == 0:
            print(i, cross_entropy.eval(feed_dict={x: images, y_: one_hot}))
    print("accuracy", accuracy.eval(feed_dict={x: images, y_: one_hot}))
    print(b.eval())
    print(sess.run(W)[:3, :4])
    print(type(accuracy.eval({x: images, y_: one_hot})).__name__, sess.run(tf.argmax(y, 1), {x: images[:8]}))
    sess.close()
