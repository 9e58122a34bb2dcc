"""CPU kernels of the max and average pools and their gradients: Numba loops over ``[N, D, H, W, C]``,
one image per parallel iteration, channels innermost (contiguous, so compares and adds run as
vectors).

The spec is ``reference_pool.py``: a window reads only input elements; the gradient of a max goes
to the first maximum in row-major window order (to every element equal to it for MaxPool3DGrad); an
average divides by the input elements in its window. A NaN in a window is its maximum, at its first
NaN. Each image is computed by one thread, so neither twin's result depends on the thread count.
Where a max pool's windows tile its input (strides equal to the window, no padding: 2x2 pools of
even sizes), each window's taps are found without bounds checks, and the gradient writes each input
element once, without zeroing the result first.
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


def _taps(a, b, c, sizes, g, where, which):
    """The input elements window ``(a, b, c)`` reads, in row-major window order: ``where[t]`` their flat
    ``[D, H, W]`` positions, ``which[t]`` their flat window offsets. Returns how many there are."""
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw = g[:12]
    count = 0
    for i in range(kd):
        d = a * sd + i * dd - pd
        for j in range(kh):
            h = b * sh + j * dh - ph
            for k in range(kw):
                w = c * sw + k * dw - pw
                if 0 <= d < sizes[0] and 0 <= h < sizes[1] and 0 <= w < sizes[2]:
                    where[count] = (d * sizes[1] + h) * sizes[2] + w
                    which[count] = (i * kh + j) * kw + k
                    count += 1
    return count


def _first_max(x, n, where, count, top, first):
    """Over the input elements ``where[:count]`` of image ``n`` of ``x`` (``[N, D * H * W, C]``): each
    channel's maximum into ``top`` and, unless ``first`` is empty, the tap of its first occurrence into
    ``first`` (a NaN wins, at its first NaN). The updates are selects, not branches, so the channel
    loops run as vectors."""
    track = first.shape[0] > 0
    row = x[n, where[0]]
    for q in range(x.shape[2]):
        top[q] = row[q]
    if track:
        first[:] = 0
    for t in range(1, count):
        row = x[n, where[t]]
        for q in range(x.shape[2]):
            v, u = row[q], top[q]
            wins = (v > u) | ((v != v) & (u == u))
            top[q] = v if wins else u
            if track:
                first[q] = t if wins else first[q]


def _window_max(x, n, best, index, g):
    """For image ``n`` of ``x``: ``best`` (``[OD, OH, OW, C]``) = each window's maximum and, unless
    ``index`` is empty, ``index`` its flat position (the first maximum); -inf and -1 for a window of
    padding."""
    sizes = (g[15], g[16], g[17])
    where = np.empty(g[0] * g[1] * g[2], np.int64)
    which = np.empty_like(where)
    positions = index.shape[0] > 0
    first = np.empty(x.shape[2] if positions else 0, np.int32)
    for a in range(g[12]):
        for b in range(g[13]):
            for c in range(g[14]):
                top = best[a, b, c]
                count = _taps(a, b, c, sizes, g, where, which)
                if count == 0:
                    top[:] = -np.inf
                    if positions:
                        index[a, b, c] = -1
                    continue
                _first_max(x, n, where, count, top, first)
                if positions:
                    at = index[a, b, c]
                    for q in range(x.shape[2]):
                        at[q] = where[first[q]]


def _max_pool(x, out, g):
    for n in prange(x.shape[0]):
        _window_max(x, n, out[n], np.empty((0, 0, 0, 0), np.int64), g)


def _tile_offsets(g):
    """Where the taps of a window that tiles the input lie, from its first tap, in row-major window order."""
    kd, kh, kw, size_h, size_w = g[0], g[1], g[2], g[16], g[17]
    offsets = np.empty(kd * kh * kw, np.int64)
    for i in range(kd):
        for j in range(kh):
            for k in range(kw):
                offsets[(i * kh + j) * kw + k] = (i * size_h + j) * size_w + k
    return offsets


def _tile_taps(a, b, c, g, offsets, where):
    """``where`` = the flat input positions of tiling window ``(a, b, c)``: no padding, nothing to check."""
    first = ((a * g[0]) * g[16] + b * g[1]) * g[17] + c * g[2]
    for t in range(offsets.shape[0]):
        where[t] = first + offsets[t]


def _max_pool_tiled(x, out, g):
    """MaxPool where the windows tile the input (strides equal to the window, no padding)."""
    offsets = _tile_offsets(g)
    for n in prange(x.shape[0]):
        where = np.empty_like(offsets)
        untracked = np.empty(0, np.int32)
        for a in range(out.shape[1]):
            for b in range(out.shape[2]):
                for c in range(out.shape[3]):
                    _tile_taps(a, b, c, g, offsets, where)
                    _first_max(x, n, where, offsets.shape[0], out[n, a, b, c], untracked)


def _max_grad_tiled(x, grad, dx, g):
    """MaxPoolGrad where the windows tile the input: each element of ``dx`` (not zeroed) is written once,
    with its window's ``grad`` at the window's first maximum and 0 elsewhere."""
    offsets = _tile_offsets(g)
    for n in prange(x.shape[0]):
        where = np.empty_like(offsets)
        top = np.empty(x.shape[2], x.dtype)
        first = np.empty(x.shape[2], np.int32)
        for a in range(grad.shape[1]):
            for b in range(grad.shape[2]):
                for c in range(grad.shape[3]):
                    _tile_taps(a, b, c, g, offsets, where)
                    _first_max(x, n, where, offsets.shape[0], top, first)
                    share = grad[n, a, b, c]
                    for t in range(offsets.shape[0]):
                        out = dx[n, where[t]]
                        for q in range(dx.shape[2]):
                            out[q] = share[q] if first[q] == t else 0


def _at_maxima(x, pooled, spread, g, gather):
    """Move values between each window's first maximum in ``x`` and the window: ``spread`` (shaped as
    ``x``, zeros) += ``pooled`` there (MaxPoolGrad); with ``gather``, ``pooled`` = ``spread`` read
    there (MaxPoolGradGrad)."""
    for n in prange(x.shape[0]):
        best = np.empty(pooled.shape[1:], x.dtype)
        index = np.empty(pooled.shape[1:], np.int64)
        _window_max(x, n, best, index, g)
        flat = spread[n]
        for a in range(pooled.shape[1]):
            for b in range(pooled.shape[2]):
                for c in range(pooled.shape[3]):
                    for q in range(pooled.shape[4]):
                        at = index[a, b, c, q]
                        if gather:
                            pooled[n, a, b, c, q] = flat[at, q] if at >= 0 else 0
                        elif at >= 0:
                            flat[at, q] += pooled[n, a, b, c, q]


def _windows_add(dx, n, share, ties_of, x, g):
    """Add ``share`` (one value per window and channel) into image ``n`` of ``dx`` (``[N, D * H * W, C]``)
    over each window's input elements; with ``ties_of`` (the window maxima) only where ``x`` equals it."""
    sizes = (g[15], g[16], g[17])
    where = np.empty(g[0] * g[1] * g[2], np.int64)
    which = np.empty_like(where)
    only_ties = ties_of.shape[0] > 0
    for a in range(g[12]):
        for b in range(g[13]):
            for c in range(g[14]):
                part = share[a, b, c]
                for t in range(_taps(a, b, c, sizes, g, where, which)):
                    target = dx[n, where[t]]
                    if only_ties:
                        top, row = ties_of[a, b, c], x[n, where[t]]
                        for q in range(dx.shape[2]):
                            if row[q] == top[q]:
                                target[q] += part[q]
                    else:
                        for q in range(dx.shape[2]):
                            target[q] += part[q]


