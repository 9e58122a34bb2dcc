"""cross and logdet against TensorFlow's values, gradients and names (``data/tf_linalg_cross_golden.npz``, made by
``data/make_tf_case_goldens.py`` from ``linalg_cross_cases.py``), against numpy, and their build errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from linalg_cross_cases import CASES, SPD, SQUARE, TALL, A, B, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_linalg_cross_golden.npz")


@pytest.mark.parametrize("name", sorted(set(CASES) - {"pinv_lu"}))
def test_tensorflows_values_gradients_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=1e-5, atol=1e-6, named=2)


def test_pinv_and_lu_as_tensorflow_and_numpy():
    check_case_golden(tf, run_case, GOLDEN, "pinv_lu", rtol=1e-5, atol=1e-6)
    values, _ = run_case(tf, "pinv_lu")
    np.testing.assert_allclose(values[0], np.linalg.pinv(TALL), rtol=1e-10)
    for matrix, lu, p in zip(SQUARE, values[3], values[4]):
        lower, upper = np.tril(lu, -1) + np.eye(4), np.triu(lu)
        np.testing.assert_allclose(matrix[p], lower @ upper, rtol=1e-12, atol=1e-12)


def test_by_numpy():
    values, _ = run_case(tf, "cross")
    np.testing.assert_allclose(values[0], np.cross(A, B), rtol=1e-6)
    np.testing.assert_allclose(run_case(tf, "logdet")[0][0], np.linalg.slogdet(SPD)[1], rtol=1e-12)


def test_cross_shapes_and_errors():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, 3])
        assert tf.cross(a, tf.placeholder(tf.float32, [4, None])).shape.as_list() == [4, 3]
        with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 1"):
            tf.cross(np.ones([2, 3]), np.ones([1, 3]))
        with pytest.raises(ValueError, match="Dimension must be 3 but is 4"):
            tf.linalg.cross(np.ones([2, 4]), np.ones([2, 4]))
        with pytest.raises(TypeError, match="Input 'b' of 'Cross' Op has type float64 that does not match"):
            tf.cross(a, tf.constant(np.ones([2, 3])))


def test_qr_shapes_and_gradient_limits():
    with tf.Graph().as_default():
        q, r = tf.qr(tf.placeholder(tf.float32, [None, 5, 3]))
        assert (q.shape.as_list(), r.shape.as_list()) == ([None, 5, 3], [None, 3, 3])
        q, r = tf.linalg.qr(tf.constant(np.ones([4, 2])), full_matrices=True)
        assert (q.shape.as_list(), r.shape.as_list()) == ([4, 4], [4, 2])
        with pytest.raises(NotImplementedError, match="QrGrad not implemented when nrows > ncols and full_matrices"):
            tf.gradients(r, q.op.inputs[0])
        with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
            tf.qr(np.ones([3]))
