"""The graphs behind ``data/tf_fractional_pool_golden.npz``, written once for both engines:
``tf.nn.fractional_max_pool`` and ``tf.nn.fractional_avg_pool`` with fixed seeds (random and pseudo-random
cells, overlapping or not, a dimension that divides evenly), their pooling sequences and gradients."""

import numpy as np

_RNG = np.random.RandomState(11)
IMAGES = _RNG.randn(2, 9, 11, 3).astype(np.float32)
TIED = np.round(_RNG.randn(1, 8, 10, 2)).astype(np.float64)  # ties: the first maximum takes the gradient


def _weighted_grad(tf, x, out):
    weights = np.arange(np.prod(out.shape.as_list()), dtype=out.dtype.as_numpy_dtype).reshape(out.shape.as_list())
    return tf.gradients(tf.reduce_sum(out * weights / 7.0), x)[0]


def _pools(tf, images, ratio, **kw):
    x = tf.constant(images)
    outs = []
    for pool in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
        out, rows, cols = pool(x, ratio, deterministic=True, **kw)
        outs += [out, rows, cols, _weighted_grad(tf, x, out)]
    return outs


CASES = {
    "random": lambda tf: _pools(tf, IMAGES, [1, 1.5, 1.7, 1], seed=7, seed2=2),
    "random_overlapping": lambda tf: _pools(tf, IMAGES, [1, 1.3, 2.2, 1], overlapping=True, seed=3),
    "pseudo_random": lambda tf: _pools(tf, IMAGES, [1, 1.4, 1.6, 1], pseudo_random=True, seed=5, seed2=9),
    "pseudo_random_overlapping": lambda tf: _pools(tf, IMAGES, [1, 3, 1.9, 1], pseudo_random=True,
                                                   overlapping=True, seed=1, seed2=1),
    "ties": lambda tf: _pools(tf, TIED, [1, 2, 1.5, 1], seed=4, seed2=4),
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
