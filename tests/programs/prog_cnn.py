"""A small convolutional network with tf.nn: conv2d, max_pool, relu, dropout, a fully connected layer,
and softmax_cross_entropy_with_logits_v2, trained with Momentum."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(7)
    rng = np.random.RandomState(2)
    images = rng.rand(40, 12, 12, 1).astype(np.float32)
    labels = np.eye(4)[(images[:, :6, :6, 0].mean((1, 2)) * 8).astype(int) % 4]

    def weight_variable(shape):
        return tf.Variable(tf.truncated_normal(shape, stddev=0.1))

    def bias_variable(shape):
        return tf.Variable(tf.constant(0.1, shape=shape))

    def conv2d(x, W):
        return tf.nn.conv2d(x, W, strides=[1, 1, 1, 1], padding="SAME")

    def max_pool_2x2(x):
        return tf.nn.max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")

    x = tf.placeholder(tf.float32, [None, 12, 12, 1])
    y_ = tf.placeholder(tf.float32, [None, 4])
    keep_prob = tf.placeholder(tf.float32)
    h_conv1 = tf.nn.relu(conv2d(x, weight_variable([3, 3, 1, 8])) + bias_variable([8]))
    h_pool1 = max_pool_2x2(h_conv1)
    h_conv2 = tf.nn.relu(conv2d(h_pool1, weight_variable([3, 3, 8, 16])) + bias_variable([16]))
    h_pool2 = tf.nn.avg_pool(h_conv2, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    print(h_conv1, h_pool1, h_pool2, sep="\n")
    flat = tf.reshape(h_pool2, [-1, 3 * 3 * 16])
    h_fc1 = tf.nn.dropout(tf.nn.relu(tf.matmul(flat, weight_variable([144, 32])) + bias_variable([32])), keep_prob)
    y_conv = tf.matmul(h_fc1, weight_variable([32, 4])) + bias_variable([4])
    cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y_conv))
    train_step = tf.train.MomentumOptimizer(0.05, 0.9).minimize(cross_entropy)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(y_conv, 1), tf.argmax(y_, 1)), tf.float32))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(8):
            batch = slice(i % 4 * 10, i % 4 * 10 + 10)
            if i % 2 == 0:
                train_accuracy = accuracy.eval(feed_dict={x: images[batch], y_: labels[batch], keep_prob: 1.0})
                print("step %d, training accuracy %g" % (i, train_accuracy))
            _, ce = sess.run([train_step, cross_entropy], {x: images[batch], y_: labels[batch], keep_prob: 0.6})
            print("cross entropy %.6f" % ce)
        print("test accuracy %g" % accuracy.eval(feed_dict={x: images, y_: labels, keep_prob: 1.0}))
        print(sess.run(h_pool1, {x: images[:1]})[0, :2, :2, :3])
