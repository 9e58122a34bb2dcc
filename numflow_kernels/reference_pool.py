"""NumPy kernels of the pooling ops and their gradients: MaxPool, AvgPool, MaxPool3D, AvgPool3D,
MaxPoolWithArgmax, MaxPoolGrad, AvgPoolGrad, MaxPoolGradGrad, the 3-D grads, MaxPoolGradWithArgmax
and MaxPoolGradGradWithArgmax.

The spec, as TensorFlow computes it: a max pool's window reads only input elements (padding never
wins); its gradient goes to the first maximum of each window in row-major window order, recomputed
from ``orig_input`` (``MaxPoolGrad(orig_input, orig_output, grad)``), and overlapping windows add up;
``MaxPool3DGrad`` gives it to every element equal to the maximum, as TensorFlow's CPU kernel does.
An average pool divides by the number of input elements in the window; ``AvgPoolGrad(orig_input_shape,
grad)`` spreads ``grad / count`` back over them. ``MaxPoolWithArgmax``'s index of a maximum at
``(y, x, c)`` is ``(y * width + x) * channels + c``, plus ``batch * height * width * channels`` with
``include_batch_in_index``. Everything computes on ``[N, D, H, W, C]`` (``window.py``).
"""

import numpy as np

from numflow_kernels import reference_conv as rc
from numflow_kernels import window as wn
from numflow_kernels.registry import REFERENCE, register


def kernel(op_type):
    return register(op_type, REFERENCE)


def pool_window(attrs, x_shape):
    """The :class:`~numflow_kernels.window.Window` of a pooling op over an input of ``x_shape``."""
    fmt = attrs.get("data_format", "NHWC")
    ksize, strides = list(attrs["ksize"]), list(attrs["strides"])
    if min(ksize) < 1 or min(strides) < 1:
        what, values = ("ksize", ksize) if min(ksize) < 1 else ("stride", strides)
        raise ValueError(f"Sliding window {what} must be positive. The specified or inferred {what} is: "
                         f"{','.join(str(v) for v in values)}")
    for values in (ksize, strides):
        batch, depth = (values[0], values[1]) if fmt in wn.CHANNELS_FIRST else (values[0], values[-1])
        if batch != 1:
            raise NotImplementedError("Pooling is not yet supported on the batch dimension.")
        if depth != 1:
            raise NotImplementedError("Pooling across the depth dimension is not supported by numflow.")
    return wn.window(fmt, wn.spatial_sizes(x_shape, fmt), wn.spatial(ksize, fmt), strides, None,
                     attrs["padding"], attrs.get("explicit_paddings") or ())


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _pool_views(x, win, fmt):
    """The windows of ``x`` padded with its dtype's lowest value, and which of their elements are input."""
    xl = wn.channels_last(x, fmt)
    xp = np.pad(xl, ((0, 0), *win.pads, (0, 0)), constant_values=_lowest(x.dtype)) if win.is_padded else xl
    inside = np.pad(np.ones((1, *win.sizes, 1), bool), ((0, 0), *win.pads, (0, 0)))
    return rc.windows(np.ascontiguousarray(xp), win), rc.windows(inside, win)


def max_positions(x, win, fmt):
    """``(out, index)``: each window's maximum and where it is in the input, ``[N, OD, OH, OW, C]`` each, the
    index as a flat position in ``[D, H, W]``. The first maximum in row-major window order wins."""
    view, inside = _pool_views(x, win, fmt)
    k = int(np.prod(win.kernel))
    flat = view.reshape(*view.shape[:4], k, view.shape[-1])
    out = flat.max(axis=4)
    with np.errstate(invalid="ignore"):
        hit = (flat == out[:, :, :, :, None]) | (flat != flat)
    hit &= inside.reshape(1, *win.out, k, 1)
    offset = np.argmax(hit, axis=4)
    kd, kh, kw = np.unravel_index(offset, win.kernel)
    (sd, sh, sw), (dd, dh, dw) = win.strides, win.dilations
    od, oh, ow = np.meshgrid(*(np.arange(o) for o in win.out), indexing="ij")
    d = od[..., None] * sd + kd * dd - win.pads[0][0]
    h = oh[..., None] * sh + kh * dh - win.pads[1][0]
    w = ow[..., None] * sw + kw * dw - win.pads[2][0]
    return out, (d * win.sizes[1] + h) * win.sizes[2] + w


