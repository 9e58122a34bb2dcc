"""CPU kernels of Conv2D, Conv3D and their backprops: im2col in Numba, then one BLAS product per block
of images, the blocks spread over the cores.

The forward convolution of a block is ``patches @ filter``, where ``patches`` (built by
``_patches``, zeros where a window leaves the input) holds one row per output position; the filter
gradient is ``patches.T @ dy`` summed over the blocks in block order; the input gradient is
``dy @ filter.T`` added back into each window's place (``_patches`` backwards). Blocks are whole images, as
many as keep a block's patches under ``tuning.CONV_BLOCK_BYTES``: a size fixed by the shapes, so the sums and
the bits never depend on how many threads ran the blocks (``cpu_threads.run_blocks``, BLAS on one
thread each). A block's patches stay in cache, which a whole batch's (31 MB for the second layer of
an MNIST CNN at batch 50) would not: one thread runs that layer's three products in 11 ms each with
4 MB blocks, in 15 ms with the whole batch.

float32 and float64 with one filter group; other inputs (grouped filters, float16, int32) go to the
numpy kernels of ``reference_conv.py``, which are the spec these are tested against. Numba is
imported when a kernel first runs.
"""

import numpy as np

from numflow_kernels import cpu_threads, tuning
from numflow_kernels import reference_conv as rc
from numflow_kernels import window as wn
from numflow_kernels.cpu.lazy_loops import LazyLoops
from numflow_kernels.registry import register

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def geometry(win):
    """A window's geometry as the int64 array the Numba loops take: kernel, strides, dilations, pads
    before, output sizes, input sizes (three each)."""
    return np.array([*win.kernel, *win.strides, *win.dilations, *(p[0] for p in win.pads), *win.out, *win.sizes],
                    np.int64)


def _patches(src, dst, sizes, first, images, g, back):
    """im2col: ``dst`` (the patch matrix, flat) = the patches of images ``first .. first + images`` of
    ``src`` (``[N, D, H, W, C]`` of ``sizes``, flat): one row per output position, ``(kd, kh, kw,
    channel)`` along it, zeros outside the input. With ``back`` (col2im), ``src`` is the patch matrix
    and each of its rows is added into ``dst`` (the image) at the window's place. Reads ``src`` only,
    so either may be a read-only array.

    Unsigned offsets: signed ones make Numba check for negative indices at every element, five times
    slower. A window row inside the input with dilation 1 is one contiguous run of ``kw * C`` values."""
    size_d, size_h, size_w, channels = sizes
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g[:15]
    run, width = np.uint64(kw * channels), np.uint64(channels)
    at = np.uint64(0)  # the patch matrix's offset
    for n in range(first, first + images):
        for a in range(od):
            for b in range(oh):
                for c in range(ow):
                    w0 = c * sw - pw
                    whole = dw == 1 and w0 >= 0 and w0 + kw <= size_w
                    for i in range(kd):
                        d = a * sd + i * dd - pd
                        for j in range(kh):
                            h = b * sh + j * dh - ph
                            line = ((n * size_d + d) * size_h + h) * size_w
                            if not (0 <= d < size_d and 0 <= h < size_h):
                                if not back:
                                    for q in range(run):
                                        dst[at + q] = 0
                            elif whole:
                                pixel = np.uint64((line + w0) * channels)
                                if back:
                                    for q in range(run):
                                        dst[pixel + q] += src[at + q]
                                else:
                                    for q in range(run):
                                        dst[at + q] = src[pixel + q]
                            else:
                                for k in range(kw):
                                    w = w0 + k * dw
                                    to = at + np.uint64(k * channels)
                                    inside = 0 <= w < size_w
                                    pixel = np.uint64((line + w) * channels) if inside else np.uint64(0)
                                    for q in range(width):
                                        if back:
                                            if inside:
                                                dst[pixel + q] += src[to + q]
                                        else:
                                            dst[to + q] = src[pixel + q] if inside else 0
                            at += run


def _im2col_single_channel(x, cols_t, first, g):
    """``_patches`` transposed, for one input channel: ``cols_t`` is ``[kd * kh * kw, rows]``. With one
    channel a window row is only ``kw`` values, too short to copy fast, while a line of outputs
    reads one input line: contiguous with stride 1."""
    size_d, size_h, size_w = x.shape[1], x.shape[2], x.shape[3]
    kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw, od, oh, ow = g[:15]
    src = x.reshape(-1)
    dst = cols_t.reshape(-1)
    rows = cols_t.shape[1]
    width = np.uint64(ow)
    images = rows // (od * oh * ow)
    for n in range(first, first + images):
        for a in range(od):
            for b in range(oh):
                first_row = (((n - first) * od + a) * oh + b) * ow
                for i in range(kd):
                    d = a * sd + i * dd - pd
                    for j in range(kh):
                        h = b * sh + j * dh - ph
                        line = ((n * size_d + d) * size_h + h) * size_w
                        inside = 0 <= d < size_d and 0 <= h < size_h
                        for k in range(kw):
                            at = np.uint64(((i * kh + j) * kw + k) * rows + first_row)
                            w0 = k * dw - pw
                            if not inside:
                                for q in range(width):
                                    dst[at + q] = 0
                            elif sw == 1 and w0 >= 0 and w0 + ow <= size_w:
                                start = np.uint64(line + w0)
                                for q in range(width):
                                    dst[at + q] = src[start + q]
                            else:
                                for c in range(ow):
                                    w = w0 + c * sw
                                    dst[at + np.uint64(c)] = src[line + w] if 0 <= w < size_w else 0


_numba = LazyLoops(globals(), error_model="numpy")  # _numba(fn): fn's loop


