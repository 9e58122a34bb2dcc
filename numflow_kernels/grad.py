"""NumPy kernels of the ops only gradients build (``ReluGrad``, ``Conv2DBackpropInput``...).

Registered under the ``reference`` device type, as the spec of each op and what the CPU runs, after
``reference.py`` and only for op types it does not cover. Semantics are TensorFlow's:

- ``BroadcastTo(input, shape)``; ``NfSumToShape(grad, shape)``: ``grad`` summed over its leading
  axes and over the axes where ``shape`` has 1, then reshaped to ``shape`` (broadcasting undone);
- ``StridedSliceGrad(shape, begin, end, strides, dy)``: zeros of ``shape`` with ``dy`` written where
  ``StridedSlice`` with the same masks read;
- ``ReluGrad(dy, features) = dy * (features > 0)``; ``SigmoidGrad(y, dy) = dy * y * (1 - y)``;
  ``TanhGrad(y, dy) = dy * (1 - y * y)``; ``BiasAddGrad(dy)``: ``dy`` summed over all but the
  channel dimension;
- ``Conv2DBackpropInput`` / ``Conv2DBackpropFilter``: the gradients of ``Conv2D`` (NHWC or NCHW,
  strides, dilations, SAME/VALID/EXPLICIT padding, grouped filters), by the same im2col windows as
  the forward kernel: the filter gradient is one matmul of the windows with ``dy`` per group; the
  input gradient is ``dy @ filter.T`` added back into each window's position (kh * kw strided adds).
"""

import numpy as np

from numflow.framework import errors
from numflow_kernels import reference  # its registrations come first
from numflow_kernels.reference_nn import conv_pads
from numflow_kernels.registry import _KERNELS, REFERENCE, register


def kernel(op_type):
    """Register the decorated function as ``op_type``'s reference kernel unless one exists."""

    def wrap(fn):
        if (op_type, REFERENCE) not in _KERNELS:
            register(op_type, REFERENCE)(fn)
        return fn

    return wrap


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# -- broadcasting ------------------------------------------------------------------------------
@kernel("BroadcastTo")
def broadcast_to(ctx, x, shape):
    dims = shape.tolist()
    try:
        if x.ndim > len(dims):  # numpy's assignment would drop leading 1s; a broadcast may not
            raise ValueError
        out = np.empty(dims, dtype=x.dtype)
        out[...] = x
    except ValueError:
        raise _invalid(f"Unable to broadcast tensor of shape {list(x.shape)} to tensor of shape {dims}") from None
    return out


def sum_to_shape(grad, shape):
    """``grad`` summed down to ``shape``, the shape of an operand it was broadcast from."""
    shape = tuple(int(d) for d in shape)
    lead = grad.ndim - len(shape)
    if lead < 0:
        raise _invalid(f"Cannot reduce a gradient of shape {list(grad.shape)} to shape {list(shape)}")
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and grad.shape[lead + i] != 1)
    out = np.sum(grad, axis=axes, keepdims=True, dtype=grad.dtype) if axes else grad
    return np.array(out.reshape(shape))


@kernel("NfSumToShape")
def nf_sum_to_shape(ctx, grad, shape):
    return sum_to_shape(grad, shape)


