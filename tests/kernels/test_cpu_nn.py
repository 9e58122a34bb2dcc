"""The Numba nn kernels (relu, its gradient, the cross entropies) against the numpy references, including the
inputs they hand back to them."""

import numpy as np
import pytest

from numflow_kernels import grad, reference_nn
from numflow_kernels.cpu import nn


class _Ctx:
    op_name = "xent"
    attrs = {}


def _assert_same(got, want, dtype):
    tol = 1e-6 if dtype == np.float32 else 1e-14
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=tol * 10, atol=tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_matches_the_reference(dtype, label_dtype):
    rng = np.random.default_rng(0)
    logits = (rng.standard_normal((33, 7)) * 20).astype(dtype)  # large: the row shift matters
    labels = rng.integers(0, 7, 33).astype(label_dtype)
    _assert_same(nn.sparse_softmax_xent(_Ctx, logits, labels),
                 reference_nn.sparse_softmax_xent(_Ctx, logits, labels), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dense_matches_the_reference(dtype):
    rng = np.random.default_rng(1)
    logits = (rng.standard_normal((16, 5)) * 20).astype(dtype)
    labels = rng.random((16, 5)).astype(dtype)
    labels /= labels.sum(axis=1, keepdims=True)
    _assert_same(nn.softmax_xent(_Ctx, logits, labels), reference_nn.softmax_xent(_Ctx, logits, labels), dtype)


def test_a_nan_logit_spreads_through_its_row_only():
    logits = np.array([[1.0, np.nan, 2.0], [1.0, 2.0, 3.0]], np.float32)
    loss, backprop = nn.sparse_softmax_xent(_Ctx, logits, np.array([0, 2]))
    assert np.isnan(loss[0]) and np.isnan(backprop[0]).all()
    np.testing.assert_allclose(loss[1], np.log(np.exp([-2.0, -1.0, 0.0]).sum()), rtol=1e-6)


def test_a_label_out_of_range_gives_tensorflows_error():
    with pytest.raises(ValueError, match=r"Received a label value of 3 which is outside the valid "
                                                          r"range of \[0, 3\)\.  Label values: 0 3"):
        nn.sparse_softmax_xent(_Ctx, np.zeros((2, 3), np.float32), np.array([0, 3]))


@pytest.mark.parametrize("logits, labels", [
    (np.zeros((2, 3), np.float16), np.array([0, 1])),  # float16: through float32 in the reference
    (np.zeros((2, 0), np.float32), np.zeros(2, np.int64)),  # no classes
    (np.zeros((3, 4), np.float32).T, np.array([0, 1, 2, 0])),  # not C-contiguous
])
def test_other_inputs_go_to_the_reference(logits, labels):
    try:
        want = reference_nn.sparse_softmax_xent(_Ctx, logits, labels)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)[:40]):
            nn.sparse_softmax_xent(_Ctx, logits, labels)
        return
    got = nn.sparse_softmax_xent(_Ctx, logits, labels)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


SPECIAL = [np.nan, -0.0, 0.0, np.inf, -np.inf, -1.5, 2.5, 1e-45]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_and_its_gradient_match_tensorflows_formulas(dtype):
    # TF 2.21: relu(-0.0) is +0.0 and relu(nan) is nan; relu_grad is dy * (features > 0), so an
    # infinite or NaN dy where the feature is cut gives NaN.
    x = np.array(SPECIAL * 3, dtype)
    dy = np.array([np.inf, np.nan, 1.0] * 8, dtype)
    got = nn.relu(_Ctx, x)
    np.testing.assert_array_equal(got, reference_nn.relu(_Ctx, x))
    assert not np.signbit(got[1])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(nn.relu_grad(_Ctx, dy, x), dy * (x > 0))


def test_relu_twins_agree_on_an_array_past_the_parallel_threshold():
    from numflow_kernels import parallel

    x = np.random.default_rng(2).standard_normal(parallel.PARALLEL_THRESHOLD + 7).astype(np.float32)
    serial, parallel_kernel = nn._RELU
    a, b = np.empty_like(x), np.empty_like(x)
    serial(x, a)
    parallel_kernel(x, b)
    np.testing.assert_array_equal(a, np.maximum(x, 0))
    np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("x", [
    np.arange(-3.0, 3.0, dtype=np.float16),  # float16: numpy
    np.arange(-6.0, 6.0, dtype=np.float32).reshape(3, 4).T,  # not C-contiguous
    np.arange(-3, 3, dtype=np.int32),  # integers
])
def test_relu_of_other_inputs_goes_to_the_reference(x):
    np.testing.assert_array_equal(nn.relu(_Ctx, x), reference_nn.relu(_Ctx, x))
    dy = np.ones_like(x)
    np.testing.assert_array_equal(nn.relu_grad(_Ctx, dy, x), grad.relu_grad(_Ctx, dy, x))
