"""Build a small graph and run it in a session."""

import numflow as tf

x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
w = tf.constant([[1.0], [2.0], [3.0]], name="w")
y = tf.matmul(x, w) + 1.0

with tf.Session() as sess:
    print(sess.run(y, feed_dict={x: [[1, 1, 1], [0, 1, 0]]}))
