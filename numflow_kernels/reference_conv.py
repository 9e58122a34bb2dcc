"""NumPy kernels of the convolutions: Conv2D, Conv3D, DepthwiseConv2dNative and their backprops, and the
SpaceToBatchND / BatchToSpaceND pair that dilated convolutions are built from.

The spec, as TensorFlow computes it: with ``g`` the group of output channel ``co`` (``groups = C /
filter in-depth``), ``out[n, o, co] = sum over window offsets k and in-group channels i of
x[n, o * stride + k * dilation - pad_before, g * ci + i] * w[k, i, co]``, reading zero outside the
input; the depthwise form gives each input channel ``c`` its own ``multiplier`` filters,
``out[n, o, c * m + j] = sum_k x[n, o * stride + k * dilation - pad, c] * w[k, c, j]``. The backprops
are the gradients of those sums: ``BackpropFilter(x, filter_sizes, dy)`` and ``BackpropInput(input_sizes,
filter, dy)``. Geometry and layouts: ``window.py``; everything here computes on ``[N, D, H, W, C]``
(float16 in float32) by im2col: the windows of the padded input as one strided view, then matrix
products, a few images at a time.
"""

import numpy as np

from numflow_kernels import tuning
from numflow_kernels import window as wn
from numflow_kernels.registry import REFERENCE, register


def kernel(op_type, **flags):
    return register(op_type, REFERENCE, **flags)


class Conv:
    """One convolution's geometry, read from its attrs and the shapes of its input and filter."""

    def __init__(self, attrs, x_shape, w_shape, op_type, depthwise=False):
        fmt = self.data_format = attrs["data_format"]
        self.rank = len(x_shape)
        if len(w_shape) != self.rank:
            raise ValueError(f"{op_type}: filter must be {self.rank}-dimensional: {list(w_shape)}")
        strides, dilations = attrs["strides"], attrs.get("dilations") or [1] * self.rank
        for values, what, error in ((strides, "strides", NotImplementedError), (dilations, "dilations", ValueError)):
            if _batch_or_depth(values, fmt) != (1, 1):
                raise error(f"Current implementation does not yet support {what} in the batch and depth dimensions.")
        self.channels = wn.channels(x_shape, fmt)
        ci, co = w_shape[-2:]
        if depthwise:
            if ci != self.channels:
                raise ValueError(f"input and filter must have the same depth: {self.channels} vs {ci}")
            self.groups, self.out_channels = 1, ci * co
        else:
            if ci == 0 or self.channels % ci:
                raise ValueError(f"input depth must be evenly divisible by filter depth: {self.channels} vs {ci}")
            self.groups, self.out_channels = self.channels // ci, co
            if co % self.groups:
                raise ValueError(f"output depth must be evenly divisible by the number of groups: {co} vs "
                                 f"{self.groups}")
        self.batch = x_shape[0]
        self.window = wn.window(fmt, wn.spatial_sizes(x_shape, fmt), w_shape[:-2], strides, dilations,
                                attrs["padding"], attrs.get("explicit_paddings") or ())
        self.filter_shape = tuple(w_shape)

    def filter5(self, w):
        """``w`` as ``[KD, KH, KW, in, out]``."""
        return w.reshape(self.window.kernel + w.shape[-2:])

    def out_shape(self):
        """The output's shape in the op's layout."""
        spatial = self.window.out[3 - (self.rank - 2):]
        if self.data_format in wn.CHANNELS_FIRST:
            return (self.batch, self.out_channels, *spatial)
        return (self.batch, *spatial, self.out_channels)

    def check_backprop(self, dy_shape, op_type):
        """TensorFlow's error when ``dy``'s shape is not the forward op's output shape."""
        want = self.out_shape()
        if tuple(dy_shape) != want:
            raise ValueError(f"{op_type}: Size of out_backprop doesn't match computed: actual = "
                             f"{_dims(dy_shape)}, computed = {_dims(want)}")


def _batch_or_depth(values, data_format):
    return (values[0], values[1]) if data_format in wn.CHANNELS_FIRST else (values[0], values[-1])


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def compute_dtype(dtype):
    return np.dtype(np.float32) if dtype == np.float16 else np.dtype(dtype)


