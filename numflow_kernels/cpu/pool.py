"""CPU kernels of the max and average pools and their gradients: Numba loops over ``[N, D, H, W, C]``,
one image per parallel iteration, channels innermost (contiguous, so compares and adds run as
vectors).

The spec is ``reference_pool.py``: a window reads only input elements; the gradient of a max goes
to the first maximum in row-major window order (to every element equal to it for MaxPool3DGrad); an
average divides by the input elements in its window. A NaN in a window is its maximum, at its first
NaN. Each image is computed by one thread, so neither twin's result depends on the thread count.
float32 and float64; other dtypes go to the numpy kernels.
"""

import threading

import numpy as np

from numflow_kernels import reference_conv as rc
from numflow_kernels import reference_pool as rp
from numflow_kernels import window as wn
from numflow_kernels.cpu import twins
from numflow_kernels.cpu.conv import geometry
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _window_max(x, n, best, index, g):
    """For image ``n`` of ``x``: ``best`` (``[OD, OH, OW, C]``) = each window's maximum and ``index`` its
    flat ``[D, H, W]`` position (the first maximum; a NaN wins), -inf and -1 for a window of padding.

    The updates are selects, not branches, so the channel loop runs as vectors."""
    size_d, size_h, size_w, channels = x.shape[1], x.shape[2], x.shape[3], x.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    for a in range(od):
        for b in range(oh):
            for c in range(ow):
                top = best[a, b, c]
                at = index[a, b, c]
                first = True
                for i in range(kd):
                    d = a * sd + i * dd - pd
                    for j in range(kh):
                        h = b * sh + j * dh - ph
                        for k in range(kw):
                            w = c * sw + k * dw - pw
                            if 0 <= d < size_d and 0 <= h < size_h and 0 <= w < size_w:
                                row = x[n, d, h, w]
                                here = (d * size_h + h) * size_w + w
                                if first:
                                    for q in range(channels):
                                        top[q] = row[q]
                                        at[q] = here
                                    first = False
                                else:
                                    for q in range(channels):
                                        v, t = row[q], top[q]
                                        wins = (v > t) | ((v != v) & (t == t))
                                        top[q] = v if wins else t
                                        at[q] = here if wins else at[q]
                if first:
                    for q in range(channels):
                        top[q] = -np.inf
                        at[q] = -1


def _max_pool(x, out, g):
    """``out`` = each window's maximum (a NaN wins), -inf for a window of padding."""
    size_d, size_h, size_w, channels = x.shape[1], x.shape[2], x.shape[3], x.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    for n in prange(x.shape[0]):
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    top = out[n, a, b, c]
                    first = True
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            for k in range(kw):
                                w = c * sw + k * dw - pw
                                if 0 <= d < size_d and 0 <= h < size_h and 0 <= w < size_w:
                                    row = x[n, d, h, w]
                                    if first:
                                        for q in range(channels):
                                            top[q] = row[q]
                                        first = False
                                    else:
                                        for q in range(channels):
                                            v, t = row[q], top[q]
                                            top[q] = v if (v > t) | (v != v) else t
                    if first:
                        for q in range(channels):
                            top[q] = -np.inf


def _max_pool_grad(x, grad, dx, g):
    """``dx`` (zeros) += each window's ``grad`` at its first maximum in ``x``."""
    for n in prange(x.shape[0]):
        best = np.empty(grad.shape[1:], x.dtype)
        index = np.empty(grad.shape[1:], np.int64)
        _window_max(x, n, best, index, g)
        flat = dx[n].reshape(-1, dx.shape[4])
        for a in range(grad.shape[1]):
            for b in range(grad.shape[2]):
                for c in range(grad.shape[3]):
                    for q in range(grad.shape[4]):
                        at = index[a, b, c, q]
                        if at >= 0:
                            flat[at, q] += grad[n, a, b, c, q]


def _max_pool_grad_grad(x, grad, out, g):
    """``out`` = ``grad`` (shaped as ``x``) read at each window's first maximum in ``x``."""
    for n in prange(x.shape[0]):
        best = np.empty(out.shape[1:], x.dtype)
        index = np.empty(out.shape[1:], np.int64)
        _window_max(x, n, best, index, g)
        flat = grad[n].reshape(-1, grad.shape[4])
        for a in range(out.shape[1]):
            for b in range(out.shape[2]):
                for c in range(out.shape[3]):
                    for q in range(out.shape[4]):
                        at = index[a, b, c, q]
                        out[n, a, b, c, q] = flat[at, q] if at >= 0 else 0


