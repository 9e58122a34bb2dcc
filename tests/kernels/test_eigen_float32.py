"""Float32 Exp, Log, Log1p, Tanh, Sigmoid, and Elu, Selu, Softplus, LogSoftmax and the softmax cross-entropies
made of them, a matrix times a column, and sums and means, give TensorFlow's bits (Eigen's approximations,
packet and scalar paths, denormals flushed, its order of sums), against the values TensorFlow wrote
(tests/golden/eigen/regenerate.py); other dtypes keep numpy's values."""

import pathlib
import warnings

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "eigen"
golden = load_script(HERE / "regenerate.py")
GOLDEN = np.load(HERE / "eigen_float32.npz")
OPS = {"exp": tf.exp, "log": tf.log, "tanh": tf.tanh, "sigmoid": tf.sigmoid, "elu": tf.nn.elu, "selu": tf.nn.selu,
       "softplus": tf.nn.softplus, "log1p": tf.math.log1p}


def _bits_differ(got, want_bits):
    got, want_bits = got.reshape(-1), want_bits.reshape(-1)
    got_bits = got.view(np.uint32)
    both_nan = np.isnan(got) & np.isnan(want_bits.view(np.float32))  # NaN's sign and payload are Eigen's own
    return np.flatnonzero((got_bits != want_bits) & ~both_nan)


@pytest.mark.parametrize("function", golden.FUNCTIONS)
def test_float32_values_are_tensorflows_bits(function):
    values = golden.inputs(function)
    with tf.Graph().as_default(), tf.Session() as sess, warnings.catch_warnings():
        warnings.simplefilter("error")  # infinities and NaNs come quietly, as in TensorFlow
        x = tf.placeholder(tf.float32, [None])
        y = OPS[function](x)
        got = sess.run(y, {x: values})
        tails = {n: sess.run(y, {x: values[-n:]}) for n in golden.TAIL_LENGTHS}
    differ = _bits_differ(got, GOLDEN[function])
    assert not differ.size, f"{differ.size} differ, first at {values[differ[:5]]}"
    for n, tail in tails.items():
        assert not _bits_differ(tail, GOLDEN[f"{function}_last_{n}"]).size, f"the last {n}"


@pytest.mark.parametrize("loop, packet", [("_exp", "_exp_packet"), ("_log", "_log_packet")])
def test_the_vectorized_loops_give_the_packet_functions_bits_across_every_float(loop, packet):
    # The loops build powers of two and mantissas from bits; the one-element functions (the ones the
    # golden values check) call floor and frexp. A sweep of the float32 bit patterns, and the edges.
    from numba import njit

    from numflow_kernels.cpu import eigen_float32

    sweep = np.arange(0, 1 << 32, 4099, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 0.70710677, 0.7071068, 88.7228, 88.723, 88.73,
                      -87.33, -103.97, -104.0, -104.01, 1.1754944e-38, 1.1754942e-38, 1e-45, -1e-40, 3.4e38, -1.0],
                     np.float32)
    x = np.concatenate([sweep, np.linspace(-110, 110, 100_000, dtype=np.float32), edges])
    x = x[:x.size - x.size % eigen_float32.PACKET]
    got, want = np.empty_like(x), np.empty_like(x)
    eigen_float32.compiled(getattr(eigen_float32, loop))(x, got)  # compiles the helpers too

    @njit
    def each(function, values, out):
        for i in range(values.size):
            out[i] = function(values[i])

    each(getattr(eigen_float32, packet), x, want)
    differ = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
    assert not differ.size, f"{differ.size} differ, first at {x[differ[:5]]}"


def test_shapes_and_strides_do_not_change_the_bits_of_a_c_ordered_tensor():
    values = golden.inputs("tanh")[:8000].reshape(40, 200)
    with tf.Graph().as_default(), tf.Session() as sess:
        whole = sess.run(tf.tanh(values))
        columns = sess.run(tf.tanh(tf.constant(values)[:, 100:]))  # a slice: made contiguous first
    assert whole.shape == (40, 200)
    assert not _bits_differ(whole.reshape(-1), GOLDEN["tanh"][:8000]).size
    np.testing.assert_array_equal(columns, whole[:, 100:])


