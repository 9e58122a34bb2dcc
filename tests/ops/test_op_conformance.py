"""Every op against numpy: values, dtypes and static shapes, one table row per case.

A row is ``(id, build, reference, inputs)``: ``build`` takes tensors and returns a tensor,
``reference`` takes numpy arrays and returns the expected array (an expected dtype may follow). Each
row runs three ways:

- from constants: the static shape must be fully known and equal to the result's shape;
- from placeholders whose dimensions are all unknown (``[None, None]``): the static shape must keep
  the rank and be compatible with the result;
- from placeholders of unknown rank, for rows whose op does not need the rank at build time.

Every row is also fetched together in one ``Session.run``, on a thread pool and on the serial
executor, and again in reverse order.
"""

import numpy as np
import pytest

import numflow as tf
from numflow_kernels import tuning

rng = np.random.RandomState(42)
F = rng.randn(3, 4).astype(np.float32)
G = rng.randn(3, 4).astype(np.float32)
P = (rng.rand(3, 4) + 0.5).astype(np.float32)  # positive
B = rng.randn(4).astype(np.float32)
C3 = rng.randn(2, 3, 4).astype(np.float32)
D = rng.randn(3, 4).astype(np.float64)
I = rng.randint(-9, 10, size=(3, 4)).astype(np.int32)  # noqa: E741
J = rng.choice([-3, -2, -1, 1, 2, 3], size=(3, 4)).astype(np.int32)  # nonzero divisors
I64 = rng.randint(-9, 10, size=(4,)).astype(np.int64)
BOOL = rng.rand(3, 4) > 0.5
BOOL2 = rng.rand(1, 4) > 0.5
ONE = np.ones((3, 1, 4, 1), np.float32)
LABELS = rng.dirichlet(np.ones(4), size=3).astype(np.float32)
SPARSE = np.array([3, 0, 1], np.int32)
M = rng.randn(4, 5).astype(np.float32)
BM = rng.randn(2, 3, 4).astype(np.float32)
BN = rng.randn(2, 4, 5).astype(np.float32)


def _softmax(x, axis=-1):
    z = x.astype(np.float64) - x.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)


def _log_softmax(x, axis=-1):
    z = x.astype(np.float64) - x.max(axis=axis, keepdims=True)
    return (z - np.log(np.exp(z).sum(axis=axis, keepdims=True))).astype(x.dtype)


def _trunc_div(a, b):
    return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(a.dtype)


def _row(id_, build, ref, *inputs, dtype=None, rank_free=True, keeps_rank=True):
    """``rank_free``: the op builds from inputs of unknown rank; ``keeps_rank``: its output rank is then
    known from inputs of known rank (not so for ``squeeze`` without axes, as in TensorFlow)."""
    return pytest.param(build, ref, inputs, dtype, rank_free, keeps_rank, id=id_)


# The same key slices a numpy array and a tensor: one lambda is both builder and reference.
SLICES = [
    (1,), (-1,), (slice(1, None),), (slice(None, None, -1),), (slice(None), 2), (Ellipsis, 1),
    (Ellipsis, slice(None, None, -2)), (None, 1), (1, Ellipsis, None), (slice(-1, 0, -1), slice(1, 3)),
    (slice(None, None, 2), slice(None, None, -3)), (slice(5, 1, -1),), (slice(-100, 100),), (slice(10, None),),
    (1, -1), (slice(None), None, slice(1, None, 2)), (), (Ellipsis,), (None,),
]


def _slicer(key):
    return lambda x: x[key]


