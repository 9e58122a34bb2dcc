"""The graphs behind ``data/tf_morphology_golden.npz``, written once for both engines: ``tf.nn.dilation2d`` and
``tf.nn.erosion2d`` with strides, rates and both paddings, and their gradients, each case returning the
tensors to fetch."""

import numpy as np

_RNG = np.random.RandomState(5)
IMAGES = _RNG.randn(2, 5, 7, 3).astype(np.float32)
FILTER = _RNG.randn(2, 3, 3).astype(np.float32)
TIED = np.round(_RNG.randn(1, 4, 5, 2) * 1.5).astype(np.float64)  # ties: the first maximum takes the gradient
TIED_FILTER = np.round(_RNG.randn(3, 2, 2)).astype(np.float64)


def _weighted_grads(tf, inputs, out):
    weights = np.arange(np.prod(out.shape.as_list()), dtype=out.dtype.as_numpy_dtype).reshape(out.shape.as_list())
    return tf.gradients(tf.reduce_sum(out * weights / 7.0), inputs)


def _morphology(tf, padding, strides, rates, images=IMAGES, kernel=FILTER):
    x, f = tf.constant(images), tf.constant(kernel)
    dilated = tf.nn.dilation2d(x, f, strides, rates, padding)
    eroded = tf.nn.erosion2d(x, f, strides, rates, padding, name="eroded")
    return [dilated, eroded, *_weighted_grads(tf, [x, f], dilated), *_weighted_grads(tf, [x, f], eroded)]


CASES = {
    "dilation_same": lambda tf: _morphology(tf, "SAME", [1, 1, 1, 1], [1, 1, 1, 1]),
    "dilation_valid_strided": lambda tf: _morphology(tf, "VALID", [1, 2, 1, 1], [1, 1, 2, 1]),
    "dilation_same_rates": lambda tf: _morphology(tf, "SAME", [1, 2, 3, 1], [1, 2, 2, 1]),
    "dilation_ties": lambda tf: _morphology(tf, "SAME", [1, 1, 1, 1], [1, 1, 1, 1], TIED, TIED_FILTER),
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
