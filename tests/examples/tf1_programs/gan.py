"""A small GAN on 2-D points: a generator and a discriminator of dense layers in their own variable scopes,
the discriminator shared between real and fake inputs (reuse=True), each trained by its own Adam on its own
var_list, alternately."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def generator(z):
    with tf.variable_scope("generator"):
        h = tf.layers.dense(z, 16, activation=tf.nn.leaky_relu)
        return tf.layers.dense(h, 2)


def discriminator(x, reuse=False):
    with tf.variable_scope("discriminator", reuse=reuse):
        h = tf.layers.dense(x, 16, activation=tf.nn.leaky_relu, name="hidden")
        return tf.layers.dense(h, 1, name="logit")


def main():
    tf.set_random_seed(5)
    rng = np.random.RandomState(9)
    real_points = (rng.normal(0, 0.2, (256, 2)) + [1.0, -0.5]).astype(np.float32)
    noise = rng.uniform(-1, 1, (256, 4)).astype(np.float32)
    real = tf.placeholder(tf.float32, [None, 2])
    z = tf.placeholder(tf.float32, [None, 4])
    fake = generator(z)
    d_real = discriminator(real)
    d_fake = discriminator(fake, reuse=True)
    bce = tf.nn.sigmoid_cross_entropy_with_logits
    d_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_real), logits=d_real)) + tf.reduce_mean(
        bce(labels=tf.zeros_like(d_fake), logits=d_fake))
    g_loss = tf.reduce_mean(bce(labels=tf.ones_like(d_fake), logits=d_fake))
    d_vars = [v for v in tf.trainable_variables() if v.name.startswith("discriminator/")]
    g_vars = [v for v in tf.trainable_variables() if v.name.startswith("generator/")]
    d_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(d_loss, var_list=d_vars)
    g_train = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(g_loss, var_list=g_vars)
    print("d vars", [v.name for v in d_vars])
    print("g vars", [v.name for v in g_vars])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(12):
            rows = slice(step % 8 * 32, step % 8 * 32 + 32)
            _, dl = sess.run([d_train, d_loss], {real: real_points[rows], z: noise[rows]})
            _, gl = sess.run([g_train, g_loss], {z: noise[rows]})
            if step % 3 == 0:
                print(f"step {step} d_loss {dl:.6g} g_loss {gl:.6g}")
        samples = sess.run(fake, {z: noise[:64]})
        print("fake mean", np.array2string(samples.mean(axis=0), precision=4))


if __name__ == "__main__":
    main()
