"""An MNIST CNN written with tf.layers, as the TF1 tutorials wrote it: conv2d and max_pooling2d twice, dense,
dropout switched by a ``training`` placeholder, sparse softmax cross entropy and Adam, on synthetic digits."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def make_data(num, seed):
    patterns = (np.random.RandomState(0).rand(10, 28, 28) > 0.8).astype(np.float32)
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, num)
    images = patterns[labels] * rng.uniform(0.5, 1.0, (num, 1, 1)) + rng.normal(0, 0.3, (num, 28, 28))
    return np.clip(images, 0, 1).reshape(num, 784).astype(np.float32), labels.astype(np.int64)


def cnn_model(x, training):
    input_layer = tf.reshape(x, [-1, 28, 28, 1])
    conv1 = tf.layers.conv2d(inputs=input_layer, filters=32, kernel_size=[5, 5], padding="same",
                             activation=tf.nn.relu)
    pool1 = tf.layers.max_pooling2d(inputs=conv1, pool_size=[2, 2], strides=2)
    conv2 = tf.layers.conv2d(inputs=pool1, filters=64, kernel_size=[5, 5], padding="same", activation=tf.nn.relu)
    pool2 = tf.layers.max_pooling2d(inputs=conv2, pool_size=[2, 2], strides=2)
    pool2_flat = tf.reshape(pool2, [-1, 7 * 7 * 64])
    dense = tf.layers.dense(inputs=pool2_flat, units=256, activation=tf.nn.relu)
    dropout = tf.layers.dropout(inputs=dense, rate=0.4, training=training)
    return tf.layers.dense(inputs=dropout, units=10)


def main():
    tf.set_random_seed(1234)
    train_x, train_y = make_data(48, seed=1)
    test_x, test_y = make_data(32, seed=2)
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    training = tf.placeholder(tf.bool, name="training")
    logits = cnn_model(x, training)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    global_step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(learning_rate=1e-3).minimize(loss, global_step=global_step)
    correct = tf.equal(tf.argmax(logits, 1), y)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    print("variables", [v.name for v in tf.trainable_variables()])
    print("logits", logits.name, logits.shape)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(6):
            rows = slice((step % 6) * 8, (step % 6) * 8 + 8)
            _, value = sess.run([train_op, loss], {x: train_x[rows], y: train_y[rows], training: True})
            print(f"step {step} loss {value:.6g}")
        value, acc = sess.run([loss, accuracy], {x: test_x, y: test_y, training: False})
        print(f"eval loss {value:.6g} accuracy {acc:.4f}")
        print("global step", sess.run(tf.train.get_global_step()))


if __name__ == "__main__":
    main()