ROWS = [
    # -- array ops ------------------------------------------------------------------------------
    _row("identity", tf.identity, lambda x: x, F),
    _row("stop_gradient", tf.stop_gradient, lambda x: x, F),
    _row("zeros_like", tf.zeros_like, np.zeros_like, F),
    _row("zeros_like_int", tf.zeros_like, np.zeros_like, I),
    _row("zeros_like_dtype", lambda x: tf.zeros_like(x, dtype=tf.int32), lambda x: np.zeros(x.shape, np.int32), F),
    _row("ones_like", tf.ones_like, np.ones_like, F),
    _row("ones_like_bool", tf.ones_like, np.ones_like, BOOL),
    _row("zeros_shape_of", lambda x: tf.zeros(tf.shape(x)), lambda x: np.zeros(x.shape, np.float32), I),
    _row("ones_shape_of_int", lambda x: tf.ones(tf.shape(x), tf.int64), lambda x: np.ones(x.shape, np.int64), F),
    _row("fill", lambda x: tf.fill(tf.shape(x), 2.5), lambda x: np.full(x.shape, 2.5, np.float32), F),
    _row("fill_packed", lambda x: tf.fill([tf.shape(x)[0], 2], 7), lambda x: np.full((x.shape[0], 2), 7, np.int32),
         F),
    _row("shape", tf.shape, lambda x: np.array(x.shape, np.int32), C3),
    _row("shape_int64", lambda x: tf.shape(x, out_type=tf.int64), lambda x: np.array(x.shape, np.int64), C3),
    _row("rank", tf.rank, lambda x: np.int32(x.ndim), C3),
    _row("reshape", lambda x: tf.reshape(x, [-1, 2]), lambda x: x.reshape(-1, 2), F),
    _row("reshape_flat", lambda x: tf.reshape(x, [-1]), lambda x: x.reshape(-1), C3),
    _row("reshape_known", lambda x: tf.reshape(x, [2, 2, 3]), lambda x: x.reshape(2, 2, 3), F),
    _row("reshape_like", lambda x, y: tf.reshape(x, tf.shape(y)), lambda x, y: x.reshape(y.shape),
         F, rng.randn(6, 2).astype(np.float32)),
    _row("reshape_packed", lambda x: tf.reshape(x, [tf.shape(x)[0], -1, 1]), lambda x: x.reshape(2, -1, 1), C3),
    _row("reshape_scalar", lambda x: tf.reshape(x, []), lambda x: x.reshape(()), np.array([3.0], np.float32)),
    _row("transpose", tf.transpose, lambda x: x.T, C3, rank_free=True),
    _row("transpose_perm", lambda x: tf.transpose(x, [1, 0, 2]), lambda x: x.transpose(1, 0, 2), C3),
    _row("transpose_neg_perm", lambda x: tf.transpose(x, [-1, 0, 1]), lambda x: x.transpose(2, 0, 1), C3),
    _row("concat0", lambda x, y: tf.concat([x, y], 0), lambda x, y: np.concatenate([x, y], 0), F, G),
    _row("concat1", lambda x, y: tf.concat([x, y, x], 1), lambda x, y: np.concatenate([x, y, x], 1), F, G),
    _row("concat_neg", lambda x, y: tf.concat([x, y], -1), lambda x, y: np.concatenate([x, y], -1), F, G,
         rank_free=False),
    _row("concat_one", lambda x: tf.concat([x], 0), lambda x: x, F),
    _row("stack", lambda x, y: tf.stack([x, y]), lambda x, y: np.stack([x, y]), F, G),
    _row("stack_axis1", lambda x, y: tf.stack([x, y], axis=1), lambda x, y: np.stack([x, y], 1), F, G),
    _row("stack_axis_neg", lambda x, y: tf.stack([x, y], axis=-1), lambda x, y: np.stack([x, y], -1), F, G),
    _row("stack_scalars", lambda x: tf.stack([x[0, 0], 2.0, x[1, 1]]),
         lambda x: np.array([x[0, 0], 2.0, x[1, 1]], np.float32), F),
    _row("unstack0", lambda x: tf.unstack(x, num=3)[2], lambda x: x[2], F),
    _row("unstack1", lambda x: tf.stack(tf.unstack(x, num=4, axis=1)[::-1]), lambda x: x.T[::-1], F),
    _row("expand_dims0", lambda x: tf.expand_dims(x, 0), lambda x: x[None], F),
    _row("expand_dims_neg", lambda x: tf.expand_dims(x, -1), lambda x: x[..., None], F, rank_free=False),
    _row("squeeze", tf.squeeze, np.squeeze, ONE, keeps_rank=False),
    _row("squeeze_axis", lambda x: tf.squeeze(x, [1]), lambda x: np.squeeze(x, 1), ONE),
    _row("squeeze_neg", lambda x: tf.squeeze(x, [-1, 1]), lambda x: np.squeeze(x, (1, 3)), ONE),
    *[_row(f"slice{k!r}", _slicer(k), _slicer(k), C3) for k in SLICES],
    _row("slice_tensor_index", lambda x: x[tf.constant(1), 1:], lambda x: x[1, 1:], C3),
    _row("slice_tensor_bounds", lambda x: x[:, tf.constant(1, tf.int64):tf.constant(3, tf.int64)],
         lambda x: x[:, 1:3], C3),
    _row("slice_shape", lambda x: tf.shape(x)[1:], lambda x: np.array(x.shape[1:], np.int32), C3),
    # -- math: binary ---------------------------------------------------------------------------
    _row("add", tf.add, np.add, F, G),
    _row("add_broadcast", tf.add, np.add, F, B),
    _row("add_scalar", lambda x: x + 1.5, lambda x: x + np.float32(1.5), F),
    _row("radd_scalar", lambda x: 2 + x, lambda x: 2 + x, I),
    _row("add_int64", tf.add, np.add, I64, I64),
    _row("sub", tf.subtract, np.subtract, F, B),
    _row("rsub", lambda x: 1.0 - x, lambda x: np.float32(1.0) - x, F),
    _row("mul", tf.multiply, np.multiply, I, J),
    _row("truediv", lambda x, y: x / y, np.divide, F, P),
    _row("rtruediv", lambda x: 1.0 / x, lambda x: np.float32(1.0) / x, P),
    _row("truediv_int32", lambda x, y: x / y, np.true_divide, I, J),
    _row("truediv_int16", lambda x, y: x / y, lambda x, y: (x / y).astype(np.float32), I.astype(np.int16),
         J.astype(np.int16)),
    _row("truediv_float64", tf.truediv, np.divide, D, D + 10),
    _row("realdiv_int", tf.realdiv, _trunc_div, I, J),
    _row("floordiv_int", lambda x, y: x // y, np.floor_divide, I, J),
    _row("floordiv_float", lambda x, y: x // y, np.floor_divide, F, P),
    _row("mod_int", lambda x, y: x % y, np.mod, I, J),
    _row("mod_float", lambda x, y: x % y, np.mod, F, -P),
    _row("floormod", tf.floormod, np.mod, I, J),
    _row("div_int", tf.div, np.floor_divide, I, J),
    _row("div_float", tf.div, np.divide, F, P),
    _row("pow_float", lambda x, y: x ** y, np.power, P, G),
    _row("pow_int", lambda x: x ** 2, lambda x: x ** 2, I),
    _row("maximum", tf.maximum, np.maximum, F, G),
    _row("minimum", tf.minimum, np.minimum, I, J),
    _row("squared_difference", tf.squared_difference, lambda x, y: (x - y) ** 2, F, B),
    _row("less", lambda x, y: x < y, np.less, F, G),
    _row("less_equal", lambda x, y: x <= y, np.less_equal, I, J),
    _row("greater", lambda x, y: x > y, np.greater, F, B),
    _row("greater_equal", lambda x, y: x >= y, np.greater_equal, I, J),
    _row("equal", tf.equal, np.equal, I, J),
    _row("not_equal", tf.not_equal, np.not_equal, BOOL, BOOL2),
    _row("logical_and", tf.logical_and, np.logical_and, BOOL, BOOL2),
    _row("logical_or", tf.logical_or, np.logical_or, BOOL, BOOL2),
    _row("logical_xor", tf.logical_xor, np.logical_xor, BOOL, BOOL2),
    _row("logical_not", tf.logical_not, np.logical_not, BOOL),
    _row("add_n", lambda x, y: tf.add_n([x, y, x]), lambda x, y: x + y + x, F, G),
    # -- math: unary ----------------------------------------------------------------------------
    _row("negative", lambda x: -x, np.negative, F),
    _row("negative_int", tf.negative, np.negative, I),
    _row("abs", abs, np.abs, I),
    _row("square", tf.square, np.square, F),
    _row("sqrt", tf.sqrt, np.sqrt, P),
    _row("rsqrt", tf.rsqrt, lambda x: 1 / np.sqrt(x), P),
    _row("exp", tf.exp, np.exp, F),
    _row("log", tf.log, np.log, P),
    _row("log1p", tf.log1p, np.log1p, P),
    _row("sign", tf.sign, np.sign, I),
    _row("floor", tf.floor, np.floor, F),
    _row("ceil", tf.ceil, np.ceil, F),
    _row("round", tf.round, np.rint, np.array([0.5, 1.5, 2.5, -0.5, -1.7], np.float32)),
    _row("reciprocal", tf.reciprocal, np.reciprocal, P),
    _row("tanh", tf.tanh, np.tanh, F),
    _row("sigmoid", tf.sigmoid, lambda x: 1 / (1 + np.exp(-x)), F * 10),
    _row("sin", tf.sin, np.sin, F),
    _row("cos", tf.cos, np.cos, D),
    _row("cast_float_int", lambda x: tf.cast(x * 3, tf.int32), lambda x: (x * 3).astype(np.int32), F),
    _row("cast_int_bool", lambda x: tf.cast(x, tf.bool), lambda x: x.astype(bool), I),
    # -- math: matmul, reductions, range --------------------------------------------------------
    _row("matmul", tf.matmul, np.matmul, F, M),
    _row("matmul_transpose_a", lambda a, b: tf.matmul(a, b, transpose_a=True), lambda a, b: a.T @ b, F, G,
         rank_free=False),
    _row("matmul_transpose_b", lambda a, b: tf.matmul(a, b, transpose_b=True), lambda a, b: a @ b.T, F, G,
         rank_free=False),
    _row("matmul_int", tf.matmul, np.matmul, I, J.T.copy()),
    _row("batch_matmul", tf.matmul, np.matmul, BM, BN),
    _row("batch_matmul_broadcast", tf.matmul, np.matmul, BM, M),
    _row("batch_matmul_adjoint", lambda a, b: tf.matmul(a, b, adjoint_a=True),
         lambda a, b: np.swapaxes(a, -1, -2) @ b, BN, BN),
    _row("reduce_sum", tf.reduce_sum, np.sum, F),
    _row("reduce_sum_int", lambda x: tf.reduce_sum(x, 0), lambda x: x.sum(0), I, dtype=np.int32),
    _row("reduce_sum_axes", lambda x: tf.reduce_sum(x, [-1, 0]), lambda x: x.sum((2, 0)), C3, rank_free=False),
    _row("reduce_sum_keepdims", lambda x: tf.reduce_sum(x, 1, keepdims=True), lambda x: x.sum(1, keepdims=True), C3),
    _row("reduce_sum_keep_dims", lambda x: tf.reduce_sum(x, keep_dims=True), lambda x: x.sum(keepdims=True), C3),
    _row("reduce_sum_indices", lambda x: tf.reduce_sum(x, reduction_indices=[1]), lambda x: x.sum(1), C3),
    _row("reduce_sum_no_axes", lambda x: tf.reduce_sum(x, []), lambda x: x, F),
    _row("reduce_mean", lambda x: tf.reduce_mean(x, 1), lambda x: x.mean(1), F),
    _row("reduce_mean_int", lambda x: tf.reduce_mean(x, 1), lambda x: np.trunc(x.mean(1)), I, dtype=np.int32),
    _row("reduce_max", lambda x: tf.reduce_max(x, -1), lambda x: x.max(-1), F, rank_free=False),
    _row("reduce_min_int", lambda x: tf.reduce_min(x, 0), lambda x: x.min(0), I),
    _row("reduce_prod", lambda x: tf.reduce_prod(x, 1), lambda x: x.prod(1), P),
    _row("reduce_all", lambda x: tf.reduce_all(x, 1), lambda x: x.all(1), BOOL),
    _row("reduce_any", tf.reduce_any, np.any, BOOL),
    _row("argmax", lambda x: tf.argmax(x, 1), lambda x: x.argmax(1), F),
    _row("argmin_int32", lambda x: tf.argmin(x, 0, output_type=tf.int32), lambda x: x.argmin(0).astype(np.int32), I),
    _row("range", lambda n: tf.range(n), lambda n: np.arange(n, dtype=np.int32), np.int32(5)),
    _row("range_start_delta", lambda a, b: tf.range(a, b, 3), lambda a, b: np.arange(a, b, 3, dtype=np.int64),
         np.int64(-4), np.int64(9)),
    _row("range_negative", lambda a: tf.range(a, -2.0, -0.5), lambda a: np.arange(a, -2.0, -0.5, dtype=np.float32),
         np.float32(1.0)),
    # -- nn -------------------------------------------------------------------------------------
    _row("relu", tf.nn.relu, lambda x: np.maximum(x, 0), F),
    _row("relu_int", tf.nn.relu, lambda x: np.maximum(x, 0), I),
    _row("relu6", tf.nn.relu6, lambda x: np.clip(x, 0, 6), F * 5),
    _row("sigmoid_nn", tf.nn.sigmoid, lambda x: 1 / (1 + np.exp(-x)), F),
    _row("tanh_nn", tf.nn.tanh, np.tanh, F),
    _row("softmax", tf.nn.softmax, _softmax, F * 30),
    _row("softmax_3d", tf.nn.softmax, _softmax, C3),
    _row("softmax_axis0", lambda x: tf.nn.softmax(x, axis=0), lambda x: _softmax(x, 0), F, rank_free=False),
    _row("softmax_float64", tf.nn.softmax, _softmax, D),
    _row("log_softmax", tf.nn.log_softmax, _log_softmax, F * 30),
    _row("log_softmax_axis1", lambda x: tf.nn.log_softmax(x, axis=1), lambda x: _log_softmax(x, 1), C3,
         rank_free=False),
    _row("l2_loss", tf.nn.l2_loss, lambda x: np.float32((x.astype(np.float64) ** 2).sum() / 2), F),
    _row("bias_add", tf.nn.bias_add, np.add, F, B),
    _row("bias_add_3d", tf.nn.bias_add, np.add, C3, B),
    _row("bias_add_nchw", lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"),
         lambda x, b: x + b[:, None], C3.transpose(0, 2, 1).copy(), B),
    _row("xent_v2", lambda y, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x),
         lambda y, x: -(y * _log_softmax(x)).sum(-1), LABELS, F * 20),
    _row("xent_v1", lambda y, x: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x),
         lambda y, x: -(y * _log_softmax(x)).sum(-1), LABELS, F),
    _row("xent_3d", lambda y, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x),
         lambda y, x: -(y * _log_softmax(x)).sum(-1), _softmax(C3), C3),
    _row("xent_axis0", lambda y, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=x, axis=0),
         lambda y, x: -(y * _log_softmax(x, 0)).sum(0), _softmax(F, 0), F, rank_free=False),
    _row("sparse_xent", lambda y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x),
         lambda y, x: -_log_softmax(x)[np.arange(3), y], SPARSE, F * 20),
    _row("sparse_xent_3d", lambda y, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x),
         lambda y, x: -np.take_along_axis(_log_softmax(x), y[..., None], -1)[..., 0],
         np.array([[0, 3, 1], [2, 2, 0]], np.int64), C3),
]


