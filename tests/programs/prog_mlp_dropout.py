"""A two-layer perceptron with dropout fed through a keep_prob placeholder, an exponentially decayed
learning rate on a global step, L2 regularization and clipped logits."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(42)
    rng = np.random.RandomState(1)
    data = rng.randn(120, 20).astype(np.float32)
    target = (data[:, :3].sum(1) > 0).astype(np.int64) + (data[:, 3] > 1)

    x = tf.placeholder(tf.float32, [None, 20], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    keep_prob = tf.placeholder(tf.float32, name="keep_prob")

    def layer(inputs, n_out, name, act=tf.nn.relu):
        with tf.name_scope(name):
            n_in = int(inputs.get_shape()[1])
            w = tf.Variable(tf.truncated_normal([n_in, n_out], stddev=1.0 / np.sqrt(n_in)), name="weights")
            b = tf.Variable(tf.constant(0.1, shape=[n_out]), name="biases")
            tf.add_to_collection("l2", tf.nn.l2_loss(w))
            out = tf.matmul(inputs, w) + b
            return act(out) if act else out

    hidden1 = tf.nn.dropout(layer(x, 32, "hidden1"), keep_prob)
    hidden2 = tf.nn.dropout(layer(hidden1, 16, "hidden2", tf.nn.tanh), keep_prob)
    logits = tf.clip_by_value(layer(hidden2, 3, "softmax_linear", None), -8.0, 8.0)
    xent = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    loss = xent + 1e-3 * tf.add_n(tf.get_collection("l2"))

    global_step = tf.Variable(0, trainable=False, name="global_step")
    learning_rate = tf.train.exponential_decay(0.05, global_step, 5, 0.9, staircase=True)
    train_op = tf.train.AdamOptimizer(learning_rate).minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.nn.in_top_k(logits, y, 1), tf.float32))
    print(logits, learning_rate, [v.name for v in tf.trainable_variables()], sep="\n")

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(12):
            batch = slice(step % 4 * 30, step % 4 * 30 + 30)
            _, l, lr = sess.run([train_op, loss, learning_rate], {x: data[batch], y: target[batch], keep_prob: 0.5})
            print("step %d loss %.6f lr %.6f gs %d" % (step, l, lr, sess.run(global_step)))
        print("train accuracy %g" % accuracy.eval({x: data, y: target, keep_prob: 1.0}))
        print(sess.run(hidden1, {x: data[:2], keep_prob: 0.5})[:, :6])
