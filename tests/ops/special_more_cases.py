"""The graphs behind ``data/tf_special_more_golden.npz``, written once for both engines: tf.math.bessel_i0/i1,
erfcinv, nextafter, zeta and polygamma, with their gradients, each case returning the tensors to fetch."""

import numpy as np

POINTS = [-3.0, -0.5, 0.7, 2.0, 12.0, 40.0]


def _bessel(tf):
    x, x64 = tf.constant(POINTS), tf.constant(POINTS + [0.0], tf.float64)
    i0, i1 = tf.math.bessel_i0(x64), tf.math.bessel_i1(x64)
    return ([tf.math.bessel_i0(x), tf.math.bessel_i1(x, name="one"), i0, i1]
            + tf.gradients(tf.reduce_sum(i0 * np.arange(1.0, 8.0)), x64))


def _bessel_i1_gradient(tf):
    x = tf.constant(POINTS, tf.float64)
    return [tf.math.bessel_i1(x)] + tf.gradients(tf.reduce_sum(tf.math.bessel_i1(x)), x)


def _erfcinv_nextafter(tf):
    x = tf.constant(POINTS)
    return [tf.math.erfcinv(tf.constant([0.1, 0.5, 1.0, 1.5, 1.99])),
            tf.math.erfcinv(tf.constant([1e-10, 0.3, 2.0, 0.0], tf.float64), name="e64"),
            tf.math.nextafter(x, tf.constant(0.0)), tf.math.nextafter(tf.constant([1.0, -2.0], tf.float64),
                                                                         tf.constant([2.0, -3.0], tf.float64))]


def _zeta_polygamma(tf):
    xs = tf.constant([2.0, 3.0, 1.5, 4.0, 1.0, 0.5, 2.0, 3.0], tf.float64)
    qs = tf.constant([1.0, 0.5, 2.0, 10.0, 1.0, 1.0, -1.5, 1e9], tf.float64)
    orders = tf.constant([0.0, 1.0, 2.0, 3.0, 1.5, 1.0], tf.float64)
    at = tf.constant([0.5, 1.0, 2.5, 4.0, 1.0, -2.5], tf.float64)
    q, x = tf.constant([1.0, 0.5, 2.0], tf.float64), tf.constant([2.0, 3.0, 4.0], tf.float64)
    return ([tf.math.zeta(xs, qs), tf.math.zeta(tf.constant([2.0, 3.0, 1.5]), tf.constant([1.0, 0.5, 2.0])),
             tf.math.polygamma(orders, at), tf.polygamma(tf.constant([1.0, 2.0]), tf.constant([3.0, 0.25]))]
            + tf.gradients(tf.reduce_sum(tf.math.zeta(x, q)), q)
            + tf.gradients(tf.reduce_sum(tf.math.polygamma(tf.constant([1.0, 2.0, 3.0], tf.float64), x)), x))


CASES = {"bessel": _bessel, "bessel_i1_gradient": _bessel_i1_gradient, "erfcinv_nextafter": _erfcinv_nextafter,
         "zeta_polygamma": _zeta_polygamma}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