def _windows_add(dx, n, share, ties_of, x, g):
    """Add ``share`` (one value per window and channel) into image ``n`` of ``dx`` over each window's input
    elements; with ``ties_of`` (the window maxima) only where ``x`` equals it."""
    size_d, size_h, size_w, channels = dx.shape[1], dx.shape[2], dx.shape[3], dx.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    only_ties = ties_of.shape[0] > 0
    for a in range(od):
        for b in range(oh):
            for c in range(ow):
                part = share[a, b, c]
                for i in range(kd):
                    d = a * sd + i * dd - pd
                    for j in range(kh):
                        h = b * sh + j * dh - ph
                        for k in range(kw):
                            w = c * sw + k * dw - pw
                            if 0 <= d < size_d and 0 <= h < size_h and 0 <= w < size_w:
                                target = dx[n, d, h, w]
                                if only_ties:
                                    top, row = ties_of[a, b, c], x[n, d, h, w]
                                    for q in range(channels):
                                        if row[q] == top[q]:
                                            target[q] += part[q]
                                else:
                                    for q in range(channels):
                                        target[q] += part[q]


def _max_pool3d_grad(x, grad, dx, g):
    """``dx`` (zeros) += each window's ``grad`` at every element equal to its maximum."""
    for n in prange(x.shape[0]):
        best = np.empty(grad.shape[1:], x.dtype)
        index = np.empty(grad.shape[1:], np.int64)
        _window_max(x, n, best, index, g)
        _windows_add(dx, n, grad[n], best, x, g)


def _counts(shape, g):
    """How many input elements each window holds: ``[OD, OH, OW]``, from the input's spatial ``shape``."""
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    out = np.zeros((od, oh, ow), np.int64)
    for a in range(od):
        for b in range(oh):
            for c in range(ow):
                for i in range(kd):
                    for j in range(kh):
                        for k in range(kw):
                            d, h, w = a * sd + i * dd - pd, b * sh + j * dh - ph, c * sw + k * dw - pw
                            if 0 <= d < shape[0] and 0 <= h < shape[1] and 0 <= w < shape[2]:
                                out[a, b, c] += 1
    return out


def _avg_pool(x, out, g):
    size_d, size_h, size_w, channels = x.shape[1], x.shape[2], x.shape[3], x.shape[4]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g
    counts = _counts((size_d, size_h, size_w), g)
    for n in prange(x.shape[0]):
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    total = out[n, a, b, c]
                    for q in range(channels):
                        total[q] = 0
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            for k in range(kw):
                                w = c * sw + k * dw - pw
                                if 0 <= d < size_d and 0 <= h < size_h and 0 <= w < size_w:
                                    row = x[n, d, h, w]
                                    for q in range(channels):
                                        total[q] += row[q]
                    count = max(counts[a, b, c], 1)
                    for q in range(channels):
                        total[q] /= count


def _avg_pool_grad(grad, dx, g):
    counts = _counts((dx.shape[1], dx.shape[2], dx.shape[3]), g)
    none = np.empty((0, 0, 0, 0), grad.dtype)
    for n in prange(grad.shape[0]):
        share = np.empty(grad.shape[1:], grad.dtype)
        for a in range(grad.shape[1]):
            for b in range(grad.shape[2]):
                for c in range(grad.shape[3]):
                    count = max(counts[a, b, c], 1)
                    for q in range(grad.shape[4]):
                        share[a, b, c, q] = grad[n, a, b, c, q] / count
        _windows_add(dx, n, share, none, dx, g)


_HELPERS = ("_window_max", "_windows_add", "_counts")
_helpers_lock = threading.Lock()


class _Twin(twins.LazyTwin):
    """A pool kernel's twins, compiled after the helpers they call (Numba finds those among the
    module's globals when it compiles the kernels)."""

    def __iter__(self):
        with _helpers_lock:
            if not hasattr(globals()["_window_max"], "py_func"):
                import numba

                for name in _HELPERS:
                    globals()[name] = numba.njit(nogil=True, cache=True, error_model="numpy")(globals()[name])
        return super().__iter__()


_KERNELS = {fn.__name__: _Twin(fn) for fn in (_max_pool, _max_pool_grad, _max_pool_grad_grad, _max_pool3d_grad,
                                                _avg_pool, _avg_pool_grad)}


def _launch(name, work, *args):
    twins.launch(_KERNELS[name], work, *args)


