"""The Numba batch-norm and LRN kernels against the numpy references, and their bits on any thread count."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels import reference_norm as ref
from numflow_kernels.cpu import norm

SHAPES = {"NHWC": (4, 5, 3, 6), "NCHW": (4, 6, 5, 3), "NDHWC": (2, 3, 2, 2, 5), "NCDHW": (2, 5, 3, 2, 2)}


def _case(fmt, dtype, seed=0):
    rng = np.random.default_rng(seed)
    shape = SHAPES[fmt]
    channels = shape[1] if fmt.startswith("NC") else shape[-1]
    x = (rng.normal(size=shape) * 3 + 1).astype(dtype)
    params = [rng.uniform(0.5, 1.5, channels).astype(np.float32), rng.normal(size=channels).astype(np.float32),
              rng.normal(size=channels).astype(np.float32), rng.uniform(0.5, 1.5, channels).astype(np.float32)]
    return x, params, rng.normal(size=shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("factor", [1.0, 0.3])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("fmt", sorted(SHAPES))
def test_batch_norm_matches_the_reference(fmt, training, factor, dtype):
    x, params, dy = _case(fmt, dtype)
    ctx = SimpleNamespace(attrs=dict(epsilon=1e-3, exponential_avg_factor=factor, data_format=fmt,
                                     is_training=training))
    want, got = ref.fused_batch_norm(ctx, x, *params), norm.fused_batch_norm(ctx, x, *params)
    for w, g in zip(want, got):
        assert w.dtype == g.dtype and w.shape == g.shape
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=2e-6)
    saved = got[3:]
    want, got = ref.fused_batch_norm_grad(ctx, dy, x, params[0], *saved), norm.fused_batch_norm_grad(
        ctx, dy, x, params[0], *saved)
    for w, g in zip(want, got):
        assert w.dtype == g.dtype and w.shape == g.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_block_sums_are_the_same_bits_serial_and_parallel():
    rng = np.random.default_rng(1)
    norm._compile_helpers()
    serial, parallel = norm._SUMS
    for shape in ((3000, 7, 5), (30000, 7, 1)):  # channels first, channels last
        x = rng.normal(size=shape).astype(np.float32)
        block, count = norm._blocks(*x.shape)
        assert count > 1
        tables = []
        for kernel in (serial, parallel):
            sums, squares = np.zeros((count, 7)), np.zeros((count, 7))
            kernel(x, block, sums, squares)
            tables.append((sums, squares))
        np.testing.assert_array_equal(tables[0][0], tables[1][0])
        np.testing.assert_array_equal(tables[0][1], tables[1][1])
        np.testing.assert_allclose(tables[0][0].sum(axis=0), x.astype(np.float64).sum(axis=(0, 2)), rtol=1e-12)


def test_float16_and_mismatched_inputs_go_to_the_reference():
    x, params, _ = _case("NHWC", np.float16)
    ctx = SimpleNamespace(attrs=dict(epsilon=1e-3, exponential_avg_factor=1.0, data_format="NHWC", is_training=True))
    for w, g in zip(ref.fused_batch_norm(ctx, x, *params), norm.fused_batch_norm(ctx, x, *params)):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("attrs", [dict(depth_radius=2, bias=1.0, alpha=0.3, beta=0.75),
                                   dict(depth_radius=0, bias=2.0, alpha=1.0, beta=0.5),
                                   dict(depth_radius=7, bias=1.0, alpha=1e-2, beta=1.0),
                                   dict(depth_radius=12, bias=1.5, alpha=0.2, beta=0.6)])
def test_lrn_matches_the_reference(attrs, dtype):
    rng = np.random.default_rng(2)
    x = rng.normal(size=(2, 3, 4, 9)).astype(dtype)
    dy = rng.normal(size=x.shape).astype(dtype)
    ctx = SimpleNamespace(attrs=attrs)
    y = norm.lrn(ctx, x)
    np.testing.assert_allclose(y, ref.lrn(ctx, x), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(norm.lrn_grad(ctx, dy, x, y), ref.lrn_grad(ctx, dy, x, y), rtol=1e-5, atol=1e-6)


def test_lrn_rejects_what_tensorflow_rejects():
    ctx = SimpleNamespace(attrs=dict(depth_radius=-1, bias=1.0, alpha=1.0, beta=0.5))
    with pytest.raises(ValueError, match="depth_radius = -1 must be non-negative"):
        norm.lrn(ctx, np.ones((1, 1, 1, 3), np.float32))
    with pytest.raises(ValueError, match="in must be 4-dimensional"):
        norm.lrn(SimpleNamespace(attrs=dict(ctx.attrs, depth_radius=1)), np.ones((1, 3), np.float32))
