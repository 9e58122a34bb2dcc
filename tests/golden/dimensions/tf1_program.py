"""A TF1 program that reads its sizes from static shapes, as TensorFlow 1 code does everywhere:
``x.get_shape()[1].value``, ``int(x.shape[0])``, Dimensions in placeholders, reshapes, variables and
layers. ``regenerate.py`` beside it records what TensorFlow printed; the test runs it on numflow."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def main():
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [None, 4, 3], name="x")
    batch, steps, channels = x.get_shape()
    print("input", x.get_shape(), batch.value, steps.value, channels.value, f"{batch} x {steps} x {channels}")
    if x.shape[0].value is None:
        print("batch size unknown until run time")
    flat = tf.reshape(x, [-1, x.shape[1].value * x.shape[2].value])
    same = tf.reshape(x, [-1, x.shape[1] * x.shape[2]])
    print("flat", flat.shape, same.shape, flat.shape[-1].value, [d.value for d in flat.shape])
    mask = tf.placeholder(tf.float32, [None, x.shape[1]], name="mask")
    weights = tf.ones([x.shape[1], x.shape[2]])
    print("mask", mask.shape, "weights", weights.shape, x.shape[1:], x.shape[1:].num_elements())
    time_major = tf.transpose(x, [1, 0, 2])
    per_step = tf.unstack(time_major, num=x.shape[1])
    print("steps", len(per_step), per_step[0].shape, per_step[0].get_shape()[-1].value)
    hidden = tf.layers.dense(flat, 8, activation=tf.nn.relu, name="hidden")
    n_hidden = hidden.get_shape()[1].value
    w = tf.get_variable("w", [n_hidden, 2],
                        initializer=tf.truncated_normal_initializer(stddev=1.0 / np.sqrt(n_hidden), seed=1))
    b = tf.Variable(tf.zeros([w.shape[1]]), name="b")
    logits = tf.matmul(hidden, w) + b
    print("logits", logits.shape, [str(d) for d in logits.shape], int(w.shape[0]), w.shape[1] == 2,
          w.shape.as_list(), logits.shape[0] == 2)
    print("variables", [(v.name, v.shape[0].value, v.shape.ndims) for v in tf.trainable_variables()])
    labels = tf.placeholder(tf.int32, [None], name="labels")
    one_hot = tf.one_hot(labels, logits.shape[-1])
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=one_hot, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    rng = np.random.RandomState(0)
    data = rng.uniform(-1, 1, size=(16, steps.value, channels.value)).astype(np.float32)
    targets = (data.sum(axis=(1, 2)) > 0).astype(np.int32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(6):
            value, _ = sess.run([loss, train], {x: data, labels: targets})
            print(f"step {step} loss {value:.5f}")
        print("zeros", sess.run(tf.zeros([x.shape[1], 2])).shape, sess.run(tf.shape(flat), {x: data}))


if __name__ == "__main__":
    main()