@kernel("MaxPool")
@kernel("MaxPool3D")
def max_pool(ctx, x):
    fmt = ctx.attrs["data_format"]
    win = pool_window(ctx.attrs, x.shape)
    view, _ = _pool_views(x, win, fmt)
    return wn.restore_layout(view.max(axis=(4, 5, 6)), fmt, x.ndim)


def _scatter(grad, index, win, n, c, dtype):
    """Zeros of ``[N, D, H, W, C]`` with each ``grad`` element added at its flat spatial ``index``."""
    out = np.zeros((n, int(np.prod(win.sizes)), c), dtype=dtype)
    rows = np.broadcast_to(np.arange(n).reshape(-1, 1, 1, 1, 1), index.shape)
    cols = np.broadcast_to(np.arange(c), index.shape)
    np.add.at(out, (rows, index, cols), grad)
    return out.reshape(n, *win.sizes, c)


def _gather(values, index, win):
    """``values`` (``[N, D, H, W, C]``) read at each flat spatial ``index`` (``[N, OD, OH, OW, C]``)."""
    n, c = values.shape[0], values.shape[-1]
    flat = values.reshape(n, -1, c)
    rows = np.arange(n).reshape(-1, 1, 1, 1, 1)
    return flat[rows, index, np.arange(c)]


def _same_shape(a, b, what):
    if a.shape != b.shape:
        raise ValueError(f"{what} must have the shape of the pool's output: {list(a.shape)} vs {list(b.shape)}")


@kernel("MaxPoolGrad")
def max_pool_grad(ctx, orig_input, orig_output, grad):
    fmt = ctx.attrs["data_format"]
    win = pool_window(ctx.attrs, orig_input.shape)
    out, index = max_positions(orig_input, win, fmt)
    g = wn.channels_last(grad, fmt)
    _same_shape(g, out, "grad")
    dx = _scatter(g, index, win, out.shape[0], out.shape[-1], grad.dtype)
    return wn.restore_layout(dx, fmt, orig_input.ndim)


@kernel("MaxPool3DGrad")
def max_pool3d_grad(ctx, orig_input, orig_output, grad):
    """TensorFlow's MaxPool3DGrad gives each window's gradient to every element equal to its maximum."""
    fmt = ctx.attrs["data_format"]
    win = pool_window(ctx.attrs, orig_input.shape)
    view, inside = _pool_views(orig_input, win, fmt)
    out = view.max(axis=(4, 5, 6))
    g = wn.channels_last(grad, fmt)
    _same_shape(g, out, "grad")
    ties = (view == out[:, :, :, :, None, None, None, :]) & inside
    dxp = np.zeros((out.shape[0], *win.padded, out.shape[-1]), dtype=grad.dtype)
    rc.add_windows(dxp, ties * g[:, :, :, :, None, None, None, :], win)
    return wn.restore_layout(rc.unpadded(dxp, win), fmt, orig_input.ndim)


@kernel("MaxPoolGradGrad")
@kernel("MaxPool3DGradGrad")
def max_pool_grad_grad(ctx, orig_input, orig_output, grad):
    fmt = ctx.attrs["data_format"]
    win = pool_window(ctx.attrs, orig_input.shape)
    if grad.shape != orig_input.shape:
        raise ValueError(f"grad must have the shape of orig_input: {list(grad.shape)} vs {list(orig_input.shape)}")
    _, index = max_positions(orig_input, win, fmt)
    return wn.restore_layout(_gather(wn.channels_last(grad, fmt), index, win), fmt, orig_input.ndim)


def _counts(win):
    """How many input elements each window holds, ``[1, OD, OH, OW, 1]``."""
    _, inside = _pool_views(np.zeros((1, *win.sizes, 1), np.float32), win, "NDHWC")
    return inside.sum(axis=(4, 5, 6))


