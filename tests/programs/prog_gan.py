"""A GAN: generator and discriminator in variable scopes, the discriminator built twice with reuse, two
optimizers each with its own var_list (from the trainable collection and from a dict's values())."""

import numpy as np


def main(tf, workdir):
    tf.set_random_seed(5)
    np.random.seed(5)
    real = (np.random.rand(256, 16) * np.linspace(0, 1, 16)).astype(np.float32)

    def generator(z):
        with tf.variable_scope("generator"):
            h = tf.nn.leaky_relu(tf.matmul(z, tf.get_variable("w1", [4, 32])) + tf.get_variable(
                "b1", [32], initializer=tf.zeros_initializer()), alpha=0.2)
            return tf.nn.sigmoid(tf.matmul(h, tf.get_variable("w2", [32, 16])))

    def discriminator(x, reuse=False):
        with tf.variable_scope("discriminator", reuse=reuse):
            h = tf.nn.relu(tf.matmul(x, tf.get_variable("w1", [16, 32])))
            return tf.matmul(h, tf.get_variable("w2", [32, 1], initializer=tf.random_uniform_initializer(-0.1, 0.1)))

    Z = tf.placeholder(tf.float32, [None, 4], name="Z")
    X = tf.placeholder(tf.float32, [None, 16], name="X")
    G = generator(Z)
    D_real = discriminator(X)
    D_fake = discriminator(G, reuse=True)
    d_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=D_real, labels=tf.ones_like(D_real))
                            + tf.nn.sigmoid_cross_entropy_with_logits(logits=D_fake, labels=tf.zeros_like(D_fake)))
    g_loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(logits=D_fake, labels=tf.ones_like(D_fake)))
    d_vars = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="discriminator")
    g_vars = {v.op.name: v for v in tf.trainable_variables() if v.name.startswith("generator/")}
    print([v.name for v in d_vars], sorted(g_vars))
    d_train = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(d_loss, var_list=d_vars)
    g_train = tf.train.AdamOptimizer(0.002, beta1=0.5).minimize(g_loss, var_list=g_vars.values())
    print(sorted(v.name for v in tf.global_variables() if "Adam" in v.name)[:6])

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(10):
            noise = np.random.uniform(-1., 1., size=[32, 4])
            batch = real[step * 32 % 256:step * 32 % 256 + 32]
            _, dl = sess.run([d_train, d_loss], {X: batch, Z: noise})
            _, gl = sess.run([g_train, g_loss], {Z: noise})
            print("Step %i: Generator Loss: %f, Discriminator Loss: %f" % (step, gl, dl))
        print(sess.run(G, {Z: np.zeros([1, 4])})[0, :5])
