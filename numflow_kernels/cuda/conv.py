"""CUDA twins of the convolution and pooling kernels: Conv2D, Conv3D, DepthwiseConv2dNative and their
backprops, the max and average pools and their gradients, on device arrays.

One CUDA thread computes one output element from scratch (a grid-stride loop over the output), so
no two threads write one element and the sums run in a fixed order: the bits do not depend on the
launch configuration. A gradient that scatters on the CPU (an input's, a window's share) gathers
here: each input element's thread visits the windows that read it. Every tensor is addressed
through its five logical strides (batch, depth, height, width, channel), so NHWC, NCHW, NDHWC and
NCDHW need no transposes. The geometry and the checks are the CPU's (``reference_conv.Conv``,
``reference_pool.pool_window``); the semantics are those of ``reference_pool.py`` (first maximum,
a NaN is a maximum, MaxPool3DGrad to every element equal to it). float32 and float64; other dtypes
run on the host through the device's copies.

Nothing touches CUDA until the first call: importing this module needs no GPU and no simulator.
"""

import math

import numpy as np
from numba import cuda

from numflow_kernels import reference_conv as rc
from numflow_kernels import reference_pool as rp
from numflow_kernels import window as wn
from numflow_kernels.cpu.conv import geometry
from numflow_kernels.cuda.init import launch_config
from numflow_kernels.portable import once
from numflow_kernels.registry import _KERNELS, REFERENCE, register

