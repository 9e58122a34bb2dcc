"""The first training steps of ``examples/deep_mnist.py``, written once for both engines: the example's
own graph code run with ``tf`` (numflow, or TensorFlow's compat.v1 when the golden is made)."""

import pathlib

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "deep_mnist.py"
STEPS, BATCH, SEED = 5, 8, 1


def example_with(tf):
    """examples/deep_mnist.py's namespace with ``tf`` in place of its numflow import."""
    source = EXAMPLE.read_text().replace("import numflow as tf\n", "")
    namespace = {"tf": tf, "__name__": "deep_mnist"}
    exec(compile(source, str(EXAMPLE), "exec"), namespace)
    return namespace


def first_losses(tf):
    """The loss fetched with each of the first STEPS training steps, and the accuracy after them."""
    example = example_with(tf)
    images, labels = example["make_data"](STEPS * BATCH, seed=4)
    with tf.Graph().as_default():
        tf.set_random_seed(SEED)
        x, y_, keep_prob, train_step, cross_entropy, accuracy = example["build"]()
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(STEPS):
                rows = slice(step * BATCH, (step + 1) * BATCH)
                feed = {x: images[rows], y_: labels[rows], keep_prob: 0.5}
                losses.append(float(sess.run([train_step, cross_entropy], feed)[1]))
            final = float(sess.run(cross_entropy, {x: images, y_: labels, keep_prob: 1.0}))
    return losses, final
