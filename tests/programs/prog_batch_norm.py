"""Batch normalization by hand: tf.nn.moments, an ExponentialMovingAverage of the batch statistics applied
under control_dependencies, a tf.cond on an is_training placeholder, tf.nn.batch_normalization, the
update ops run with the training step, then evaluation with the averages."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(31)
    rng = np.random.RandomState(31)
    data = (rng.randn(64, 6) * [1, 2, 3, 4, 5, 6] + [0, 1, 2, 3, 4, 5]).astype(np.float32)
    target = (data[:, 0] + data[:, 1] > 1).astype(np.int32)

    x = tf.placeholder(tf.float32, [None, 6])
    y = tf.placeholder(tf.int32, [None])
    is_training = tf.placeholder(tf.bool, [])

    def batch_norm(inputs, decay=0.9, epsilon=1e-3):
        size = inputs.get_shape()[-1]
        scale = tf.Variable(tf.ones([size]), name="scale")
        beta = tf.Variable(tf.zeros([size]), name="beta")
        batch_mean, batch_var = tf.nn.moments(inputs, [0], name="moments")
        ema = tf.train.ExponentialMovingAverage(decay=decay)

        def mean_var_with_update():
            ema_apply_op = ema.apply([batch_mean, batch_var])
            with tf.control_dependencies([ema_apply_op]):
                return tf.identity(batch_mean), tf.identity(batch_var)

        mean, var = tf.cond(is_training, mean_var_with_update,
                            lambda: (ema.average(batch_mean), ema.average(batch_var)))
        return tf.nn.batch_normalization(inputs, mean, var, beta, scale, epsilon), ema

    w1 = tf.Variable(tf.truncated_normal([6, 10], stddev=0.3))
    h, ema = batch_norm(tf.matmul(x, w1))
    h = tf.nn.relu(h)
    w2 = tf.Variable(tf.truncated_normal([10, 2], stddev=0.3))
    logits = tf.matmul(h, w2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train_op = tf.train.AdamOptimizer(0.05).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(tf.argmax(logits, 1), tf.int32), y), tf.float32))
    print([v.name for v in tf.global_variables()])
    print([v.name for v in tf.moving_average_variables()], ema.average_name(w1))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(8):
            batch = slice(step % 4 * 16, step % 4 * 16 + 16)
            _, l, acc = sess.run([train_op, loss, accuracy], {x: data[batch], y: target[batch], is_training: True})
            print("step %d loss %.5f accuracy %.4f" % (step, l, acc))
        averages = [v for v in tf.global_variables() if "ExponentialMovingAverage" in v.name]
        print(sess.run(averages[0])[:4])
        print("eval loss %.5f" % sess.run(loss, {x: data, y: target, is_training: False}))