def image_blocks(images, image_bytes):
    """``[(first, stop)]``: the images in blocks of at most about ``tuning.CONV_BLOCK_BYTES`` of patches (one image at
    least), and in ``tuning.CONV_MIN_BLOCKS`` blocks at least while there are images for them."""
    step = max(1, min(tuning.CONV_BLOCK_BYTES // max(image_bytes, 1), -(-images // tuning.CONV_MIN_BLOCKS)))
    return [(lo, min(lo + step, images)) for lo in range(0, images, step)]


class _Plan:
    """A convolution's operands in the kernels' layout, and its blocks."""

    def __init__(self, conv, dtype):
        win = conv.window
        self.conv = conv
        self.win = win
        self.geometry = geometry(win)
        self.positions = int(np.prod(win.out))  # patch rows per image
        self.depth = int(np.prod(win.kernel)) * conv.channels  # patch row length
        self.blocks = image_blocks(conv.batch, self.positions * self.depth * dtype.itemsize)
        # A 1x1 window of stride 1 reads the input as it is: its patches are the input's rows.
        self.pointwise = win.kernel == (1, 1, 1) and win.strides == (1, 1, 1) and not win.is_padded

    def patches(self, x5, lo, hi):
        """The patch matrix of images ``lo:hi``: ``[rows, depth]``, maybe a transposed view."""
        if self.pointwise:
            return x5[lo:hi].reshape(-1, self.depth)
        rows = (hi - lo) * self.positions
        if self.conv.channels == 1:
            cols_t = np.empty((self.depth, rows), x5.dtype)
            _numba(_im2col_single_channel)(x5, cols_t, lo, self.geometry)
            return cols_t.T
        cols = np.empty((rows, self.depth), x5.dtype)
        _numba(_patches)(x5.reshape(-1), cols.reshape(-1), x5.shape[1:], lo, hi - lo, self.geometry, False)
        return cols

    def rows(self, lo, hi):
        return slice(lo * self.positions, hi * self.positions)


def _fast(conv, *arrays):
    dtype = arrays[0].dtype
    return conv.groups == 1 and dtype in _FLOATS and all(a.dtype == dtype for a in arrays) and conv.batch > 0


def _channels_last(x, conv):
    return np.ascontiguousarray(wn.channels_last(x, conv.data_format))


@register("Conv2D", calls_blas=True)
@register("Conv3D", calls_blas=True)
def conv(ctx, x, w):
    conv = rc.Conv(ctx.attrs, x.shape, w.shape, ctx.op_type)
    if not _fast(conv, x, w):
        return rc.conv(ctx, x, w)
    plan = _Plan(conv, x.dtype)
    x5 = _channels_last(x, conv)
    w2 = np.ascontiguousarray(w).reshape(plan.depth, -1)
    out = np.empty((conv.batch, *plan.win.out, w2.shape[1]), x.dtype)
    out2 = out.reshape(-1, w2.shape[1])

    def block(i):
        lo, hi = plan.blocks[i]
        np.matmul(plan.patches(x5, lo, hi), w2, out=out2[plan.rows(lo, hi)])

    cpu_threads.run_blocks(block, len(plan.blocks))
    return wn.restore_layout(out, conv.data_format, conv.rank)


@register("Conv2DBackpropFilter", calls_blas=True)
@register("Conv3DBackpropFilterV2", calls_blas=True)
def conv_filter_grad(ctx, x, filter_sizes, dy):
    conv = rc.Conv(ctx.attrs, x.shape, rc.shape_of(filter_sizes), ctx.op_type)
    conv.check_backprop(dy.shape, ctx.op_type)
    if not _fast(conv, x, dy):
        return rc.conv_backprop_filter(x, dy, conv)
    plan = _Plan(conv, x.dtype)
    x5 = _channels_last(x, conv)
    dy2 = _channels_last(dy, conv).reshape(-1, conv.out_channels)
    parts = [None] * len(plan.blocks)

    def block(i):
        lo, hi = plan.blocks[i]
        parts[i] = plan.patches(x5, lo, hi).T @ dy2[plan.rows(lo, hi)]

    cpu_threads.run_blocks(block, len(plan.blocks))
    total = parts[0]
    for part in parts[1:]:  # in block order, whichever thread finished first
        total += part
    return total.reshape(conv.filter_shape)


@register("Conv2DBackpropInput", calls_blas=True)
@register("Conv3DBackpropInputV2", calls_blas=True)
def conv_input_grad(ctx, sizes, w, dy):
    fmt = ctx.attrs["data_format"]
    conv = rc.Conv(ctx.attrs, rc.input_sizes(sizes, w.shape, dy.shape, fmt), w.shape, ctx.op_type)
    conv.check_backprop(dy.shape, ctx.op_type)
    if not _fast(conv, w, dy):
        return rc.conv_backprop_input(w, dy, conv, w.dtype)
    plan = _Plan(conv, w.dtype)
    w2t = np.ascontiguousarray(w).reshape(plan.depth, -1).T
    dy2 = _channels_last(dy, conv).reshape(-1, conv.out_channels)
    dx = np.zeros((conv.batch, *plan.win.sizes, conv.channels), w.dtype)

    def block(i):
        lo, hi = plan.blocks[i]
        cols = dy2[plan.rows(lo, hi)] @ w2t
        if plan.pointwise:
            dx[lo:hi] = cols.reshape(dx[lo:hi].shape)
        else:
            _numba(_patches)(cols.reshape(-1), dx.reshape(-1), dx.shape[1:], lo, hi - lo, plan.geometry, True)

    cpu_threads.run_blocks(block, len(plan.blocks))
    return wn.restore_layout(dx, fmt, conv.rank)
