"""The graphs behind ``data/tf_counting_golden.npz``, written once for both engines: roll, identity_n, bincount,
histogram_fixed_width, searchsorted and tf.bitwise, each case returning the tensors to fetch (values and names)."""

import numpy as np

_RNG = np.random.RandomState(5)
MATRIX = _RNG.randn(3, 4).astype(np.float32)
SORTED = np.sort(_RNG.randint(0, 20, size=(2, 6)), axis=1).astype(np.int32)
PROBES = np.array([[0, 5, 19, 7], [3, 3, 20, -1]], np.int32)


def _roll_grad(tf):
    x = tf.constant(MATRIX)
    out = tf.roll(x, [1, -3], [0, 1])
    return [out, tf.gradients(tf.reduce_sum(out * np.arange(12, dtype=np.float32).reshape(3, 4)), x)[0]]


def _identity_n_grad(tf):
    a, b = tf.constant(MATRIX), tf.constant([1.0, 2.0])
    out = tf.identity_n([a, b])
    grads = tf.gradients(tf.reduce_sum(out[0]) * 2.0 + tf.reduce_sum(out[1] * out[1]), [a, b])
    return list(out) + [tf.identity(g, name=f"grad_{i}") for i, g in enumerate(grads)]


def _bitwise(tf):
    a = np.array([0, 1, 5, -7, 255, 2**30], np.int32)
    b = np.array([3, 6, 12, -1, 15, 2**29 + 1], np.int32)
    shifts = np.array([0, 1, 4, 3, 7, 1], np.int32)
    small = np.array([0, 7, 128, 255], np.uint8)
    bw = tf.bitwise
    return [bw.bitwise_and(a, b), bw.bitwise_or(a, b), bw.bitwise_xor(a, b), bw.invert(a), bw.left_shift(a, shifts),
            bw.right_shift(a, shifts), bw.bitwise_and(small, np.uint8(12)), bw.invert(small),
            bw.right_shift(small, np.uint8(3)), bw.invert(np.array([3, -4], np.int8)),
            bw.left_shift(np.array([1, 3], np.int64), np.array([40, 2], np.int64))]


CASES = {
    "roll": lambda tf: [tf.roll(np.arange(10), 2, 0), tf.roll(MATRIX, [1, -2], [0, 1]), tf.roll(MATRIX, [1, 2], [1, 1]),
                        tf.roll(MATRIX, 7, -1, name="wrap")],
    "roll_grad": _roll_grad,
    "identity_n": _identity_n_grad,
    "bincount": lambda tf: [tf.bincount([1, 1, 3, 5]), tf.bincount(np.array([2, 0, 2], np.int32), minlength=6),
                            tf.bincount([4, 1, 4, 9], maxlength=5),
                            tf.bincount([1, 2, 1], weights=tf.constant([0.5, 2.0, 1.25])),
                            tf.math.bincount([[0, 3], [3, 3]], dtype=tf.float32),
                            tf.bincount(np.zeros([0], np.int32))],
    "histogram_fixed_width": lambda tf: [
        tf.histogram_fixed_width(MATRIX, [-1.0, 1.0], nbins=5),
        tf.histogram_fixed_width(np.array([-3, 0, 1, 2, 9, 10, 15], np.int32), [0, 10], nbins=4, dtype=tf.int64),
        tf.histogram_fixed_width(np.linspace(0, 1, 11), [0.0, 1.0])],
    "searchsorted": lambda tf: [tf.searchsorted(SORTED, PROBES), tf.searchsorted(SORTED, PROBES, side="right"),
                                tf.searchsorted(SORTED[0], PROBES[0] * 1, out_type=tf.int64),
                                tf.searchsorted(np.array([0.5, 1.5, 2.5]), np.array([1.0, 3.0, -1.0, 1.5]))],
    "bitwise": _bitwise,
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