def _max_pool3d_grad(x, grad, dx, g):
    """``dx`` (zeros) += each window's ``grad`` at every element equal to its maximum."""
    for n in prange(x.shape[0]):
        best = np.empty(grad.shape[1:], x.dtype)
        index = np.empty(grad.shape[1:], np.int64)
        _window_max(x, n, best, index, g)
        _windows_add(dx, n, grad[n], best, x, g)


def _counts(g):
    """How many input elements each window holds: ``[OD, OH, OW]``."""
    sizes = (g[15], g[16], g[17])
    where = np.empty(g[0] * g[1] * g[2], np.int64)
    which = np.empty_like(where)
    out = np.empty((g[12], g[13], g[14]), np.int64)
    for a in range(g[12]):
        for b in range(g[13]):
            for c in range(g[14]):
                out[a, b, c] = max(_taps(a, b, c, sizes, g, where, which), 1)
    return out


def _avg_pool(x, out, g):
    counts = _counts(g)
    for n in prange(x.shape[0]):
        where = np.empty(g[0] * g[1] * g[2], np.int64)
        which = np.empty_like(where)
        sizes = (g[15], g[16], g[17])
        for a in range(g[12]):
            for b in range(g[13]):
                for c in range(g[14]):
                    total = out[n, a, b, c]
                    total[:] = 0
                    for t in range(_taps(a, b, c, sizes, g, where, which)):
                        row = x[n, where[t]]
                        for q in range(x.shape[2]):
                            total[q] += row[q]
                    for q in range(x.shape[2]):
                        total[q] /= counts[a, b, c]


