"""An autoencoder of dense layers (784-128-32-128-784), trained with RMSProp on synthetic images, as TF1
tutorials wrote it with tf.layers.dense; prints its losses and a reconstruction."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def main():
    tf.set_random_seed(7)
    rng = np.random.RandomState(3)
    basis = rng.rand(6, 784).astype(np.float32)
    data = (rng.rand(64, 6).astype(np.float32) @ basis) / 3.0
    x = tf.placeholder(tf.float32, [None, 784])
    with tf.variable_scope("encoder"):
        h = tf.layers.dense(x, 128, activation=tf.nn.sigmoid)
        code = tf.layers.dense(h, 32, activation=tf.nn.sigmoid, name="code")
    with tf.variable_scope("decoder"):
        h = tf.layers.dense(code, 128, activation=tf.nn.sigmoid)
        out = tf.layers.dense(h, 784, activation=tf.nn.sigmoid)
    loss = tf.reduce_mean(tf.pow(x - out, 2))
    train = tf.train.RMSPropOptimizer(0.01).minimize(loss)
    print("encoder", [v.name for v in tf.trainable_variables("encoder")])
    print("decoder", [v.name for v in tf.trainable_variables("decoder")])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(8):
            for i in range(0, 64, 16):
                _, value = sess.run([train, loss], {x: data[i:i + 16]})
            print(f"epoch {epoch} loss {value:.6g}")
        codes, rebuilt = sess.run([code, out], {x: data[:2]})
        print("code", np.array2string(codes[0, :6], precision=5))
        print("rebuilt", np.array2string(rebuilt[1, :6], precision=5))


if __name__ == "__main__":
    main()
