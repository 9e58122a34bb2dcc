"""A variational autoencoder: an encoder to a mean and log variance, the reparameterization trick with
tf.random_normal, a decoder, a sigmoid cross entropy plus KL loss, RMSProp; and a plain autoencoder."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(3)
    rng = np.random.RandomState(3)
    data = (rng.rand(64, 30) > 0.6).astype(np.float32)

    def glorot(shape):
        return tf.random_normal(shape=shape, stddev=1. / tf.sqrt(shape[0] / 2.))

    x = tf.placeholder(tf.float32, shape=[None, 30])
    W = {"enc": tf.Variable(glorot([30, 16])), "mean": tf.Variable(glorot([16, 2])),
         "log_sigma": tf.Variable(glorot([16, 2])), "dec": tf.Variable(glorot([2, 16])),
         "out": tf.Variable(glorot([16, 30]))}
    b = {k: tf.Variable(glorot([int(v.shape[1])])) for k, v in W.items()}
    enc = tf.nn.tanh(tf.matmul(x, W["enc"]) + b["enc"])
    z_mean = tf.matmul(enc, W["mean"]) + b["mean"]
    z_std = tf.matmul(enc, W["log_sigma"]) + b["log_sigma"]
    eps = tf.random_normal(tf.shape(z_std), dtype=tf.float32, mean=0., stddev=1.0, name="epsilon")
    z = z_mean + tf.exp(z_std / 2) * eps
    dec = tf.nn.tanh(tf.matmul(z, W["dec"]) + b["dec"])
    logits = tf.matmul(dec, W["out"]) + b["out"]
    recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), 1)
    kl = -0.5 * tf.reduce_sum(1 + z_std - tf.square(z_mean) - tf.exp(z_std), 1)
    loss = tf.reduce_mean(recon + kl)
    train_op = tf.train.RMSPropOptimizer(0.01).minimize(loss)

    with tf.variable_scope("ae"):
        w1 = tf.get_variable("w1", [30, 8], initializer=tf.random_normal_initializer(stddev=0.1))
        w2 = tf.get_variable("w2", [8, 30], initializer=tf.random_normal_initializer(stddev=0.1))
    ae_out = tf.nn.sigmoid(tf.matmul(tf.nn.sigmoid(tf.matmul(x, w1)), w2))
    ae_loss = tf.reduce_mean(tf.pow(x - ae_out, 2))
    ae_train = tf.train.AdagradOptimizer(0.5).minimize(ae_loss)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(1, 16):
            batch = data[i % 4 * 16:i % 4 * 16 + 16]
            _, l, _, al = sess.run([train_op, loss, ae_train, ae_loss], feed_dict={x: batch})
            if i % 3 == 0 or i == 1:
                print("Step %i, Loss: %f, AE loss: %f" % (i, l, al))
        sample = sess.run(tf.nn.sigmoid(logits), {z: np.array([[0.5, -0.5], [0.0, 1.0]], np.float32)})
        print(np.round(sample[:, :8], 4))
        print(sess.run(z_mean, {x: data[:3]}))