def _check(got, want, dtype):
    want = np.asarray(want)
    expected = np.dtype(dtype) if dtype is not None else want.dtype
    got = np.asarray(got)
    assert got.dtype == expected, f"dtype {got.dtype}, expected {expected}"
    assert got.shape == want.shape, f"shape {got.shape}, expected {want.shape}"
    if got.dtype.kind == "f":
        tol = 1e-12 if got.dtype == np.float64 else 2e-5
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(got, want.astype(got.dtype))


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", ROWS)
def test_from_constants(build, ref, inputs, dtype, rank_free, keeps_rank):
    out = build(*[tf.constant(x) for x in inputs])
    want = np.asarray(ref(*inputs))
    assert out.shape.is_fully_defined() and out.shape.as_list() == list(want.shape)
    assert out.dtype.as_numpy_dtype == (np.dtype(dtype) if dtype is not None else want.dtype)
    with tf.Session() as sess:
        _check(sess.run(out), want, dtype)


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", ROWS)
def test_from_placeholders_with_unknown_dims(build, ref, inputs, dtype, rank_free, keeps_rank):
    holders = [tf.placeholder(tf.as_dtype(x.dtype), [None] * np.ndim(x)) for x in inputs]
    out = build(*holders)
    want = np.asarray(ref(*inputs))
    assert out.shape.ndims == (want.ndim if keeps_rank else None)
    assert out.shape.is_compatible_with(want.shape)
    with tf.Session() as sess:
        _check(sess.run(out, dict(zip(holders, inputs))), want, dtype)