def _avg_pool_grad(grad, dx, g):
    counts = _counts(g)
    none = np.empty((0, 0, 0, 0), grad.dtype)
    for n in prange(grad.shape[0]):
        share = np.empty(grad.shape[1:], grad.dtype)
        for a in range(grad.shape[1]):
            for b in range(grad.shape[2]):
                for c in range(grad.shape[3]):
                    for q in range(grad.shape[4]):
                        share[a, b, c, q] = grad[n, a, b, c, q] / counts[a, b, c]
        _windows_add(dx, n, share, none, dx, g)


_helpers_lock = threading.Lock()


class WindowTwin(twins.LazyTwin):
    """A window kernel's twins, compiled after the helpers it calls (``_taps`` and this module's, which
    Numba finds among the kernel's module's globals when it compiles the kernel)."""

    HELPERS = ("_taps", "_first_max", "_window_max", "_tile_offsets", "_tile_taps", "_windows_add", "_counts")

    def __iter__(self):
        scope = self._fn.__globals__
        with _helpers_lock:
            if not hasattr(scope["_taps"], "py_func"):
                import numba

                for name in self.HELPERS:
                    if name in scope and not hasattr(scope[name], "py_func"):
                        scope[name] = numba.njit(nogil=True, cache=True, error_model="numpy")(scope[name])
        return super().__iter__()


_KERNELS = {fn.__name__: WindowTwin(fn) for fn in (_max_pool, _max_pool_tiled, _at_maxima, _max_grad_tiled,
                                                   _max_pool3d_grad, _avg_pool, _avg_pool_grad)}


def _launch(name, work, *args):
    twins.launch(_KERNELS[name], work, *args)


def _image(x, fmt, writable=False):
    """An input-shaped tensor as a C-contiguous ``[N, D * H * W, C]`` array; ``writable`` for those
    ``_at_maxima`` takes, which Numba types as written in one of its modes (a constant's array is
    read-only: copied)."""
    x5 = wn.channels_last(x, fmt)
    return np.require(x5.reshape(x5.shape[0], -1, x5.shape[4]), requirements="CW" if writable else "C")


def _pooled(y, fmt, writable=False):
    """An output-shaped tensor as a C-contiguous ``[N, OD, OH, OW, C]`` array."""
    return np.require(wn.channels_last(y, fmt), requirements="CW" if writable else "C")


def _fits(*arrays):
    return arrays[0].dtype in _FLOATS and all(a.dtype == arrays[0].dtype for a in arrays) and arrays[0].size > 0


