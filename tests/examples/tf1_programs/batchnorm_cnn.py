"""A CNN with batch normalization after each convolution, switching between training and inference with a
``tf.placeholder(tf.bool)``: tf.layers.batch_normalization and tf.layers.dropout take it as ``training``, a
tf.cond adds noise to the inputs only in training, and the train op runs after the UPDATE_OPS.
``--save PATH`` saves the trained model; ``--restore PATH`` restores one instead of training."""

import sys

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def make_data(num, seed):
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 4, num)
    centers = np.random.RandomState(0).normal(0, 1, (4, 12, 12, 2))
    images = centers[labels] + rng.normal(0, 0.8, (num, 12, 12, 2))
    return images.astype(np.float32), labels.astype(np.int32)


def model(images, is_training):
    noisy = tf.cond(is_training, lambda: images + tf.random_normal(tf.shape(images), stddev=0.1, seed=3),
                    lambda: images)
    net = tf.layers.conv2d(noisy, 8, 3, padding="same", use_bias=False, name="conv1")
    net = tf.layers.batch_normalization(net, training=is_training, name="bn1")
    net = tf.nn.relu(net)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.conv2d(net, 16, 3, padding="same", use_bias=False, name="conv2")
    net = tf.layers.batch_normalization(net, training=is_training, momentum=0.9, name="bn2")
    net = tf.nn.relu(net)
    net = tf.layers.flatten(net)
    net = tf.layers.dense(net, 32, activation=tf.nn.relu, use_bias=False)
    net = tf.layers.batch_normalization(net, training=is_training)
    net = tf.layers.dropout(net, rate=0.3, training=is_training)
    return tf.layers.dense(net, 4)


def main(argv):
    tf.set_random_seed(11)
    images, labels = make_data(40, seed=1)
    test_images, test_labels = make_data(24, seed=2)
    x = tf.placeholder(tf.float32, [None, 12, 12, 2])
    y = tf.placeholder(tf.int32, [None])
    is_training = tf.placeholder(tf.bool, [])
    logits = model(x, is_training)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(tf.argmax(logits, 1), tf.int32), y), tf.float32))
    print("update ops", [op.name for op in update_ops])
    print("moving averages", [v.name for v in tf.global_variables() if "moving" in v.name])
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        if "--restore" in argv:
            saver.restore(sess, argv[argv.index("--restore") + 1])
        else:
            for step in range(8):
                rows = slice(step % 4 * 10, step % 4 * 10 + 10)
                _, value = sess.run([train_op, loss], {x: images[rows], y: labels[rows], is_training: True})
                print(f"step {step} loss {value:.6g}")
        value, acc = sess.run([loss, accuracy], {x: test_images, y: test_labels, is_training: False})
        print(f"eval loss {value:.6g} accuracy {acc:.4f}")
        mean, variance = sess.run(["bn2/moving_mean:0", "bn2/moving_variance:0"])
        print("bn2 moving mean", np.array2string(mean[:4], precision=5))
        print("bn2 moving variance", np.array2string(variance[:4], precision=5))
        print("eval logits", np.array2string(sess.run(logits, {x: test_images[:2], is_training: False}), precision=4))
        if "--save" in argv:
            saver.save(sess, argv[argv.index("--save") + 1], write_meta_graph=False, write_state=False)


if __name__ == "__main__":
    main(sys.argv)
