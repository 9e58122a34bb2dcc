"""Complex tensors against TensorFlow's values, gradients and names (``data/tf_complex_golden.npz``, made by
``data/make_tf_case_goldens.py`` from ``complex_cases.py``), against numpy and finite differences, and the
dtype errors of the ops that refuse them."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from complex_cases import CASES, M, Z, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_complex_golden.npz")
# The gradients' names differ where the graphs of the two engines differ; the values do not.
_NAMED = {"parts": None, "arithmetic": None, "variables": None, "gradients": 0, "scans_and_segments": 10}


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=2e-5, atol=2e-6, named=_NAMED[name])


def test_dtypes():
    assert tf.complex64.real_dtype is tf.float32 and tf.dtypes.complex128.real_dtype is tf.float64
    assert tf.complex64.is_complex and not tf.complex64.is_floating and tf.complex64.is_numeric
    assert (tf.complex64.size, tf.complex128.as_datatype_enum) == (8, 18)
    assert tf.as_dtype(np.complex64) is tf.complex64 and tf.as_dtype("complex128") is tf.complex128
    assert tf.float32.real_dtype is tf.float32 and not tf.float32.is_complex
    assert tf.dtypes.complex is tf.complex
    with pytest.raises(TypeError, match="Cannot find minimum value of <dtype: 'complex64'>"):
        _ = tf.complex64.min


def test_by_numpy_and_finite_differences():
    values, _ = run_case(tf, "arithmetic")
    c = Z[::-1]
    np.testing.assert_allclose(values[2], Z * c, rtol=1e-6)
    np.testing.assert_allclose(values[24], Z @ c.conj().T, rtol=1e-5)
    np.testing.assert_allclose(values[26], np.conj(np.swapaxes(M, 1, 2)) @ M, rtol=1e-5)
    # d/dz of sum |z * z| is the conjugate-Wirtinger gradient 2 * 2 * z|z|^2 / |z^2| = 4 * z / ... : checked by
    # finite differences of the real loss along the real and imaginary directions.
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, [3])
        loss = tf.reduce_sum(tf.abs(tf.sin(z) * z)) + tf.reduce_sum(tf.real(tf.exp(z) / (z + 2.0)))
        grad = tf.gradients(loss, z)[0]
        point = np.array([0.3 + 0.2j, -1.1 + 0.5j, 0.7 - 0.9j])
        with tf.Session() as sess:
            analytic = sess.run(grad, {z: point})
            eps = 1e-6
            for i in range(3):
                step = np.zeros(3, complex)
                step[i] = eps
                d_re = (sess.run(loss, {z: point + step}) - sess.run(loss, {z: point - step})) / (2 * eps)
                d_im = (sess.run(loss, {z: point + 1j * step}) - sess.run(loss, {z: point - 1j * step})) / (2 * eps)
                np.testing.assert_allclose(analytic[i], d_re + 1j * d_im, rtol=1e-6)


def test_graph_def_round_trip_and_feeds():
    with tf.Graph().as_default() as graph:
        tf.constant(Z, name="z")
        tf.zeros([3], tf.complex128, name="zeros")
        tf.constant(1 - 2j, name="scalar")
        tf.placeholder(tf.complex64, [None, 2], name="p")
        graph_def = graph.as_graph_def()
    values = {n.name: n.attr["value"].tensor for n in graph_def.node if n.op == "Const"}
    assert list(values["scalar"].dcomplex_val) == [1.0, -2.0]
    assert list(values["z"].scomplex_val)[:2] == [Z[0, 0].real, Z[0, 0].imag]
    with tf.Graph().as_default():
        z, zeros, scalar, p = tf.import_graph_def(graph_def, return_elements=["z:0", "zeros:0", "scalar:0", "p:0"])
        assert p.dtype is tf.complex64 and p.shape.as_list() == [None, 2]
        with tf.Session() as sess:
            got = sess.run([z, zeros, scalar, tf.conj(p)], {p: [[1j, 2]]})
    np.testing.assert_array_equal(got[0], Z)
    np.testing.assert_array_equal(got[1], np.zeros(3, np.complex128))
    assert got[2] == 1 - 2j and got[3].tolist() == [[-1j, 2]]


def test_errors():
    with tf.Graph().as_default():
        z, x = tf.constant(Z), tf.constant(np.ones(3, np.float32))
        with pytest.raises(TypeError, match="The `real` and `imag` components have incorrect types: float32 int32"):
            tf.complex(x, tf.constant([1, 2, 3]))
        with pytest.raises(TypeError, match="Expected numeric or variant tensor, got dtype tf.string."):
            tf.conj(tf.constant("a"))
        with pytest.raises(TypeError, match="parameter 'x' has DataType complex64 not in list of allowed values"):
            tf.maximum(z, z)
        with pytest.raises(TypeError, match="parameter 'input' has DataType complex64 not in list"):
            tf.reduce_max(z)
        with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type complex64 that does not match type "
                                            "float32 of argument 'x'."):
            tf.constant(3.0) * z
        with pytest.raises(TypeError, match="Expected float32, but got 1j of type 'complex'."):
            tf.constant(1j, tf.float32)


def test_conjugate_transpose_and_its_gradient():
    with tf.Graph().as_default():
        m = tf.constant(M)
        adjoint = tf.linalg.adjoint(m)
        weights = np.arange(18).reshape(2, 3, 3) * (1 - 0.5j)
        grad = tf.gradients(tf.reduce_sum(tf.real(adjoint * weights)), m)[0]
        assert adjoint.op.type == "ConjugateTranspose"
        assert tf.transpose(tf.constant(Z), conjugate=False).op.type == "Transpose"
        with tf.Session() as sess:
            got, got_grad = sess.run([adjoint, grad])
    np.testing.assert_array_equal(got, np.conj(np.swapaxes(M, 1, 2)))
    # Re(conj(m^T) * w) = Re(m^T * conj(w)): its conjugate-Wirtinger gradient is w transposed.
    np.testing.assert_allclose(got_grad, np.swapaxes(weights, 1, 2), rtol=1e-6)
