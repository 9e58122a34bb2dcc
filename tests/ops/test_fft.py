"""The FFTs against TensorFlow's values, gradients and names (``data/tf_fft_golden.npz``, made by
``data/make_tf_case_goldens.py`` from ``fft_cases.py``), against numpy and finite differences, and their build
errors in TensorFlow's words."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from fft_cases import CASES, X64, X, Z, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_fft_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_gradients_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=2e-5, atol=2e-5)


def test_by_numpy():
    complex_values, _ = run_case(tf, "complex")
    np.testing.assert_allclose(complex_values[2], np.fft.fft2(Z.astype(np.complex128)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(complex_values[7], np.fft.ifftn(Z[..., ::-1].astype(np.complex128), axes=(1, 2, 3)),
                               rtol=1e-12)
    real_values, _ = run_case(tf, "real")
    np.testing.assert_allclose(real_values[4], np.fft.rfft2(X.astype(np.float64), s=(4, 9)), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(real_values[7], np.fft.rfft(X64), rtol=1e-12)
    np.testing.assert_allclose(real_values[-1], X64, rtol=1e-12)


def test_real_fft_gradients_by_finite_differences():
    rng = np.random.RandomState(3)
    weights = rng.randn(3, 5) + 1j * rng.randn(3, 5)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [3, 8])
        spectrum = tf.signal.rfft2d(x)
        loss = tf.reduce_sum(tf.real(spectrum * weights)) + tf.reduce_sum(tf.signal.irfft(spectrum) ** 2)
        grad = tf.gradients(loss, x)[0]
        point = rng.randn(3, 8)
        with tf.Session() as sess:
            analytic = sess.run(grad, {x: point})
            numeric = np.zeros_like(point)
            for index in np.ndindex(point.shape):
                step = np.zeros_like(point)
                step[index] = 1e-6
                numeric[index] = (sess.run(loss, {x: point + step}) - sess.run(loss, {x: point - step})) / 2e-6
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-6)


def test_shapes_and_names():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6, 8])
        z = tf.placeholder(tf.complex64, [None, 6, 8])
        assert tf.signal.rfft(x, [12]).op.inputs[0].name == "rfft/Pad:0"
        assert tf.signal.rfft2d(x, [3, 4]).shape.as_list() == [None, 3, 3]
        assert tf.signal.irfft(z).shape.as_list() == [None, 6, 14]
        assert tf.signal.irfft2d(z, [4, 20]).op.inputs[0].name == "irfft2d/Pad:0"
        assert tf.spectral.fft3d(z).shape.as_list() == [None, 6, 8]
        assert tf.signal.rfft3d(x).dtype == tf.complex64
        assert tf.signal.rfft(tf.placeholder(tf.float32, [None, None])).shape.as_list() == [None, None]


def test_dynamic_lengths():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None])
        n = tf.placeholder(tf.int32, [])
        spectrum = tf.signal.rfft(x, tf.stack([n]))
        back = tf.signal.irfft(tf.signal.rfft(x))
        with tf.Session() as sess:
            got, round_trip = sess.run([spectrum, back], {x: X[0, 0], n: 11})
    np.testing.assert_allclose(got, np.fft.rfft(X[0, 0], 11), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(round_trip, X[0, 0], rtol=1e-5, atol=1e-6)


def test_errors():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4])
        with pytest.raises(TypeError, match="parameter 'input' has DataType float32 not in list of allowed values: "
                                            "complex64, complex128"):
            tf.fft(x)
        with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64 inputs, got: Tensor"):
            tf.signal.rfft(tf.constant([1, 2]))
        with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128 inputs"):
            tf.signal.irfft(x)
        with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank at least 2"):
            tf.signal.rfft2d(tf.constant([1.0, 2.0]))
        with pytest.raises(LookupError, match="No gradient defined for operation'rfft3d' \\(op type: RFFT3D\\)"):
            tf.gradients(tf.reduce_sum(tf.abs(tf.signal.rfft3d(x))), x)
