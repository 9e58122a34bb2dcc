"""CPU kernels of DepthwiseConv2dNative and its backprops: Numba loops over ``[N, D, H, W, C]``, one
image per parallel iteration, channels innermost.

Each input channel ``ch`` has its own ``M`` filters: ``out[..., ch * M + m] = sum over the window of
x[..., ch] * w[k, ch, m]``. A depthwise convolution does ``M`` multiply-adds per input element and
window tap, too few for a matrix product to pay, so these are plain loops. The filter gradient sums
one partial per image, then the partials in image order, so neither twin's bits depend on the
thread count. float32 and float64; other dtypes go to ``reference_conv.py``.
"""

import numpy as np

from numflow_kernels import reference_conv as rc
from numflow_kernels import window as wn
from numflow_kernels.cpu import twins
from numflow_kernels.cpu.conv import geometry
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _forward(x, w, out, g):
    size_d, size_h, size_w, channels = x.shape[1], x.shape[2], x.shape[3], x.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    mult = w.shape[4]
    for n in prange(x.shape[0]):
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    target = out[n, a, b, c]
                    target[:] = 0
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            for k in range(kw):
                                q = c * sw + k * dw - pw
                                if 0 <= d < size_d and 0 <= h < size_h and 0 <= q < size_w:
                                    row, taps = x[n, d, h, q], w[i, j, k]
                                    for ch in range(channels):
                                        for m in range(mult):
                                            target[ch * mult + m] += row[ch] * taps[ch, m]


def _filter_grad(x, dy, parts, g):
    """``parts[n]`` = image ``n``'s share of the filter gradient."""
    size_d, size_h, size_w, channels = x.shape[1], x.shape[2], x.shape[3], x.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    mult = parts.shape[5]
    for n in prange(x.shape[0]):
        part = parts[n]
        part[:] = 0
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    grad = dy[n, a, b, c]
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            for k in range(kw):
                                q = c * sw + k * dw - pw
                                if 0 <= d < size_d and 0 <= h < size_h and 0 <= q < size_w:
                                    row, taps = x[n, d, h, q], part[i, j, k]
                                    for ch in range(channels):
                                        for m in range(mult):
                                            taps[ch, m] += row[ch] * grad[ch * mult + m]


def _input_grad(w, dy, dx, g):
    size_d, size_h, size_w, channels = dx.shape[1], dx.shape[2], dx.shape[3], dx.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    mult = w.shape[4]
    for n in prange(dx.shape[0]):
        dx[n] = 0
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    grad = dy[n, a, b, c]
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            for k in range(kw):
                                q = c * sw + k * dw - pw
                                if 0 <= d < size_d and 0 <= h < size_h and 0 <= q < size_w:
                                    target, taps = dx[n, d, h, q], w[i, j, k]
                                    for ch in range(channels):
                                        total = target[ch]
                                        for m in range(mult):
                                            total += grad[ch * mult + m] * taps[ch, m]
                                        target[ch] = total


_FORWARD, _FILTER_GRAD, _INPUT_GRAD = (twins.LazyTwin(fn) for fn in (_forward, _filter_grad, _input_grad))


def _fits(*arrays):
    return arrays[0].dtype in _FLOATS and all(a.dtype == arrays[0].dtype for a in arrays) and arrays[0].shape[0] > 0


def _five(x, fmt):
    return np.ascontiguousarray(wn.channels_last(x, fmt))


@register("DepthwiseConv2dNative")
def depthwise(ctx, x, w):
    conv = rc.Conv(ctx.attrs, x.shape, w.shape, ctx.op_type, depthwise=True)
    if not _fits(x, w):
        return rc.depthwise(ctx, x, w)
    x5 = _five(x, conv.data_format)
    out = np.empty((x5.shape[0], *conv.window.out, conv.out_channels), x.dtype)
    twins.launch(_FORWARD, out.size, x5, np.ascontiguousarray(conv.filter5(w)), out, geometry(conv.window))
    return wn.restore_layout(out, conv.data_format, conv.rank)


@register("DepthwiseConv2dNativeBackpropFilter")
def depthwise_filter_grad(ctx, x, filter_sizes, dy):
    conv = rc.Conv(ctx.attrs, x.shape, rc.shape_of(filter_sizes), ctx.op_type, depthwise=True)
    conv.check_backprop(dy.shape, ctx.op_type)
    if not _fits(x, dy):
        return rc.depthwise_filter_grad(ctx, x, filter_sizes, dy)
    x5 = _five(x, conv.data_format)
    parts = np.empty((x5.shape[0], *conv.window.kernel, *conv.filter_shape[-2:]), x.dtype)
    twins.launch(_FILTER_GRAD, dy.size, x5, _five(dy, conv.data_format), parts, geometry(conv.window))
    total = parts[0]
    for part in parts[1:]:  # in image order
        total += part
    return total.reshape(conv.filter_shape)


@register("DepthwiseConv2dNativeBackpropInput")
def depthwise_input_grad(ctx, sizes, w, dy):
    fmt = ctx.attrs["data_format"]
    conv = rc.Conv(ctx.attrs, rc.input_sizes(sizes, w.shape, dy.shape, fmt), w.shape, ctx.op_type, depthwise=True)
    conv.check_backprop(dy.shape, ctx.op_type)
    if not _fits(w, dy):
        return rc.depthwise_input_grad(ctx, sizes, w, dy)
    dx = np.empty((conv.batch, *conv.window.sizes, conv.channels), w.dtype)
    twins.launch(_INPUT_GRAD, dx.size, np.ascontiguousarray(conv.filter5(w)), _five(dy, fmt), dx,
                 geometry(conv.window))
    return wn.restore_layout(dx, fmt, conv.rank)
