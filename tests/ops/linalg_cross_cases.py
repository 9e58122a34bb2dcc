"""The graphs behind ``data/tf_linalg_cross_golden.npz``, written once for both engines: cross (values and
gradients), logdet and qr (values and gradients), pinv and lu (values), each case returning the tensors to
fetch."""

import numpy as np

_RNG = np.random.RandomState(21)
A = _RNG.randn(2, 4, 3).astype(np.float32)
B = _RNG.randn(2, 4, 3).astype(np.float32)
_M = _RNG.randn(2, 3, 3)
SPD = _M @ np.swapaxes(_M, -1, -2) + 3 * np.eye(3)


def _cross(tf):
    a, b = tf.constant(A), tf.constant(B)
    out = tf.cross(a, b)
    weights = np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 5
    grads = tf.gradients(tf.reduce_sum(out * weights), [a, b])
    return [out, tf.linalg.cross(A[0, 0], B[0, 0], name="single"), *grads]


def _logdet(tf):
    m = tf.constant(SPD)
    out = tf.linalg.logdet(m)
    return [out, tf.gradients(tf.reduce_sum(out * [1.0, -2.0]), m)[0]]


def _qr(tf):
    outs = []
    for shape, full in (((4, 3), False), ((3, 5), False), ((2, 3, 3), True), ((3, 5), True)):
        x = tf.constant(_RNG_QR.randn(*shape))
        q, r = tf.qr(x, full_matrices=full)
        weights_q = np.linspace(-1, 1, np.prod(q.shape.as_list())).reshape(q.shape.as_list())
        weights_r = np.linspace(2, -1, np.prod(r.shape.as_list())).reshape(r.shape.as_list())
        outs += [q, r, tf.gradients(tf.reduce_sum(q * weights_q) + tf.reduce_sum(r * weights_r), x)[0]]
    return outs


_RNG_QR = np.random.RandomState(8)
_RNG_PINV = np.random.RandomState(9)
WIDE = _RNG_PINV.randn(2, 3, 5).astype(np.float32)
TALL = _RNG_PINV.randn(4, 3)
SQUARE = _RNG_PINV.randn(2, 4, 4)


def _pinv_lu(tf):
    lu, p = tf.linalg.lu(SQUARE)
    lu32, p64 = tf.linalg.lu(SQUARE[0].astype(np.float32), output_idx_type=tf.int64)
    rank_deficient = np.outer(TALL[:, 0], TALL[0])
    return [tf.linalg.pinv(TALL), tf.linalg.pinv(WIDE), tf.linalg.pinv(rank_deficient, rcond=1e-3), lu, p, lu32,
            p64]


CASES = {"cross": _cross, "logdet": _logdet, "qr": _qr, "pinv_lu": _pinv_lu}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