def _as_input(dx, win, fmt, rank):
    return wn.restore_layout(dx.reshape(dx.shape[0], *win.sizes, dx.shape[2]), fmt, rank)


@register("MaxPool")
@register("MaxPool3D")
@register("AvgPool")
@register("AvgPool3D")
def pool(ctx, x):
    win = rp.pool_window(ctx.attrs, x.shape)
    is_max = ctx.op_type.startswith("Max")
    if not _fits(x):
        return (rp.max_pool if is_max else rp.avg_pool)(ctx, x)
    fmt = ctx.attrs["data_format"]
    flat = _image(x, fmt)
    out = np.empty((flat.shape[0], *win.out, flat.shape[2]), x.dtype)
    kernel = ("_max_pool_tiled" if win.tiles else "_max_pool") if is_max else "_avg_pool"
    _launch(kernel, flat.size, flat, out, geometry(win))
    return wn.restore_layout(out, fmt, x.ndim)


def _pool_grad_setup(ctx, orig_input, grad, pooled_grad):
    """``(format, window, input as [N, D*H*W, C], grad)``; the grad is pool-shaped unless it is a GradGrad's."""
    fmt = ctx.attrs["data_format"]
    win = rp.pool_window(ctx.attrs, orig_input.shape)
    flat = _image(orig_input, fmt)
    g = _pooled(grad, fmt, writable=True) if pooled_grad else _image(grad, fmt, writable=True)
    want = (flat.shape[0], *win.out, flat.shape[2]) if pooled_grad else flat.shape
    if g.shape != want:
        raise ValueError(f"{ctx.op_type}: grad must have the shape {list(want)}, got {list(g.shape)}")
    return fmt, win, flat, g


@register("MaxPoolGrad")
@register("MaxPool3DGrad")
def max_pool_grad(ctx, orig_input, orig_output, grad):
    if not _fits(orig_input, grad):
        return (rp.max_pool_grad if ctx.op_type == "MaxPoolGrad" else rp.max_pool3d_grad)(
            ctx, orig_input, orig_output, grad)
    fmt, win, flat, g = _pool_grad_setup(ctx, orig_input, grad, True)
    if ctx.op_type == "MaxPoolGrad" and win.tiles:
        dx = np.empty_like(flat)
        _launch("_max_grad_tiled", flat.size, flat, g, dx, geometry(win))
        return _as_input(dx, win, fmt, orig_input.ndim)
    dx = np.zeros_like(flat)
    if ctx.op_type == "MaxPoolGrad":
        _launch("_at_maxima", flat.size, flat, g, dx, geometry(win), False)
    else:
        _launch("_max_pool3d_grad", flat.size, flat, g, dx, geometry(win))
    return _as_input(dx, win, fmt, orig_input.ndim)


@register("MaxPoolGradGrad")
@register("MaxPool3DGradGrad")
def max_pool_grad_grad(ctx, orig_input, orig_output, grad):
    if not _fits(orig_input, grad) or grad.shape != orig_input.shape:
        return rp.max_pool_grad_grad(ctx, orig_input, orig_output, grad)
    fmt, win, flat, g = _pool_grad_setup(ctx, orig_input, grad, False)
    out = np.empty((flat.shape[0], *win.out, flat.shape[2]), grad.dtype)
    _launch("_at_maxima", flat.size, flat, out, g, geometry(win), True)
    return wn.restore_layout(out, fmt, orig_input.ndim)


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
    g = _pooled(grad, fmt)
    n, c = shape[0], wn.channels(shape, fmt)
    if g.shape != (n, *win.out, c):
        raise ValueError(f"grad must have the shape of the pool's output: {list(g.shape)} vs {[n, *win.out, c]}")
    dx = np.zeros((n, int(np.prod(win.sizes)), c), grad.dtype)
    _launch("_avg_pool_grad", dx.size, g, dx, geometry(win))
    return _as_input(dx, win, fmt, len(shape))
