"""NumPy kernels of the ops only gradients build (``ReluGrad``, ``Conv2DBackpropInput``...).

Registered under the ``reference`` device type, as the spec of each op and what the CPU runs, after
``reference.py`` and only for op types it does not cover. Semantics are TensorFlow's:

- ``BroadcastTo(input, shape)``; ``NfSumToShape(grad, shape)``: ``grad`` summed over its leading
  axes and over the axes where ``shape`` has 1, then reshaped to ``shape`` (broadcasting undone);
- ``ConcatOffset(concat_dim, shapes...)``: where each input of a concat begins along its axis;
- ``StridedSliceGrad(shape, begin, end, strides, dy)``: zeros of ``shape`` with ``dy`` written where
  ``StridedSlice`` with the same masks read;
- ``ReluGrad(dy, features) = dy * (features > 0)``; ``SigmoidGrad(y, dy) = dy * y * (1 - y)``;
  ``TanhGrad(y, dy) = dy * (1 - y * y)``; ``RsqrtGrad(y, dy) = -0.5 * (dy * y) * (y * y)``;
  ``BiasAddGrad(dy)``: ``dy`` summed over all but the channel dimension.

The convolutions' backprops are in ``reference_conv.py``.
"""

import numpy as np

from numflow_kernels import reference  # its registrations come first
from numflow_kernels.registry import _KERNELS, REFERENCE, register


def kernel(op_type):
    """Register the decorated function as ``op_type``'s reference kernel unless one exists."""

    def wrap(fn):
        if (op_type, REFERENCE) not in _KERNELS:
            register(op_type, REFERENCE)(fn)
        return fn

    return wrap


def _invalid(message):
    return ValueError(message)


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
    """``grad`` summed down to ``shape``, the shape of an operand it was broadcast from (``grad`` itself
    where that is its shape, as an identity gives its input: a gradient of a Keras cell's gate, say)."""
    shape = tuple(shape.tolist())
    if grad.shape == shape:
        return grad
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
@kernel("ConcatOffset")
def concat_offset(ctx, concat_dim, *shapes):
    """Where each input of a concat of inputs of ``shapes`` along ``concat_dim`` begins in the result."""
    rank = len(shapes[0])
    axis = int(concat_dim)
    if not -rank <= axis < rank:
        raise _invalid(f"Concat dim is out of range: {axis} vs. {rank}")
    axis %= rank
    offsets, start = [], 0
    for i, shape in enumerate(shapes):
        if len(shape) != rank:
            raise _invalid(f"input {i} should contain {rank} elements, but got {len(shape)}")
        for d in range(rank):
            if d != axis and shape[d] != shapes[0][d]:
                raise _invalid(f"input[{i},{d}] mismatch: {shape[d]} vs. {shapes[0][d]}")
        offset = np.zeros(rank, dtype=np.asarray(shape).dtype)
        offset[axis] = start
        offsets.append(offset)
        start += int(shape[axis])
    return tuple(offsets)


@kernel("StridedSliceGrad")
def strided_slice_grad(ctx, shape, begin, end, strides, dy):
    out = np.zeros(tuple(shape.tolist()), dtype=dy.dtype)
    key = reference.cached_strided_slice_key(out, begin, end, strides, ctx.attrs)
    out[key] = dy.reshape(out[key].shape)
    return out


# -- activations -------------------------------------------------------------------------------
@kernel("ReluGrad")
def relu_grad(ctx, dy, features):
    # TensorFlow's formula: a NaN or infinite dy where features <= 0 gives NaN, as there. (np.where
    # would give 0, and is several times slower on a random mask.)
    with np.errstate(invalid="ignore"):
        return dy * (features > 0)


_AVX_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # an Eigen packet's elements


@kernel("SigmoidGrad")
def sigmoid_grad(ctx, y, dy):
    # Eigen's packets compute dy * (y * (1 - y)); the last size % lanes elements take its scalar
    # path, (dy * y) * (1 - y), which rounds otherwise.
    one = y.dtype.type(1)
    out = dy * (y * (one - y))
    rest = y.size % _AVX_LANES.get(out.dtype, 1) if y.shape == dy.shape else 0
    if rest:
        flat, y_rest, dy_rest = out.reshape(-1), y.reshape(-1)[-rest:], dy.reshape(-1)[-rest:]
        flat[-rest:] = (dy_rest * y_rest) * (one - y_rest)
    return out


@kernel("TanhGrad")
def tanh_grad(ctx, y, dy):
    one = y.dtype.type(1)
    return dy * (one - y * y)


@kernel("RsqrtGrad")
def rsqrt_grad(ctx, y, dy):
    # In TensorFlow's order of products (Eigen's scalar_rsqrt_gradient_op), for the same roundings.
    return np.asarray(y.dtype.type(-0.5) * (dy * y) * (y * y), dtype=y.dtype)


@kernel("BiasAddGrad")
def bias_add_grad(ctx, dy):
    channel = 1 if ctx.attrs.get("data_format", "NHWC") == "NCHW" else dy.ndim - 1
    axes = tuple(i for i in range(dy.ndim) if i != channel)
    return np.asarray(np.add.reduce(dy, axis=axes, dtype=dy.dtype))  # np.sum's reduction, without its wrapper

