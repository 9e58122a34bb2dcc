"""tf.math.bessel_i0/i1, erfcinv, nextafter, zeta and polygamma against TensorFlow's values, gradients and names
(``data/tf_special_more_golden.npz``, made by ``data/make_tf_case_goldens.py special_more_cases``; TensorFlow
computes float32 in float32, numflow in float64 rounded once, hence the tolerance), and the one gradient where
numflow differs from TensorFlow."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case
from special_more_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_special_more_golden.npz")
# Gradients are named by each engine's graph: only the forward tensors' names are compared.
NAMED = {"bessel": 4, "bessel_i1_gradient": 1, "erfcinv_nextafter": 4, "zeta_polygamma": 4}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case(tf, run_case, GOLDEN, name, rtol=1e-6, atol=1e-12, named=NAMED[name])


def test_nextafter_steps_one_ulp():
    with tf.Graph().as_default():
        up, down = tf.Session().run([tf.math.nextafter(tf.constant([1.0]), 2.0), tf.math.nextafter([1.0], 0.0)])
    assert up[0] == np.nextafter(np.float32(1), np.float32(2)) and down[0] == np.float32(1) - np.float32(2.0**-24)


def test_bessel_i1_gradient_at_zero_is_one_half():
    """TensorFlow 2.21 gives 1.0 at 0; the derivative of I1 there is 1/2 (I1(x) = x/2 + O(x^3))."""
    with tf.Graph().as_default(), tf.Session().as_default():
        x = tf.constant([0.0, 0.3], tf.float64)
        y = tf.math.bessel_i1(x)
        assert tf.Session().run(tf.gradients(tf.reduce_sum(y), x)[0])[0] == 0.5
        assert tf.test.compute_gradient_error(x, [2], y, [2], x_init_value=np.array([0.0, 0.3])) < 1e-6