def test_other_dtypes_keep_numpys_functions():
    x = np.linspace(-3, 3, 13)
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run([tf.exp(x), tf.tanh(x), tf.log(np.abs(x) + 1), tf.sigmoid(x)])
    np.testing.assert_array_equal(got[0], np.exp(x))
    np.testing.assert_array_equal(got[1], np.tanh(x))
    np.testing.assert_array_equal(got[2], np.log(np.abs(x) + 1))
    np.testing.assert_allclose(got[3], 1 / (1 + np.exp(-x)), rtol=1e-15)


@pytest.mark.parametrize("rows, classes", golden.XENT_SHAPES)
def test_softmax_cross_entropy_and_log_softmax_of_float32_are_tensorflows_bits(rows, classes):
    # A row's sum of exps in Eigen's order (four packet accumulators, the packet's lanes, the rest).
    logits, labels = golden.xent_inputs(rows, classes)
    with tf.Graph().as_default(), tf.Session() as sess:
        sparse = sess.run(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits).op.outputs)
        dense = sess.run(tf.nn.softmax_cross_entropy_with_logits_v2(labels=np.eye(classes, dtype=np.float32)[labels],
                                                                    logits=logits).op.outputs)
        log_softmax = sess.run(tf.nn.log_softmax(logits))
    assert not _bits_differ(log_softmax, GOLDEN[f"log_softmax_{rows}x{classes}"]).size
    for kind, (loss, backprop) in (("sparse", sparse), ("dense", dense)):
        assert not _bits_differ(loss, GOLDEN[f"{kind}_xent_{rows}x{classes}_loss"]).size, kind
        want = GOLDEN[f"{kind}_xent_{rows}x{classes}_backprop"]
        assert not _bits_differ(backprop, want).size, kind


@pytest.mark.parametrize("size", golden.GRAD_SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_grad_rounds_its_last_elements_as_eigens_scalar_path(size, dtype):
    y, dy = golden.sigmoid_grad_inputs(size, dtype)
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        grad = graph.create_op("SigmoidGrad", [tf.constant(y), tf.constant(dy)]).outputs[0]
        np.testing.assert_array_equal(sess.run(grad), GOLDEN[f"sigmoid_grad_{size}_{np.dtype(dtype).name}"])


@pytest.mark.parametrize("rows, columns", golden.MATRIX_VECTOR_SHAPES)
def test_a_float32_matrix_times_a_column_sums_its_rows_as_eigen(rows, columns):
    a, column = golden.matrix_vector_inputs(rows, columns)
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run(tf.matmul(a, column))
        transposed = sess.run(tf.matmul(a.T.copy(), column, transpose_a=True))  # BLAS's, to float rounding
    assert got.shape == (rows, 1)
    assert not _bits_differ(got, GOLDEN[f"matrix_vector_{rows}x{columns}"]).size
    np.testing.assert_allclose(transposed, got, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("case", range(len(golden.REDUCTIONS)))
def test_float32_sums_and_means_add_in_eigens_order(case):
    shape, axes, keep_dims = golden.REDUCTIONS[case]
    x = golden.reduction_input(case)
    with tf.Graph().as_default(), tf.Session() as sess:
        total, mean = sess.run([tf.reduce_sum(x, axes, keepdims=keep_dims),
                                tf.reduce_mean(x, axes, keepdims=keep_dims)])
    want = GOLDEN[f"sum_{case}"]
    assert total.shape == want.shape == np.sum(x, axis=axes, keepdims=keep_dims).shape
    assert not _bits_differ(total, want).size
    assert not _bits_differ(mean, GOLDEN[f"mean_{case}"]).size
    np.testing.assert_allclose(total, np.sum(x.astype(np.float64), axis=axes, keepdims=keep_dims), rtol=1e-4, atol=1e-2)


def test_a_reduction_of_middle_axes_keeps_numpys_sum():
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5) / 7
    with tf.Graph().as_default(), tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.reduce_sum(x, [0, 2])), x.sum(axis=(0, 2), dtype=np.float32))


def test_a_float32_sum_over_a_repeated_axis_is_tensorflows_error():
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Axes contains duplicate dimension: 1"):
            sess.run(tf.reduce_sum(np.ones((3, 4), np.float32), [1, -1]))
