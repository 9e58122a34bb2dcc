"""CPU kernels of Dilation2D and its backprops: Numba loops, one image per parallel iteration, channels
innermost (contiguous, so the compares run as vectors). Each output and input-gradient element is
computed by one thread in the reference's order; the filter gradient sums over the images, so it runs
serially, in the reference's order (batch, output row, output column), whatever the thread count.

The spec is ``reference_morphology.py``: the first strict maximum over the taps inside the input wins
and takes the gradient. float32 and float64; other dtypes go to the numpy kernels.
"""

import numpy as np

from numflow_kernels import reference_morphology as rm
from numflow_kernels.cpu import twins
from numflow_kernels.registry import register

prange = range  # Numba's once a twin is compiled (see twins.LazyTwin)

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
FORWARD, INPUT, FILTER = 0, 1, 2


def _dilation(x, f, grad, out, df, g, mode):
    """One of three results, by ``mode``: FORWARD fills ``out`` (``[N, OH, OW, C]``) with the dilation of
    ``x`` by ``f``; INPUT adds each ``grad`` element into ``out`` (``x``-shaped) at its window's winning
    tap; FILTER adds it into ``df`` (``f``-shaped) at the winning tap's filter element (run it serially:
    the images share ``df``). ``g``: strides, rates, pads before (two each) and the output size."""
    sh, sw, rh, rw, top, left, oh, ow = g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7]
    fh, fw, depth = f.shape[0], f.shape[1], x.shape[3]
    lowest = x.dtype.type(np.finfo(x.dtype).min)
    for n in prange(x.shape[0]):
        best = np.empty(depth, x.dtype)
        tap = np.empty(depth, np.int64)
        for y in range(oh):
            for z in range(ow):
                best[:] = lowest
                tap[:] = -1
                for i in range(fh):
                    h = y * sh + i * rh - top
                    if h < 0 or h >= x.shape[1]:
                        continue
                    for j in range(fw):
                        w = z * sw + j * rw - left
                        if w < 0 or w >= x.shape[2]:
                            continue
                        for c in range(depth):
                            v = x[n, h, w, c] + f[i, j, c]
                            wins = v > best[c]
                            best[c] = v if wins else best[c]
                            tap[c] = i * fw + j if wins else tap[c]
                if mode == FORWARD:
                    out[n, y, z] = best
                    continue
                for c in range(depth):
                    if tap[c] < 0:
                        continue
                    i, j = tap[c] // fw, tap[c] % fw
                    if mode == INPUT:
                        out[n, y * sh + i * rh - top, z * sw + j * rw - left, c] += grad[n, y, z, c]
                    else:
                        df[i, j, c] += grad[n, y, z, c]


_KERNEL = twins.LazyTwin(_dilation)


@register("Dilation2D")
@register("Dilation2DBackpropInput")
@register("Dilation2DBackpropFilter")
def dilation2d(ctx, x, f, grad=None):
    arrays = (x, f) if grad is None else (x, f, grad)
    if x.dtype not in _FLOATS or any(a.dtype != x.dtype for a in arrays) or x.size == 0 or f.size == 0:
        fallback = {"Dilation2D": rm.dilation2d, "Dilation2DBackpropInput": rm.dilation2d_backprop_input,
                    "Dilation2DBackpropFilter": rm.dilation2d_backprop_filter}[ctx.op_type]
        return fallback(ctx, *arrays)
    win = rm.morphology_window(ctx.attrs, x.shape, f.shape)
    geometry = np.array([v for pair in win for v in pair], np.int64)
    x, f = np.ascontiguousarray(x), np.ascontiguousarray(f)
    if grad is None:
        out = np.empty((x.shape[0], *win.out, x.shape[3]), x.dtype)
        mode, grad = FORWARD, np.empty((0, 0, 0, 0), x.dtype)
    else:
        want = (x.shape[0], *win.out, x.shape[3])
        if grad.shape != want:
            raise ValueError(f"{ctx.op_type}: out_backprop must have the shape {list(want)}, "
                             f"got {list(grad.shape)}")
        mode = INPUT if ctx.op_type == "Dilation2DBackpropInput" else FILTER
        out = np.zeros_like(x) if mode == INPUT else np.empty((0, 0, 0, 0), x.dtype)
        grad = np.ascontiguousarray(grad)
    df = np.zeros_like(f) if mode == FILTER else np.empty((0, 0, 0), x.dtype)
    if mode == FILTER:
        serial, _ = _KERNEL
        serial(x, f, grad, out, df, geometry, mode)
    else:
        twins.launch(_KERNEL, x.size * f.shape[0] * f.shape[1], x, f, grad, out, df, geometry, mode)
    return df if mode == FILTER else out
