"""CPU kernels of DepthwiseConv2dNative and its backprops: Numba loops over ``[N, D, H, W, C]``, one
image per parallel iteration, channels innermost.

Each input channel ``ch`` has its own ``M`` filters: ``out[..., ch * M + m] = sum over the window of
x[..., ch] * w[k, ch, m]``. A depthwise convolution does ``M`` multiply-adds per input element and
window tap, too few for a matrix product to pay, so this is one loop over each window's input
elements (``pool._taps``) with three bodies: the forward and the two gradients. The filter gradient
sums one part per image, then the parts in image order, so neither twin's bits depend on the thread
count. float32 and float64; other dtypes go to ``reference_conv.py``.
"""

import numpy as np

from numflow_kernels import reference_conv as rc
from numflow_kernels import window as wn
from numflow_kernels.cpu import twins
from numflow_kernels.cpu.conv import geometry
from numflow_kernels.cpu.pool import WindowTwin, _taps  # noqa: F401  (_taps: called by the kernel)
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _depthwise(image, w, pooled, g, mode):
    """One depthwise convolution step per image, over each window's input elements (``_taps``), with
    ``image`` ``[N, D * H * W, C]``, ``w`` ``[K, C, M]`` and ``pooled`` ``[N, OD, OH, OW, C * M]``:

    - mode 0, the forward: ``pooled`` = the convolution of ``image`` by ``w``;
    - mode 1, the filter gradient: ``w`` (``[N, K, C, M]`` here: one part per image) = ``image``'s
      windows times the gradient ``pooled``;
    - mode 2, the input gradient: ``image`` = ``pooled`` (the gradient) spread back through ``w``.
    """
    channels, mult = image.shape[2], pooled.shape[4] // image.shape[2]
    sizes = (g[15], g[16], g[17])
    for n in prange(image.shape[0]):
        where = np.empty(g[0] * g[1] * g[2], np.int64)
        which = np.empty_like(where)
        if mode == 1:
            w[n] = 0
        elif mode == 2:
            image[n] = 0
        for a in range(g[12]):
            for b in range(g[13]):
                for c in range(g[14]):
                    out = pooled[n, a, b, c]
                    if mode == 0:
                        out[:] = 0
                    for t in range(_taps(a, b, c, sizes, g, where, which)):
                        row = image[n, where[t]]
                        taps = w[n, which[t]] if mode == 1 else w[0, which[t]]
                        for ch in range(channels):
                            for m in range(mult):
                                if mode == 0:
                                    out[ch * mult + m] += row[ch] * taps[ch, m]
                                elif mode == 1:
                                    taps[ch, m] += row[ch] * out[ch * mult + m]
                                else:
                                    row[ch] += out[ch * mult + m] * taps[ch, m]


_KERNEL = WindowTwin(_depthwise)


def _fits(*arrays):
    return arrays[0].dtype in _FLOATS and all(a.dtype == arrays[0].dtype for a in arrays) and arrays[0].shape[0] > 0


def _writable(x, shape):
    """``x`` reshaped, C-contiguous and writable: the one kernel is typed as writing every argument in
    one of its modes, so a read-only input (a constant's) is copied."""
    return np.require(x.reshape(shape), requirements="CW")


def _image(x, conv):
    x5 = wn.channels_last(x, conv.data_format)
    return _writable(x5, (x5.shape[0], -1, x5.shape[4]))


def _filters(w, conv):
    return _writable(w, (1, -1, *w.shape[-2:]))


@register("DepthwiseConv2dNative")
def depthwise(ctx, x, w):
    conv = rc.Conv(ctx.attrs, x.shape, w.shape, ctx.op_type, depthwise=True)
    if not _fits(x, w):
        return rc.depthwise(ctx, x, w)
    out = np.empty((conv.batch, *conv.window.out, conv.out_channels), x.dtype)
    twins.launch(_KERNEL, out.size, _image(x, conv), _filters(w, conv), out, geometry(conv.window), 0)
    return wn.restore_layout(out, conv.data_format, conv.rank)


@register("DepthwiseConv2dNativeBackpropFilter")
def depthwise_filter_grad(ctx, x, filter_sizes, dy):
    conv = rc.Conv(ctx.attrs, x.shape, rc.shape_of(filter_sizes), ctx.op_type, depthwise=True)
    conv.check_backprop(dy.shape, ctx.op_type)
    if not _fits(x, dy):
        return rc.depthwise_filter_grad(ctx, x, filter_sizes, dy)
    parts = np.empty((conv.batch, int(np.prod(conv.window.kernel)), *conv.filter_shape[-2:]), x.dtype)
    dy5 = _writable(wn.channels_last(dy, conv.data_format), (conv.batch, *conv.window.out, -1))
    twins.launch(_KERNEL, dy.size, _image(x, conv), parts, dy5, geometry(conv.window), 1)
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
    dx = np.empty((conv.batch, int(np.prod(conv.window.sizes)), conv.channels), w.dtype)
    dy5 = _writable(wn.channels_last(dy, fmt), (conv.batch, *conv.window.out, -1))
    twins.launch(_KERNEL, dx.size, dx, _filters(w, conv), dy5, geometry(conv.window), 2)
    return wn.restore_layout(dx.reshape(conv.batch, *conv.window.sizes, conv.channels), fmt, conv.rank)
