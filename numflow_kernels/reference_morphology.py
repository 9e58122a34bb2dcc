"""NumPy kernels of grayscale morphology: Dilation2D and its two backprops, Dilation2DBackpropInput and
Dilation2DBackpropFilter.

The spec, as TensorFlow's CPU kernel computes it: ``out[b, y, x, c]`` is the maximum over the filter
taps ``(i, j)`` inside the input of ``input[b, y * sh + i * rh - pad_top, x * sw + j * rw - pad_left,
c] + filter[i, j, c]``; padding is never read, and a window with no input tap is the dtype's lowest
value. The first strict maximum in row-major tap order wins (a NaN never does), and each backprop
sends ``out_backprop`` to that tap alone: to its input element, or to its filter element, summed over
the batch and the output positions in row-major order.
"""

from typing import NamedTuple

import numpy as np

from numflow_kernels.registry import REFERENCE, register


class Geometry(NamedTuple):
    """A Dilation2D's sliding window over the height and width: two values each."""

    strides: tuple
    rates: tuple
    pads: tuple  # padding before (top, left)
    out: tuple


def output_size(size, k, stride, rate, padding):
    """``(out, pad before)`` of one dimension by TensorFlow's ``GetWindowedOutputSize`` (a C++ division);
    ValueError when the output would be negative."""
    effective = (k - 1) * rate + 1
    if padding == "SAME":
        out = (size + stride - 1) // stride
        return out, max((out - 1) * stride + effective - size, 0) // 2
    out = int((size - effective + stride) / stride)
    if out < 0:
        raise ValueError(f"Computed output size would be negative: {out} [input_size: {size}, "
                         f"effective_filter_size: {effective}, stride: {stride}]")
    return out, 0


def morphology_window(attrs, x_shape, f_shape):
    """The :class:`Geometry` of a Dilation2D op of ``attrs`` over an ``[N, H, W, C]`` input of ``x_shape``
    and an ``[FH, FW, C]`` filter of ``f_shape``: ValueError when they disagree, NotImplementedError
    (TensorFlow's Unimplemented) for a stride or rate across the batch or depth."""
    if len(x_shape) != 4 or len(f_shape) != 3:
        raise ValueError(f"input must be 4-dimensional and filter 3-dimensional, got {list(x_shape)} and "
                         f"{list(f_shape)}")
    if x_shape[3] != f_shape[2]:
        raise ValueError(f"input and filter must have the same depth: {x_shape[3]} vs {f_shape[2]}")
    strides, rates = list(attrs["strides"]), list(attrs["rates"])
    for values, word in ((strides, "Stride"), (rates, "Rate")):
        if values[0] != 1 or values[3] != 1:
            raise NotImplementedError(f"{word} is only supported across spatial dimensions.")
    sizes = [output_size(x_shape[d], f_shape[d - 1], strides[d], rates[d], attrs["padding"]) for d in (1, 2)]
    return Geometry(tuple(strides[1:3]), tuple(rates[1:3]), tuple(p for _, p in sizes), tuple(o for o, _ in sizes))


def lowest(dtype):
    """The value of a window with no input tap: TensorFlow's ``NumTraits<T>::lowest()``."""
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def dilation_argmax(x, f, win):
    """``(out, rows, cols)``: each output of Dilation2D over ``x`` (``[N, H, W, C]``) with filter ``f``, and
    the input row and column of its winning tap (-1 where no tap is inside the input), ``[N, OH, OW, C]`` each."""
    (sh, sw), (rh, rw), (top, left), (oh, ow) = win
    shape = (x.shape[0], oh, ow, x.shape[3])
    out = np.full(shape, lowest(x.dtype), x.dtype)
    rows, cols = np.full(shape, -1, np.int64), np.full(shape, -1, np.int64)
    ys, xs = np.arange(oh) * sh - top, np.arange(ow) * sw - left
    for i in range(f.shape[0]):
        h = ys + i * rh
        for j in range(f.shape[1]):
            w = xs + j * rw
            inside = ((h >= 0) & (h < x.shape[1]))[:, None] & ((w >= 0) & (w < x.shape[2]))[None, :]
            tap = x[:, np.clip(h, 0, x.shape[1] - 1)][:, :, np.clip(w, 0, x.shape[2] - 1)] + f[i, j]
            better = inside[None, :, :, None] & (tap > out)
            out = np.where(better, tap, out)
            rows = np.where(better, np.broadcast_to(h[:, None, None], shape[1:]), rows)
            cols = np.where(better, np.broadcast_to(w[None, :, None], shape[1:]), cols)
    return out, rows, cols


def _checked(ctx, x, f, grad):
    win = morphology_window(ctx.attrs, x.shape, f.shape)
    want = (x.shape[0], *win.out, x.shape[3])
    if grad.shape != want:
        raise ValueError(f"{ctx.op_type}: out_backprop must have the shape {list(want)}, got {list(grad.shape)}")
    return win


@register("Dilation2D", REFERENCE)
def dilation2d(ctx, x, f):
    return dilation_argmax(x, f, morphology_window(ctx.attrs, x.shape, f.shape))[0]


@register("Dilation2DBackpropInput", REFERENCE)
def dilation2d_backprop_input(ctx, x, f, grad):
    _, rows, cols = dilation_argmax(x, f, _checked(ctx, x, f, grad))
    dx = np.zeros_like(x, dtype=grad.dtype)
    n, _, _, c = np.indices(rows.shape)
    hit = rows >= 0
    np.add.at(dx, (n[hit], rows[hit], cols[hit], c[hit]), grad[hit])
    return dx


@register("Dilation2DBackpropFilter", REFERENCE)
def dilation2d_backprop_filter(ctx, x, f, grad):
    win = _checked(ctx, x, f, grad)
    _, rows, cols = dilation_argmax(x, f, win)
    (sh, sw), (rh, rw), (top, left), _ = win
    _, y, w, c = np.indices(rows.shape)
    hit = rows >= 0
    taps_i = (rows - y * sh + top) // rh
    taps_j = (cols - w * sw + left) // rw
    df = np.zeros_like(f, dtype=grad.dtype)
    np.add.at(df, (taps_i[hit], taps_j[hit], c[hit]), grad[hit])
    return df