def padded(x, win):
    """``x`` (``[N, D, H, W, C]``) with the window's zero padding, C-contiguous."""
    if win.is_padded:
        x = np.pad(x, ((0, 0), *win.pads, (0, 0)))
    return np.ascontiguousarray(x)


def windows(xp, win):
    """The windows of the padded ``xp`` as a read-only view ``[N, OD, OH, OW, KD, KH, KW, C]``."""
    s0, s1, s2, s3, s4 = xp.strides
    (sd, sh, sw), (dd, dh, dw) = win.strides, win.dilations
    return np.lib.stride_tricks.as_strided(
        xp, (xp.shape[0], *win.out, *win.kernel, xp.shape[4]),
        (s0, s1 * sd, s2 * sh, s3 * sw, s1 * dd, s2 * dh, s3 * dw, s4), writeable=False)


def add_windows(dxp, cols, win):
    """Add ``cols`` (``[N, OD, OH, OW, KD, KH, KW, C]``) into the padded input gradient ``dxp`` at
    the positions the windows read: one strided add per window offset."""
    (sd, sh, sw), (dd, dh, dw) = win.strides, win.dilations
    od, oh, ow = win.out
    for a, b, c in np.ndindex(*win.kernel):
        dxp[:, a * dd:a * dd + sd * (od - 1) + 1:sd, b * dh:b * dh + sh * (oh - 1) + 1:sh,
            c * dw:c * dw + sw * (ow - 1) + 1:sw, :] += cols[:, :, :, :, a, b, c, :]


def unpadded(dxp, win):
    (d0, _), (h0, _), (w0, _) = win.pads
    d, h, w = win.sizes
    return dxp[:, d0:d0 + d, h0:h0 + h, w0:w0 + w, :]