@pytest.mark.parametrize("build, ref, inputs, dtype, rank_free, keeps_rank", [r for r in ROWS if r.values[4]])
def test_from_placeholders_of_unknown_rank(build, ref, inputs, dtype, rank_free, keeps_rank):
    holders = [tf.placeholder(tf.as_dtype(x.dtype)) for x in inputs]
    out = build(*holders)
    want = np.asarray(ref(*inputs))
    assert out.shape.is_compatible_with(want.shape)
    with tf.Session() as sess:
        _check(sess.run(out, dict(zip(holders, inputs))), want, dtype)


def test_every_row_in_one_run(pool, monkeypatch):
    # Every op counts as real work, so the plan runs independent ops on the pool (threads or sync).
    monkeypatch.setattr(tuning, "CHEAP_ELEMENTS", 0)
    fetches, wants = [], []
    for param in ROWS:
        build, ref, inputs, dtype, _, _ = param.values
        fetches.append(build(*[tf.constant(x) for x in inputs]))
        wants.append((np.asarray(ref(*inputs)), dtype))
    with tf.Session(pool=pool) as sess:
        first = sess.run(fetches)
        second = sess.run(fetches[::-1])[::-1]
    for got, again, (want, dtype) in zip(first, second, wants):
        _check(got, want, dtype)
        np.testing.assert_array_equal(got, again)