GPU = "GPU"
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@once
def _kernels():
    @cuda.jit(device=True)
    def split(t, sizes):
        """``t`` as (n, a, b, c, q) over ``sizes`` [N, A, B, C, Q], the last fastest."""
        q = t % sizes[4]
        t //= sizes[4]
        c = t % sizes[3]
        t //= sizes[3]
        b = t % sizes[2]
        t //= sizes[2]
        a = t % sizes[1]
        return t // sizes[1], a, b, c, q

    @cuda.jit(device=True)
    def at(strides, n, d, h, w, c):
        return n * strides[0] + d * strides[1] + h * strides[2] + w * strides[3] + c * strides[4]

    @cuda.jit(device=True)
    def source(o, k, g, axis, size):
        """The input coordinate window offset ``k`` of output ``o`` reads along ``axis``; -1 outside."""
        i = o * g[3 + axis] + k * g[6 + axis] - g[9 + axis]
        return i if 0 <= i < size else -1

    @cuda.jit(device=True)
    def reader(i, k, g, axis):
        """The output coordinate whose window offset ``k`` reads input coordinate ``i``; -1 for none."""
        o = i + g[9 + axis] - k * g[6 + axis]
        if o < 0 or o % g[3 + axis] != 0:
            return -1
        o //= g[3 + axis]
        return o if o < g[12 + axis] else -1

    @cuda.jit
    def conv_forward(x, w, out, xs, os, shape, g, group_in, depthwise, zero):
        # shape: [N, D, H, W, C] of x, then [N, OD, OH, OW, CO] of out
        for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            n, a, b, c, co = split(t, shape[5:])
            co_count = shape[9]
            if depthwise:
                mult = co_count // shape[4]
                first, count, filt = co // mult, 1, co % mult
            else:
                per_group = co_count // (shape[4] // group_in)
                first, count, filt = (co // per_group) * group_in, group_in, co
            acc = zero
            for i in range(g[0]):
                d = source(a, i, g, 0, shape[1])
                for j in range(g[1]):
                    h = source(b, j, g, 1, shape[2])
                    for k in range(g[2]):
                        ww = source(c, k, g, 2, shape[3])
                        if d >= 0 and h >= 0 and ww >= 0:
                            tap = ((i * g[1] + j) * g[2] + k) * (shape[4] if depthwise else group_in)
                            for q in range(count):
                                wcol = (tap + (first if depthwise else q)) * (co_count // shape[4] if depthwise
                                                                              else co_count) + filt
                                acc += x[at(xs, n, d, h, ww, first + q)] * w[wcol]
            out[at(os, n, a, b, c, co)] = acc

    @cuda.jit
    def conv_filter(x, dy, dw, xs, ys, shape, g, group_in, depthwise, zero):
        # dw is [KD, KH, KW, in, out], contiguous; one thread per element of it
        for t in range(cuda.grid(1), dw.size, cuda.gridsize(1)):
            co_count = shape[9]
            cols = co_count // shape[4] if depthwise else co_count
            filt = t % cols
            rest = t // cols
            rows = shape[4] if depthwise else group_in
            q = rest % rows
            tap = rest // rows
            k = tap % g[2]
            j = (tap // g[2]) % g[1]
            i = tap // (g[2] * g[1])
            if depthwise:
                channel, co = q, q * cols + filt
            else:
                channel, co = (filt // (co_count // (shape[4] // group_in))) * group_in + q, filt
            acc = zero
            for n in range(shape[0]):
                for a in range(g[12]):
                    d = source(a, i, g, 0, shape[1])
                    if d < 0:
                        continue
                    for b in range(g[13]):
                        h = source(b, j, g, 1, shape[2])
                        if h < 0:
                            continue
                        for c in range(g[14]):
                            ww = source(c, k, g, 2, shape[3])
                            if ww >= 0:
                                acc += x[at(xs, n, d, h, ww, channel)] * dy[at(ys, n, a, b, c, co)]
            dw[t] = acc

    @cuda.jit
    def conv_input(w, dy, dx, ys, xs, shape, g, group_in, depthwise, zero):
        for t in range(cuda.grid(1), dx.size, cuda.gridsize(1)):
            n, d, h, ww, channel = split(t, shape[:5])
            co_count = shape[9]
            if depthwise:
                mult = co_count // shape[4]
                first, count, row = channel * mult, mult, channel
            else:
                per_group = co_count // (shape[4] // group_in)
                first, count, row = (channel // group_in) * per_group, per_group, channel % group_in
            acc = zero
            for i in range(g[0]):
                a = reader(d, i, g, 0)
                if a < 0:
                    continue
                for j in range(g[1]):
                    b = reader(h, j, g, 1)
                    if b < 0:
                        continue
                    for k in range(g[2]):
                        c = reader(ww, k, g, 2)
                        if c >= 0:
                            tap = ((i * g[1] + j) * g[2] + k) * (shape[4] if depthwise else group_in) + row
                            for f in range(count):
                                wcol = tap * (mult if depthwise else co_count) + (f if depthwise else first + f)
                                acc += dy[at(ys, n, a, b, c, first + f)] * w[wcol]
            dx[at(xs, n, d, h, ww, channel)] = acc

    @cuda.jit(device=True)
    def window_max(x, xs, n, a, b, c, q, shape, g):
        """(maximum, flat spatial index of its first occurrence) of one window; a NaN wins; (0, -1) for none."""
        best, index = x[0] * 0, -1
        for i in range(g[0]):
            d = source(a, i, g, 0, shape[1])
            for j in range(g[1]):
                h = source(b, j, g, 1, shape[2])
                for k in range(g[2]):
                    ww = source(c, k, g, 2, shape[3])
                    if d >= 0 and h >= 0 and ww >= 0:
                        v = x[at(xs, n, d, h, ww, q)]
                        if index < 0 or v > best or (v != v and best == best):
                            best, index = v, (d * shape[2] + h) * shape[3] + ww
        return best, index

    @cuda.jit
    def max_pool(x, out, xs, os, shape, g):
        for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            n, a, b, c, q = split(t, shape[5:])
            best, index = window_max(x, xs, n, a, b, c, q, shape, g)
            out[at(os, n, a, b, c, q)] = best if index >= 0 else -math.inf

    @cuda.jit
    def max_pool_grad_grad(x, ddx, out, xs, os, shape, g):
        for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            n, a, b, c, q = split(t, shape[5:])
            best, index = window_max(x, xs, n, a, b, c, q, shape, g)
            value = ddx[0] * 0
            if index >= 0:
                ww = index % shape[3]
                h = (index // shape[3]) % shape[2]
                d = index // (shape[3] * shape[2])
                value = ddx[at(xs, n, d, h, ww, q)]
            out[at(os, n, a, b, c, q)] = value

    @cuda.jit(device=True)
    def count(a, b, c, shape, g):
        total = 0
        for i in range(g[0]):
            for j in range(g[1]):
                for k in range(g[2]):
                    if source(a, i, g, 0, shape[1]) >= 0 and source(b, j, g, 1, shape[2]) >= 0 and \
                            source(c, k, g, 2, shape[3]) >= 0:
                        total += 1
        return max(total, 1)

    @cuda.jit
    def avg_pool(x, out, xs, os, shape, g):
        for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            n, a, b, c, q = split(t, shape[5:])
            acc = x[0] * 0
            for i in range(g[0]):
                d = source(a, i, g, 0, shape[1])
                for j in range(g[1]):
                    h = source(b, j, g, 1, shape[2])
                    for k in range(g[2]):
                        ww = source(c, k, g, 2, shape[3])
                        if d >= 0 and h >= 0 and ww >= 0:
                            acc += x[at(xs, n, d, h, ww, q)]
            out[at(os, n, a, b, c, q)] = acc / count(a, b, c, shape, g)

    @cuda.jit
    def pool_grad(x, dy, dx, xs, ys, shape, g, mode):
        """dx of a pool, one input element per thread, from the windows that read it: mode 0, a max
        pool's (at each window's first maximum); 1, MaxPool3DGrad's (at every element equal to the
        maximum); 2, an average pool's (x unused)."""
        for t in range(cuda.grid(1), dx.size, cuda.gridsize(1)):
            n, d, h, ww, q = split(t, shape[:5])
            here = (d * shape[2] + h) * shape[3] + ww
            v = x[at(xs, n, d, h, ww, q)] if mode < 2 else x[0]
            acc = dy[0] * 0
            for i in range(g[0]):
                a = reader(d, i, g, 0)
                for j in range(g[1]):
                    b = reader(h, j, g, 1)
                    for k in range(g[2]):
                        c = reader(ww, k, g, 2)
                        if a >= 0 and b >= 0 and c >= 0:
                            share = dy[at(ys, n, a, b, c, q)]
                            if mode == 2:
                                acc += share / count(a, b, c, shape, g)
                            else:
                                best, index = window_max(x, xs, n, a, b, c, q, shape, g)
                                if (v == best) if mode == 1 else index == here:
                                    acc += share
            dx[at(xs, n, d, h, ww, q)] = acc

    return dict(locals())


def strides5(shape, data_format):
    """The element strides of a C-contiguous tensor of ``shape`` in ``data_format``, in the logical order
    (batch, depth, height, width, channel); a 2-D tensor's depth has stride 0."""
    strides = np.cumprod((list(shape[1:]) + [1])[::-1])[::-1]
    order = list(range(len(shape)))
    channel = order.pop(1) if data_format in wn.CHANNELS_FIRST else order.pop()
    logical = [order[0], *order[1:], channel]
    out = [int(strides[i]) for i in logical]
    return np.array(out if len(shape) == 5 else [out[0], 0, *out[1:]], np.int64)


def _launch(name, out_size, *args):
    if out_size:
        _kernels()[name][launch_config(out_size)](*args)


def _on_host(ctx, op_type, *inputs):
    result = _KERNELS[(op_type, REFERENCE)](ctx, *[ctx.device.copy_out(x) for x in inputs])
    if isinstance(result, tuple):
        return tuple(ctx.device.copy_in(np.asarray(r)) for r in result)
    return ctx.device.copy_in(np.asarray(result))


def _floats(*arrays):
    return arrays[0].dtype in _FLOATS and all(a.dtype == arrays[0].dtype for a in arrays)


def _conv_args(conv, x_shape, out_shape, depthwise):
    shape = np.array([*_five(x_shape, conv.data_format), *_five(out_shape, conv.data_format)], np.int64)
    group_in = conv.filter_shape[-2]
    return shape, geometry(conv.window), group_in, bool(depthwise)


def _five(shape, data_format):
    """``shape`` as [N, D, H, W, C]."""
    spatial = wn.spatial_sizes(shape, data_format)
    return [shape[0], *((1,) * (3 - len(spatial)) + tuple(spatial)), wn.channels(shape, data_format)]


@register("Conv2D", GPU)
@register("Conv3D", GPU)
@register("DepthwiseConv2dNative", GPU)
def conv(ctx, x, w):
    depthwise = ctx.op_type.startswith("Depthwise")
    conv = rc.Conv(ctx.attrs, tuple(x.shape), tuple(w.shape), ctx.op_type, depthwise=depthwise)
    if not _floats(x, w):
        return _on_host(ctx, ctx.op_type, x, w)
    out = ctx.device.alloc(conv.out_shape(), x.dtype)
    fmt = conv.data_format
    shape, g, group_in, dw = _conv_args(conv, tuple(x.shape), tuple(out.shape), depthwise)
    _launch("conv_forward", out.size, x.reshape(x.size), w.reshape(w.size), out.reshape(out.size),
            strides5(tuple(x.shape), fmt), strides5(tuple(out.shape), fmt), shape, g, group_in, dw, x.dtype.type(0))
    return out


def _sizes(ctx, sizes):
    return rc.shape_of(ctx.device.copy_out(sizes))


@register("Conv2DBackpropFilter", GPU)
@register("Conv3DBackpropFilterV2", GPU)
@register("DepthwiseConv2dNativeBackpropFilter", GPU)
def conv_filter_grad(ctx, x, filter_sizes, dy):
    depthwise = ctx.op_type.startswith("Depthwise")
    conv = rc.Conv(ctx.attrs, tuple(x.shape), _sizes(ctx, filter_sizes), ctx.op_type, depthwise=depthwise)
    conv.check_backprop(tuple(dy.shape), ctx.op_type)
    if not _floats(x, dy):
        return _on_host(ctx, ctx.op_type, x, filter_sizes, dy)
    dw = ctx.device.alloc(conv.filter_shape, x.dtype)
    fmt = conv.data_format
    shape, g, group_in, flag = _conv_args(conv, tuple(x.shape), tuple(dy.shape), depthwise)
    _launch("conv_filter", dw.size, x.reshape(x.size), dy.reshape(dy.size), dw.reshape(dw.size),
            strides5(tuple(x.shape), fmt), strides5(tuple(dy.shape), fmt), shape, g, group_in, flag, x.dtype.type(0))
    return dw


@register("Conv2DBackpropInput", GPU)
@register("Conv3DBackpropInputV2", GPU)
@register("DepthwiseConv2dNativeBackpropInput", GPU)
def conv_input_grad(ctx, sizes, w, dy):
    depthwise = ctx.op_type.startswith("Depthwise")
    fmt = ctx.attrs["data_format"]
    x_shape = rc.input_sizes(_sizes(ctx, sizes), tuple(w.shape), tuple(dy.shape), fmt)
    conv = rc.Conv(ctx.attrs, x_shape, tuple(w.shape), ctx.op_type, depthwise=depthwise)
    conv.check_backprop(tuple(dy.shape), ctx.op_type)
    if not _floats(w, dy):
        return _on_host(ctx, ctx.op_type, sizes, w, dy)
    dx = ctx.device.alloc(x_shape, w.dtype)
    shape, g, group_in, flag = _conv_args(conv, x_shape, tuple(dy.shape), depthwise)
    _launch("conv_input", dx.size, w.reshape(w.size), dy.reshape(dy.size), dx.reshape(dx.size),
            strides5(tuple(dy.shape), fmt), strides5(x_shape, fmt), shape, g, group_in, flag, w.dtype.type(0))
    return dx


def _pool_args(ctx, x_shape):
    """``(data format, output shape, [N, D, H, W, C] of input and output, geometry)`` of a pooling op."""
    fmt = ctx.attrs.get("data_format", "NHWC")
    win = rp.pool_window(ctx.attrs, x_shape)
    n, c = x_shape[0], wn.channels(x_shape, fmt)
    spatial = win.out[3 - (len(x_shape) - 2):]
    out_shape = (n, c, *spatial) if fmt in wn.CHANNELS_FIRST else (n, *spatial, c)
    shape = np.array([*_five(x_shape, fmt), *_five(out_shape, fmt)], np.int64)
    return fmt, out_shape, shape, geometry(win)


@register("MaxPool", GPU)
@register("MaxPool3D", GPU)
@register("AvgPool", GPU)
@register("AvgPool3D", GPU)
def pool(ctx, x):
    fmt, out_shape, shape, g = _pool_args(ctx, tuple(x.shape))
    if not _floats(x):
        return _on_host(ctx, ctx.op_type, x)
    out = ctx.device.alloc(out_shape, x.dtype)
    name = "max_pool" if ctx.op_type.startswith("Max") else "avg_pool"
    _launch(name, out.size, x.reshape(x.size), out.reshape(out.size), strides5(tuple(x.shape), fmt),
            strides5(out_shape, fmt), shape, g)
    return out


@register("MaxPoolGrad", GPU)
@register("MaxPool3DGrad", GPU)
def max_pool_grad(ctx, orig_input, orig_output, grad):
    fmt, out_shape, shape, g = _pool_args(ctx, tuple(orig_input.shape))
    if not _floats(orig_input, grad) or tuple(tuple(grad.shape)) != out_shape:
        return _on_host(ctx, ctx.op_type, orig_input, orig_output, grad)
    dx = ctx.device.alloc(tuple(orig_input.shape), grad.dtype)
    _launch("pool_grad", dx.size, orig_input.reshape(orig_input.size), grad.reshape(grad.size),
            dx.reshape(dx.size), strides5(tuple(orig_input.shape), fmt), strides5(out_shape, fmt), shape, g,
            1 if ctx.op_type == "MaxPool3DGrad" else 0)
    return dx


@register("MaxPoolGradGrad", GPU)
@register("MaxPool3DGradGrad", GPU)
def max_pool_grad_grad(ctx, orig_input, orig_output, grad):
    fmt, out_shape, shape, g = _pool_args(ctx, tuple(orig_input.shape))
    if not _floats(orig_input, grad) or tuple(grad.shape) != tuple(orig_input.shape):
        return _on_host(ctx, ctx.op_type, orig_input, orig_output, grad)
    out = ctx.device.alloc(out_shape, grad.dtype)
    _launch("max_pool_grad_grad", out.size, orig_input.reshape(orig_input.size), grad.reshape(grad.size),
            out.reshape(out.size), strides5(tuple(orig_input.shape), fmt), strides5(out_shape, fmt), shape, g)
    return out


@register("AvgPoolGrad", GPU)
@register("AvgPool3DGrad", GPU)
def avg_pool_grad(ctx, orig_input_shape, grad):
    x_shape = _sizes(ctx, orig_input_shape)
    if len(x_shape) != len(tuple(grad.shape)):
        raise ValueError(f"orig_input_shape must have {len(tuple(grad.shape))} elements, got {len(x_shape)}")
    fmt, out_shape, shape, g = _pool_args(ctx, x_shape)
    if not _floats(grad) or tuple(tuple(grad.shape)) != out_shape:
        return _on_host(ctx, ctx.op_type, orig_input_shape, grad)
    dx = ctx.device.alloc(x_shape, grad.dtype)
    flat = grad.reshape(grad.size)
    _launch("pool_grad", dx.size, flat, flat, dx.reshape(dx.size), strides5(x_shape, fmt), strides5(out_shape, fmt),
            shape, g, 2)
    return dx


for _op in ("MaxPoolWithArgmax", "MaxPoolGradWithArgmax", "MaxPoolGradGradWithArgmax", "SpaceToBatchND",
            "BatchToSpaceND"):
    register(_op, GPU)(lambda ctx, *inputs, _op=_op: _on_host(ctx, _op, *inputs))