@kernel("AvgPool")
@kernel("AvgPool3D")
def avg_pool(ctx, x):
    fmt = ctx.attrs["data_format"]
    win = pool_window(ctx.attrs, x.shape)
    compute = rc.compute_dtype(x.dtype)
    xp = rc.padded(wn.channels_last(x, fmt).astype(compute, copy=False), win)
    total = rc.windows(xp, win).sum(axis=(4, 5, 6), dtype=compute)
    return wn.restore_layout(total / _counts(win).astype(compute), fmt, x.ndim).astype(x.dtype, copy=False)


@kernel("AvgPoolGrad")
@kernel("AvgPool3DGrad")
def avg_pool_grad(ctx, orig_input_shape, grad):
    fmt = ctx.attrs["data_format"]
    shape = rc.shape_of(orig_input_shape)
    if len(shape) != grad.ndim:
        raise ValueError(f"orig_input_shape must have {grad.ndim} elements, got {len(shape)}")
    win = pool_window(ctx.attrs, shape)
    compute = rc.compute_dtype(grad.dtype)
    g = wn.channels_last(grad, fmt).astype(compute, copy=False)
    n, c = shape[0], wn.channels(shape, fmt)
    if g.shape != (n, *win.out, c):
        raise ValueError(f"grad must have the shape of the pool's output: {list(g.shape)} vs {[n, *win.out, c]}")
    share = (g / _counts(win).astype(compute))[:, :, :, :, None, None, None, :]
    dxp = np.zeros((n, *win.padded, c), dtype=compute)
    rc.add_windows(dxp, np.broadcast_to(share, (n, *win.out, *win.kernel, c)), win)
    return wn.restore_layout(rc.unpadded(dxp, win), fmt, len(shape)).astype(grad.dtype, copy=False)


# -- with argmax ---------------------------------------------------------------------------------
def _argmax_attrs(attrs):
    return {**attrs, "data_format": "NHWC"}


@kernel("MaxPoolWithArgmax")
def max_pool_with_argmax(ctx, x):
    win = pool_window(_argmax_attrs(ctx.attrs), x.shape)
    out, index = max_positions(x, win, "NHWC")
    n, c = x.shape[0], x.shape[-1]
    argmax = index * c + np.arange(c)
    if ctx.attrs["include_batch_in_index"]:
        argmax = argmax + np.arange(n).reshape(-1, 1, 1, 1, 1) * (int(np.prod(win.sizes)) * c)
    dtype = ctx.attrs["Targmax"]
    return wn.restore_layout(out, "NHWC", 4), wn.restore_layout(argmax.astype(dtype), "NHWC", 4)


def _argmax_index(x_shape, argmax, include_batch):
    """``(rows, flat)``: the image and the flat index within it of each ``argmax`` entry, checked."""
    per_image = int(np.prod(x_shape[1:]))
    n = x_shape[0]
    rows = np.broadcast_to(np.arange(n).reshape(-1, *([1] * (argmax.ndim - 1))), argmax.shape)
    flat = argmax.astype(np.int64)
    if include_batch:
        flat = flat - rows * per_image
    bad = (flat < 0) | (flat >= per_image)
    if bad.any():
        raise ValueError(f"Invalid argmax: {int(argmax[bad][0])} is out of range for an input of shape "
                         f"{list(x_shape)}")
    return rows, flat


@kernel("MaxPoolGradWithArgmax")
def max_pool_grad_with_argmax(ctx, x, grad, argmax):
    if grad.shape != argmax.shape:
        raise ValueError(f"Expected grad shape to be {list(argmax.shape)}, but got {list(grad.shape)}")
    rows, flat = _argmax_index(x.shape, argmax, ctx.attrs["include_batch_in_index"])
    dx = np.zeros((x.shape[0], int(np.prod(x.shape[1:]))), dtype=grad.dtype)
    np.add.at(dx, (rows, flat), grad)
    return dx.reshape(x.shape)


@kernel("MaxPoolGradGradWithArgmax")
def max_pool_grad_grad_with_argmax(ctx, x, grad, argmax):
    if grad.shape != x.shape:
        raise ValueError(f"Expected grad shape to be {list(x.shape)}, but got {list(grad.shape)}")
    rows, flat = _argmax_index(x.shape, argmax, ctx.attrs["include_batch_in_index"])
    return grad.reshape(x.shape[0], -1)[rows, flat]
