"""A TF1 program of the kind tutorials write: flags, tf.app.run, tf.logging, seeded data, a softmax
regression trained by gradient descent, checks, and the ops of tf.math and tf.linalg. Run it with
TensorFlow (``/opt/tfenv/bin/python tf1_program.py --steps 30 > tf1_program.out``) to regenerate the
expected output; the test runs it with ``import numflow as tf`` in place of TensorFlow's import."""

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

flags = tf.app.flags
flags.DEFINE_integer("steps", 10, "Training steps.")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate.")
FLAGS = flags.FLAGS


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.set_random_seed(42)
    x_all = tf.random_normal([64, 4], seed=1)
    labels_all = tf.random.categorical(tf.zeros([64, 3]), 1, seed=2)[:, 0]
    order = tf.random_shuffle(tf.range(64), seed=3)
    x, labels = tf.gather(x_all, order), tf.gather(labels_all, order)
    w = tf.get_variable("w", [4, 3], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
    logits = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    with tf.control_dependencies([tf.assert_non_negative(loss), tf.assert_rank(logits, 2)]):
        loss = tf.identity(loss)
    train = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.arg_max(logits, 1), labels), tf.float32))
    per_class = tf.unsorted_segment_sum(tf.ones([64]), tf.cast(labels, tf.int32), 3)
    grid = tf.linspace(-1.0, 1.0, 5)
    summary = {
        "logsumexp": tf.reduce_logsumexp(logits, axis=1)[:3],
        "cumsum": tf.cumsum(per_class, exclusive=True),
        "norm": tf.norm(w),
        "trace": tf.trace(tf.matmul(w, w, transpose_a=True)),
        "det": tf.matrix_determinant(tf.matmul(w, w, transpose_a=True) + tf.eye(3)),
        "einsum": tf.einsum("ij,jk->ik", grid[None, :4], w),
        "nonzero": tf.count_nonzero(tf.greater(x, 0.0)),
        "gamma": tf.random_gamma([3], [1.5], seed=4),
    }
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps + 1):
            if step % 10 == 0:
                value, acc = sess.run([loss, accuracy])
                print(f"step {step:3d} loss {value:.4f} accuracy {acc:.3f}")
                tf.logging.info("step %d", step)
            sess.run(train)
        for key, value in sorted(sess.run(summary).items()):
            print(key, np.array2string(np.asarray(value), precision=4, suppress_small=True))
        print("classes", sess.run(per_class).tolist(), "grid", sess.run(grid).tolist())
        print("as_string", sess.run(tf.as_string(tf.constant([1.5, 2.0]), precision=2)).tolist())
        print("compat", tf.compat.as_str(b"done"))


if __name__ == "__main__":
    tf.app.run()