def _layout(x, fmt):
    return np.ascontiguousarray(wn.channels_last(x, fmt))


def _fits(*arrays):
    return arrays[0].dtype in _FLOATS and all(a.dtype == arrays[0].dtype for a in arrays) and arrays[0].size > 0


@register("MaxPool")
@register("MaxPool3D")
def max_pool(ctx, x):
    win = rp.pool_window(ctx.attrs, x.shape)
    if not _fits(x):
        return rp.max_pool(ctx, x)
    fmt = ctx.attrs["data_format"]
    x5 = _layout(x, fmt)
    out = np.empty((x5.shape[0], *win.out, x5.shape[4]), x.dtype)
    _launch("_max_pool", x5.size, x5, out, geometry(win))
    return wn.restore_layout(out, fmt, x.ndim)


def _grad_setup(ctx, orig_input, grad, op_type):
    fmt = ctx.attrs["data_format"]
    win = rp.pool_window(ctx.attrs, orig_input.shape)
    x5, g5 = _layout(orig_input, fmt), _layout(grad, fmt)
    if g5.shape != (x5.shape[0], *win.out, x5.shape[4]):
        raise ValueError(f"{op_type}: grad must have the shape of the pool's output: {list(g5.shape)} vs "
                         f"{[x5.shape[0], *win.out, x5.shape[4]]}")
    return fmt, win, x5, g5


@register("MaxPoolGrad")
@register("MaxPool3DGrad")
def max_pool_grad(ctx, orig_input, orig_output, grad):
    if not _fits(orig_input, grad):
        return (rp.max_pool_grad if ctx.op_type == "MaxPoolGrad" else rp.max_pool3d_grad)(
            ctx, orig_input, orig_output, grad)
    fmt, win, x5, g5 = _grad_setup(ctx, orig_input, grad, ctx.op_type)
    dx = np.zeros_like(x5)
    kernel = "_max_pool_grad" if ctx.op_type == "MaxPoolGrad" else "_max_pool3d_grad"
    _launch(kernel, x5.size, x5, g5, dx, geometry(win))
    return wn.restore_layout(dx, fmt, orig_input.ndim)


@register("MaxPoolGradGrad")
@register("MaxPool3DGradGrad")
def max_pool_grad_grad(ctx, orig_input, orig_output, grad):
    if not _fits(orig_input, grad) or grad.shape != orig_input.shape:
        return rp.max_pool_grad_grad(ctx, orig_input, orig_output, grad)
    fmt = ctx.attrs["data_format"]
    win = rp.pool_window(ctx.attrs, orig_input.shape)
    x5, g5 = _layout(orig_input, fmt), _layout(grad, fmt)
    out = np.empty((x5.shape[0], *win.out, x5.shape[4]), grad.dtype)
    _launch("_max_pool_grad_grad", x5.size, x5, g5, out, geometry(win))
    return wn.restore_layout(out, fmt, orig_input.ndim)


@register("AvgPool")
@register("AvgPool3D")
def avg_pool(ctx, x):
    win = rp.pool_window(ctx.attrs, x.shape)
    if not _fits(x):
        return rp.avg_pool(ctx, x)
    fmt = ctx.attrs["data_format"]
    x5 = _layout(x, fmt)
    out = np.empty((x5.shape[0], *win.out, x5.shape[4]), x.dtype)
    _launch("_avg_pool", x5.size, x5, out, geometry(win))
    return wn.restore_layout(out, fmt, x.ndim)


@register("AvgPoolGrad")
@register("AvgPool3DGrad")
def avg_pool_grad(ctx, orig_input_shape, grad):
    if not _fits(grad):
        return rp.avg_pool_grad(ctx, orig_input_shape, grad)
    fmt = ctx.attrs["data_format"]
    shape = rc.shape_of(orig_input_shape)
    if len(shape) != grad.ndim:
        raise ValueError(f"orig_input_shape must have {grad.ndim} elements, got {len(shape)}")
    win = rp.pool_window(ctx.attrs, shape)
    g5 = _layout(grad, fmt)
    n, c = shape[0], wn.channels(shape, fmt)
    if g5.shape != (n, *win.out, c):
        raise ValueError(f"grad must have the shape of the pool's output: {list(g5.shape)} vs {[n, *win.out, c]}")
    dx = np.zeros((n, *win.sizes, c), grad.dtype)
    _launch("_avg_pool_grad", dx.size, g5, dx, geometry(win))
    return wn.restore_layout(dx, fmt, len(shape))