def _image_steps(n, per_image_bytes):
    step = max(1, tuning.REFERENCE_IM2COL_BYTES // max(per_image_bytes, 1))
    return [(start, min(start + step, n)) for start in range(0, n, step)]


def _input(x, conv):
    return padded(wn.channels_last(x, conv.data_format).astype(compute_dtype(x.dtype), copy=False), conv.window)


def _group_filters(conv, w, compute):
    """Each group's filter as a ``[K * in, out per group]`` matrix."""
    w5 = conv.filter5(w).astype(compute, copy=False)
    cog = w5.shape[-1] // conv.groups
    return [w5[..., g * cog:(g + 1) * cog].reshape(-1, cog) for g in range(conv.groups)]


def conv_forward(x, w, conv):
    """The convolution of ``x`` by ``w`` (``conv``'s geometry), in the op's layout and ``x``'s dtype."""
    compute = compute_dtype(x.dtype)
    xp = _input(x, conv)
    win, groups = conv.window, conv.groups
    view = windows(xp, win)
    ci = xp.shape[4] // groups
    filters = _group_filters(conv, w, compute)
    cog = filters[0].shape[1]
    out = np.empty((xp.shape[0], *win.out, conv.out_channels), dtype=compute)
    rows_per_image = int(np.prod(win.out))
    for lo, hi in _image_steps(xp.shape[0], rows_per_image * filters[0].shape[0] * compute.itemsize):
        rows = (hi - lo) * rows_per_image
        for g in range(groups):
            patches = view[lo:hi, ..., g * ci:(g + 1) * ci].reshape(rows, -1)
            out[lo:hi, ..., g * cog:(g + 1) * cog] = (patches @ filters[g]).reshape(hi - lo, *win.out, cog)
    return wn.restore_layout(out, conv.data_format, conv.rank).astype(x.dtype, copy=False)


def conv_backprop_filter(x, dy, conv):
    """The gradient of the convolution with respect to its filter, in the filter's shape."""
    compute = compute_dtype(x.dtype)
    xp = _input(x, conv)
    view = windows(xp, conv.window)
    g_all = wn.channels_last(dy, conv.data_format).astype(compute, copy=False)
    groups, ci = conv.groups, xp.shape[4] // conv.groups
    cog = conv.out_channels // groups
    rows = g_all.shape[0] * int(np.prod(conv.window.out))
    dy2 = g_all.reshape(rows, conv.out_channels)
    parts = [view[..., g * ci:(g + 1) * ci].reshape(rows, -1).T @ dy2[:, g * cog:(g + 1) * cog]
             for g in range(groups)]
    return np.concatenate(parts, axis=1).reshape(conv.filter_shape).astype(x.dtype, copy=False)


def conv_backprop_input(w, dy, conv, dtype):
    """The gradient of the convolution with respect to its input, in the input's layout."""
    compute = compute_dtype(dtype)
    win, groups = conv.window, conv.groups
    g_all = wn.channels_last(dy, conv.data_format).astype(compute, copy=False)
    n = g_all.shape[0]
    filters = _group_filters(conv, w, compute)
    ci, cog = filters[0].shape[0] // int(np.prod(win.kernel)), filters[0].shape[1]
    dxp = np.zeros((n, *win.padded, ci * groups), dtype=compute)
    dy2 = g_all.reshape(-1, conv.out_channels)
    for g in range(groups):
        cols = (dy2[:, g * cog:(g + 1) * cog] @ filters[g].T).reshape(n, *win.out, *win.kernel, ci)
        add_windows(dxp[..., g * ci:(g + 1) * ci], cols, win)
    return wn.restore_layout(unpadded(dxp, win), conv.data_format, conv.rank).astype(dtype, copy=False)


def shape_of(sizes):
    """A shape given as a 1-D integer array (``filter_sizes``), as a tuple."""
    return tuple(int(d) for d in np.asarray(sizes).reshape(-1))


@kernel("Conv2D", calls_blas=True)
@kernel("Conv3D", calls_blas=True)
def conv(ctx, x, w):
    return conv_forward(x, w, Conv(ctx.attrs, x.shape, w.shape, ctx.op_type))


@kernel("Conv2DBackpropFilter", calls_blas=True)
@kernel("Conv3DBackpropFilterV2", calls_blas=True)
def conv_filter_grad(ctx, x, filter_sizes, dy):
    conv = Conv(ctx.attrs, x.shape, shape_of(filter_sizes), ctx.op_type)
    conv.check_backprop(dy.shape, ctx.op_type)
    return conv_backprop_filter(x, dy, conv)


def input_sizes(sizes, w_shape, dy_shape, data_format):
    """``input_sizes`` as a full shape: 2 values are the spatial sizes, batch and depth come from ``dy`` and ``w``."""
    sizes = shape_of(sizes)
    if len(sizes) == len(dy_shape):
        return sizes
    if len(sizes) == len(dy_shape) - 2:
        if data_format in wn.CHANNELS_FIRST:
            return (dy_shape[0], w_shape[-2], *sizes)
        return (dy_shape[0], *sizes, w_shape[-2])
    raise ValueError(f"input_sizes must hold {len(dy_shape)} values or {len(dy_shape) - 2}, got {len(sizes)}")


@kernel("Conv2DBackpropInput", calls_blas=True)
@kernel("Conv3DBackpropInputV2", calls_blas=True)
def conv_input_grad(ctx, sizes, w, dy):
    conv = Conv(ctx.attrs, input_sizes(sizes, w.shape, dy.shape, ctx.attrs["data_format"]), w.shape, ctx.op_type)
    conv.check_backprop(dy.shape, ctx.op_type)
    return conv_backprop_input(w, dy, conv, w.dtype)


# -- depthwise -----------------------------------------------------------------------------------
@kernel("DepthwiseConv2dNative")
def depthwise(ctx, x, w):
    conv = Conv(ctx.attrs, x.shape, w.shape, ctx.op_type, depthwise=True)
    compute = compute_dtype(x.dtype)
    view = windows(_input(x, conv), conv.window)
    out = np.einsum("nabcdefx,defxm->nabcxm", view, conv.filter5(w).astype(compute, copy=False))
    out = out.reshape(*out.shape[:4], conv.out_channels)
    return wn.restore_layout(out, conv.data_format, conv.rank).astype(x.dtype, copy=False)


@kernel("DepthwiseConv2dNativeBackpropFilter")
def depthwise_filter_grad(ctx, x, filter_sizes, dy):
    conv = Conv(ctx.attrs, x.shape, shape_of(filter_sizes), ctx.op_type, depthwise=True)
    conv.check_backprop(dy.shape, ctx.op_type)
    compute = compute_dtype(x.dtype)
    view = windows(_input(x, conv), conv.window)
    c, m = conv.filter_shape[-2:]
    g = wn.channels_last(dy, conv.data_format).astype(compute, copy=False)
    dw = np.einsum("nabcdefx,nabcxm->defxm", view, g.reshape(*g.shape[:4], c, m))
    return dw.reshape(conv.filter_shape).astype(x.dtype, copy=False)


@kernel("DepthwiseConv2dNativeBackpropInput")
def depthwise_input_grad(ctx, sizes, w, dy):
    data_format = ctx.attrs["data_format"]
    full = input_sizes(sizes, w.shape, dy.shape, data_format)
    conv = Conv(ctx.attrs, full, w.shape, ctx.op_type, depthwise=True)
    conv.check_backprop(dy.shape, ctx.op_type)
    compute = compute_dtype(w.dtype)
    win = conv.window
    c, m = w.shape[-2:]
    g = wn.channels_last(dy, data_format).astype(compute, copy=False)
    cols = np.einsum("nabcxm,defxm->nabcdefx", g.reshape(*g.shape[:4], c, m), conv.filter5(w).astype(compute))
    dxp = np.zeros((g.shape[0], *win.padded, c), dtype=compute)
    add_windows(dxp, cols, win)
    return wn.restore_layout(unpadded(dxp, win), data_format, conv.rank).astype(w.dtype, copy=False)


# -- SpaceToBatchND / BatchToSpaceND ------------------------------------------------------------
def _block(x, block_shape, pairs, what):
    block = [int(b) for b in np.asarray(block_shape).reshape(-1)]
    pairs = np.asarray(pairs).reshape(-1, 2).tolist() if np.size(pairs) else []
    if len(pairs) != len(block):
        raise ValueError(f"{what} should have shape [{len(block)}, 2] instead of {list(np.shape(pairs))}")
    if x.ndim < 1 + len(block):
        raise ValueError(f"input rank should be >= {1 + len(block)} instead of {x.ndim}")
    if any(b < 1 for b in block):
        raise ValueError(f"All values in block_shape must be positive, got value, {min(block)} instead.")
    if any(p < 0 for pair in pairs for p in pair):
        raise ValueError(f"All values in {what} must be non-negative")
    return block, pairs


@kernel("SpaceToBatchND")
def space_to_batch(ctx, x, block_shape, paddings):
    block, pads = _block(x, block_shape, paddings, "paddings")
    m, n = len(block), x.shape[0]
    xp = np.pad(x, [(0, 0), *pads] + [(0, 0)] * (x.ndim - 1 - m))
    for i, b in enumerate(block):
        if xp.shape[1 + i] % b:
            raise ValueError(f"padded_shape[{i}]={xp.shape[1 + i]} is not divisible by block_shape[{i}]={b}")
    spatial = [xp.shape[1 + i] // block[i] for i in range(m)]
    rest = list(xp.shape[1 + m:])
    split = xp.reshape([n] + [d for pair in zip(spatial, block) for d in pair] + rest)
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, split.ndim))
    return np.ascontiguousarray(split.transpose(perm).reshape([n * int(np.prod(block))] + spatial + rest))


@kernel("BatchToSpaceND")
def batch_to_space(ctx, x, block_shape, crops):
    block, crops = _block(x, block_shape, crops, "crops")
    m, prod = len(block), int(np.prod(block))
    if x.shape[0] % prod:
        raise ValueError(f"Input batch dimension ({x.shape[0]}) is not divisible by product of block sizes ({prod})")
    n = x.shape[0] // prod
    spatial = list(x.shape[1:1 + m])
    rest = list(x.shape[1 + m:])
    split = x.reshape(block + [n] + spatial + rest)
    perm = [m] + [i for j in range(m) for i in (m + 1 + j, j)] + list(range(1 + 2 * m, split.ndim))
    full = split.transpose(perm).reshape([n] + [s * b for s, b in zip(spatial, block)] + rest)
    for i, (lo, hi) in enumerate(crops):
        if lo + hi > full.shape[1 + i]:
            raise ValueError(f"Crops must be less than the size of dimension {i}: {lo} + {hi} > {full.shape[1 + i]}")
    key = (slice(None),) + tuple(slice(lo, full.shape[1 + i] - hi) for i, (lo, hi) in enumerate(crops))
    return np.ascontiguousarray(full[key])
