"""The CPU convolution and pooling kernels against the numpy references, over layouts, strides,
dilations, paddings and one-channel inputs; their blocks (the patch matrices are built a few images
at a time) and their independence from the thread count."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels import cpu_threads, reference_conv, reference_pool, tuning
from numflow_kernels.cpu import conv, depthwise, pool


def _ctx(op_type, **attrs):
    return SimpleNamespace(op_type=op_type, op_name=op_type.lower(), attrs=attrs)


# (input shape, filter shape, data format, strides, dilations, padding, explicit paddings)
CONVS = [
    ((3, 9, 8, 4), (3, 3, 4, 5), "NHWC", [1, 1, 1, 1], [1, 1, 1, 1], "SAME", []),
    ((2, 9, 8, 1), (5, 5, 1, 6), "NHWC", [1, 1, 1, 1], [1, 1, 1, 1], "SAME", []),  # one channel: transposed patches
    ((2, 10, 9, 1), (3, 2, 1, 3), "NHWC", [1, 2, 3, 1], [1, 1, 2, 1], "VALID", []),
    ((2, 7, 9, 3), (2, 3, 3, 4), "NHWC", [1, 2, 1, 1], [1, 2, 1, 1], "EXPLICIT", [0, 0, 1, 2, 3, 0, 0, 0]),
    ((2, 3, 7, 6), (3, 2, 3, 2), "NCHW", [1, 1, 2, 1], [1, 1, 1, 2], "SAME", []),
    ((2, 6, 5, 4), (1, 1, 4, 7), "NHWC", [1, 1, 1, 1], [1, 1, 1, 1], "VALID", []),  # pointwise: no patches
    ((2, 4, 5, 6, 2), (2, 3, 2, 2, 3), "NDHWC", [1, 2, 1, 2, 1], [1, 1, 2, 1, 1], "SAME", []),
    ((1, 2, 4, 5, 3), (2, 2, 1, 2, 2), "NCDHW", [1, 1, 1, 1, 2], [1, 1, 1, 1, 1], "VALID", []),
]


def _conv_case(case, dtype, seed=0):
    x_shape, w_shape, fmt, strides, dilations, padding, explicit = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal(w_shape).astype(dtype)
    three_d = len(x_shape) == 5
    attrs = dict(strides=strides, dilations=dilations, padding=padding, data_format=fmt)
    if not three_d:
        attrs["explicit_paddings"] = explicit
    names = ("Conv3D", "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2") if three_d else \
        ("Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput")
    ctxs = [_ctx(name, **attrs) for name in names]
    y = reference_conv.conv(ctxs[0], x, w)
    dy = rng.standard_normal(y.shape).astype(dtype)
    return x, w, dy, ctxs


def _all_three(module, x, w, dy, ctxs):
    return (module.conv(ctxs[0], x, w),
            module.conv_filter_grad(ctxs[1], x, np.array(w.shape, np.int32), dy),
            module.conv_input_grad(ctxs[2], np.array(x.shape, np.int32), w, dy))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CONVS, ids=lambda c: f"{c[2]}-{c[5]}-{'x'.join(map(str, c[0]))}")
def test_conv_kernels_match_the_reference(case, dtype):
    x, w, dy, ctxs = _conv_case(case, dtype)
    got = _all_three(conv, x, w, dy, ctxs)
    want = _all_three(reference_conv, x, w, dy, ctxs)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for g, r in zip(got, want):
        assert g.dtype == r.dtype and g.shape == r.shape and g.flags.c_contiguous
        np.testing.assert_allclose(g, r, rtol=tol, atol=tol)


@pytest.mark.parametrize("case", [CONVS[0], CONVS[1], CONVS[6]], ids=["nhwc", "one_channel", "3d"])
def test_blocks_of_one_image_add_up_to_the_whole(case, monkeypatch):
    x, w, dy, ctxs = _conv_case(case, np.float64, seed=1)
    monkeypatch.setattr(tuning, "CONV_BLOCK_BYTES", 1)  # one image per block: every sum spans the blocks
    for g, r in zip(_all_three(conv, x, w, dy, ctxs), _all_three(reference_conv, x, w, dy, ctxs)):
        np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-12)


def test_the_bits_do_not_depend_on_the_threads(monkeypatch):
    x, w, dy, ctxs = _conv_case(((7, 9, 8, 4), (3, 3, 4, 5), "NHWC", [1] * 4, [1] * 4, "SAME", []), np.float32)
    monkeypatch.setattr(tuning, "CONV_BLOCK_BYTES", 4000)  # several blocks, so the helper threads take some
    spread = _all_three(conv, x, w, dy, ctxs)
    with cpu_threads.one_thread_each():  # the calling thread runs every block, in order
        alone = _all_three(conv, x, w, dy, ctxs)
    for a, b in zip(spread, alone):
        assert a.tobytes() == b.tobytes()


def test_blocks_run_each_index_once_and_raise_the_first_error():
    seen = []
    cpu_threads.run_blocks(seen.append, 9)
    assert sorted(seen) == list(range(9))

    def fail(i):
        if i == 3:
            raise ValueError("block 3")

    with pytest.raises(ValueError, match="block 3"):
        cpu_threads.run_blocks(fail, 6)


def test_grouped_and_half_inputs_go_to_the_reference():
    x = np.ones((1, 4, 4, 4), np.float16)
    ctx = _ctx("Conv2D", strides=[1] * 4, dilations=[1] * 4, padding="SAME", data_format="NHWC", explicit_paddings=[])
    got = conv.conv(ctx, x, np.ones((2, 2, 4, 3), np.float16))
    assert got.dtype == np.float16 and got[0, 0, 0, 0] == 16
    grouped = conv.conv(ctx, x.astype(np.float32), np.ones((2, 2, 2, 4), np.float32))
    np.testing.assert_array_equal(grouped, reference_conv.conv(ctx, x.astype(np.float32), np.ones((2, 2, 2, 4),
                                                                                                 np.float32)))


# (op, input shape, data format, ksize, strides, padding, explicit paddings)
POOLS = [
    ("MaxPool", (2, 7, 6, 3), "NHWC", [1, 3, 3, 1], [1, 2, 1, 1], "SAME", []),
    ("MaxPool", (2, 3, 6, 7), "NCHW", [1, 1, 2, 3], [1, 1, 2, 2], "VALID", []),
    ("MaxPool", (1, 5, 5, 2), "NHWC", [1, 3, 2, 1], [1, 2, 2, 1], "EXPLICIT", [0, 0, 1, 1, 1, 0, 0, 0]),
    ("MaxPool", (2, 6, 4, 5), "NHWC", [1, 2, 2, 1], [1, 2, 2, 1], "SAME", []),  # windows tiling the input
    ("MaxPool", (2, 3, 4, 6), "NCHW", [1, 1, 2, 3], [1, 1, 2, 3], "VALID", []),
    ("AvgPool", (2, 7, 6, 3), "NHWC", [1, 3, 3, 1], [1, 2, 2, 1], "SAME", []),
    ("AvgPool", (2, 3, 6, 7), "NCHW", [1, 1, 2, 2], [1, 1, 1, 2], "VALID", []),
    ("MaxPool3D", (1, 4, 5, 4, 2), "NDHWC", [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME", []),
    ("AvgPool3D", (1, 2, 4, 5, 4), "NCDHW", [1, 1, 2, 3, 2], [1, 1, 1, 2, 2], "SAME", []),
]


def _pool_attrs(fmt, ksize, strides, padding, explicit):
    attrs = dict(ksize=ksize, strides=strides, padding=padding, data_format=fmt)
    if explicit:
        attrs["explicit_paddings"] = explicit
    return attrs


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", POOLS, ids=lambda c: f"{c[0]}-{c[2]}-{c[5]}")
def test_pool_kernels_match_the_reference(case, dtype):
    op, shape, fmt, ksize, strides, padding, explicit = case
    attrs = _pool_attrs(fmt, ksize, strides, padding, explicit)
    rng = np.random.default_rng(2)
    x = rng.integers(-2, 3, shape).astype(dtype)  # small integers: windows with ties
    reference = reference_pool.max_pool if op.startswith("Max") else reference_pool.avg_pool
    y = pool.pool(_ctx(op, **attrs), x)
    np.testing.assert_allclose(y, reference(_ctx(op, **attrs), x), rtol=1e-6)
    dy = rng.standard_normal(y.shape).astype(dtype)
    if op.startswith("Max"):
        grad_op = f"{op}Grad"
        got = pool.max_pool_grad(_ctx(grad_op, **attrs), x, y, dy)
        want = (reference_pool.max_pool_grad if op == "MaxPool" else reference_pool.max_pool3d_grad)(
            _ctx(grad_op, **attrs), x, y, dy)
        ddx = rng.standard_normal(x.shape).astype(dtype)
        np.testing.assert_allclose(pool.max_pool_grad_grad(_ctx(f"{op}GradGrad", **attrs), x, y, ddx),
                                   reference_pool.max_pool_grad_grad(_ctx(f"{op}GradGrad", **attrs), x, y, ddx))
    else:
        sizes = np.array(x.shape, np.int32)
        got = pool.avg_pool_grad(_ctx(f"{op}Grad", **attrs), sizes, dy)
        want = reference_pool.avg_pool_grad(_ctx(f"{op}Grad", **attrs), sizes, dy)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_a_nan_is_a_windows_maximum_in_both_kernels():
    x = np.array([1, np.nan, 3, 2, 5, 0, np.nan, 1], np.float32).reshape(1, 2, 4, 1)
    ctx = _ctx("MaxPool", ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID", data_format="NHWC",
               explicit_paddings=[])
    got, want = pool.pool(ctx, x), reference_pool.max_pool(ctx, x)
    assert np.isnan(got).ravel().tolist() == [True, True] and np.isnan(want).ravel().tolist() == [True, True]
    dy = np.array([10, 20], np.float32).reshape(1, 1, 2, 1)
    grad_ctx = _ctx("MaxPoolGrad", **ctx.attrs)
    got_dx = pool.max_pool_grad(grad_ctx, x, got, dy)
    np.testing.assert_array_equal(got_dx, reference_pool.max_pool_grad(grad_ctx, x, want, dy))
    assert got_dx.ravel().tolist() == [0, 10, 0, 0, 0, 0, 20, 0]  # at each window's NaN


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fmt, x_shape, strides, dilations, padding, explicit", [
    ("NHWC", (3, 7, 6, 4), [1, 2, 2, 1], [1, 1, 1, 1], "SAME", []),
    ("NCHW", (2, 3, 6, 7), [1, 1, 1, 2], [1, 1, 2, 1], "VALID", []),
    ("NHWC", (2, 5, 5, 3), [1, 1, 1, 1], [1, 1, 1, 1], "EXPLICIT", [0, 0, 1, 0, 2, 1, 0, 0]),
])
def test_depthwise_kernels_match_the_reference(fmt, x_shape, strides, dilations, padding, explicit, dtype):
    rng = np.random.default_rng(4)
    x = rng.standard_normal(x_shape).astype(dtype)
    channels = x_shape[1] if fmt == "NCHW" else x_shape[-1]
    w = rng.standard_normal((3, 2, channels, 2)).astype(dtype)
    attrs = dict(strides=strides, dilations=dilations, padding=padding, data_format=fmt, explicit_paddings=explicit)
    ctx = _ctx("DepthwiseConv2dNative", **attrs)
    y = depthwise.depthwise(ctx, x, w)
    np.testing.assert_allclose(y, reference_conv.depthwise(ctx, x, w), rtol=1e-5, atol=1e-5)
    dy = rng.standard_normal(y.shape).astype(dtype)
    filter_ctx, input_ctx = _ctx("DepthwiseConv2dNativeBackpropFilter", **attrs), \
        _ctx("DepthwiseConv2dNativeBackpropInput", **attrs)
    sizes_w, sizes_x = np.array(w.shape, np.int32), np.array(x.shape, np.int32)
    np.testing.assert_allclose(depthwise.depthwise_filter_grad(filter_ctx, x, sizes_w, dy),
                               reference_conv.depthwise_filter_grad(filter_ctx, x, sizes_w, dy), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(depthwise.depthwise_input_grad(input_ctx, sizes_x, w, dy),
                               reference_conv.depthwise_input_grad(input_ctx, sizes_x, w, dy), rtol=1e-5, atol=1e-5)