@kernel("BroadcastGradientArgs")
def broadcast_gradient_args(ctx, s0, s1):
    """The axes to sum each input's gradient over, for inputs of shapes ``s0`` and ``s1`` broadcast together."""
    dtype = np.asarray(s0).dtype
    a, b = [int(d) for d in s0], [int(d) for d in s1]
    r0, r1 = [], []
    if a != b:
        rank = max(len(a), len(b))
        for i, (da, db) in enumerate(zip([1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b)):
            if da != db and da != 1 and db != 1:
                raise _invalid(f"Incompatible shapes: [{','.join(map(str, a))}] vs. [{','.join(map(str, b))}]")
            if da == 1:
                r0.append(i)
            if db == 1:
                r1.append(i)
    return np.array(r0, dtype=dtype), np.array(r1, dtype=dtype)


# -- slices ------------------------------------------------------------------------------------
@kernel("StridedSliceGrad")
def strided_slice_grad(ctx, shape, begin, end, strides, dy):
    out = np.zeros(tuple(int(d) for d in shape), dtype=dy.dtype)
    key = reference.strided_slice_key(out, begin, end, strides, ctx.attrs)
    out[key] = dy.reshape(out[key].shape)
    return out


# -- activations -------------------------------------------------------------------------------
@kernel("ReluGrad")
def relu_grad(ctx, dy, features):
    # TensorFlow's formula: a NaN or infinite dy where features <= 0 gives NaN, as there. (np.where
    # would give 0, and is several times slower on a random mask.)
    with np.errstate(invalid="ignore"):
        return dy * (features > 0)


@kernel("SigmoidGrad")
def sigmoid_grad(ctx, y, dy):
    one = np.ones((), dtype=y.dtype)
    return dy * (y * (one - y))


@kernel("TanhGrad")
def tanh_grad(ctx, y, dy):
    one = np.ones((), dtype=y.dtype)
    return dy * (one - y * y)


@kernel("BiasAddGrad")
def bias_add_grad(ctx, dy):
    channel = 1 if ctx.attrs.get("data_format", "NHWC") == "NCHW" else dy.ndim - 1
    axes = tuple(i for i in range(dy.ndim) if i != channel)
    return np.asarray(np.sum(dy, axis=axes, dtype=dy.dtype))


# -- conv2d ------------------------------------------------------------------------------------
def _conv_setup(attrs, x_shape, w_shape, dy):
    """Everything both backprops need, in NHWC: sizes, strides, dilations, pads, groups, dy."""
    nchw = attrs["data_format"] == "NCHW"
    strides, dilations = list(attrs["strides"]), list(attrs["dilations"])
    if nchw:
        x_shape = [x_shape[i] for i in (0, 2, 3, 1)]
        strides, dilations = [strides[i] for i in (0, 2, 3, 1)], [dilations[i] for i in (0, 2, 3, 1)]
        dy = np.transpose(dy, (0, 2, 3, 1))
    n, h, w, c = x_shape
    kh, kw, ci, co = w_shape
    pads = conv_pads((h, w), (kh, kw), strides[1:3], dilations[1:3], attrs["padding"],
                 attrs.get("explicit_paddings") or [], nchw)
    oh, ow = dy.shape[1], dy.shape[2]
    return nchw, (n, h, w, c), (kh, kw, ci, co), strides[1:3], dilations[1:3], pads, c // ci, (oh, ow), dy


def _compute_dtype(dtype):
    return np.float32 if dtype == np.float16 else dtype


@kernel("Conv2DBackpropFilter")
def conv2d_backprop_filter(ctx, x, filter_sizes, dy):
    nchw, (n, h, w, c), (kh, kw, ci, co), (sh, sw), (dh, dw), pads, groups, (oh, ow), dy = _conv_setup(
        ctx.attrs, x.shape, [int(d) for d in filter_sizes], dy)
    if nchw:
        x = np.transpose(x, (0, 2, 3, 1))
    compute = _compute_dtype(x.dtype)
    xp = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0))) if any(p for pair in pads for p in pair) else x
    xp = np.ascontiguousarray(xp, dtype=compute)
    s0, s1, s2, s3 = xp.strides
    windows = np.lib.stride_tricks.as_strided(
        xp, (n, oh, ow, kh, kw, c), (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw, s3), writeable=False)
    rows = n * oh * ow
    g = np.ascontiguousarray(dy, dtype=compute).reshape(rows, co)
    cog = co // groups
    out = np.empty((kh, kw, ci, co), dtype=compute)
    for k in range(groups):
        patches = windows[..., k * ci:(k + 1) * ci].reshape(rows, kh * kw * ci)
        out[:, :, :, k * cog:(k + 1) * cog] = (patches.T @ g[:, k * cog:(k + 1) * cog]).reshape(kh, kw, ci, cog)
    return out.astype(x.dtype, copy=False)


@kernel("Conv2DBackpropInput")
def conv2d_backprop_input(ctx, input_sizes, w, dy):
    sizes = [int(d) for d in input_sizes]
    nchw, (n, h, wd, c), (kh, kw, ci, co), (sh, sw), (dh, dw), pads, groups, (oh, ow), dy = _conv_setup(
        ctx.attrs, sizes, w.shape, dy)
    compute = _compute_dtype(w.dtype)
    ph, pw = pads
    hp, wp = h + ph[0] + ph[1], wd + pw[0] + pw[1]
    dxp = np.zeros((n, hp, wp, c), dtype=compute)
    g = np.ascontiguousarray(dy, dtype=compute).reshape(n * oh * ow, co)
    cog = co // groups
    for k in range(groups):
        filters = w[:, :, :, k * cog:(k + 1) * cog].reshape(kh * kw * ci, cog).astype(compute, copy=False)
        cols = (g[:, k * cog:(k + 1) * cog] @ filters.T).reshape(n, oh, ow, kh, kw, ci)
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dh, j * dw
                dxp[:, r0:r0 + sh * (oh - 1) + 1:sh, c0:c0 + sw * (ow - 1) + 1:sw, k * ci:(k + 1) * ci] += \
                    cols[:, :, :, i, j, :]
    dx = dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd, :]
    if nchw:
        dx = np.transpose(dx, (0, 3, 1, 2))
    return np.ascontiguousarray(dx, dtype=w.dtype)
