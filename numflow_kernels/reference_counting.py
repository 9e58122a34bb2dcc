"""NumPy kernels of the counting and bit ops: DenseBincount, HistogramFixedWidth, LowerBound, UpperBound, Roll,
IdentityN, the bitwise ops, UnravelIndex and Bitcast (the bytes read little-endian, as TensorFlow's CPU does).

The spec, as TensorFlow's kernels compute it: DenseBincount adds each row's weights (1 without weights) into bins
``0 .. size - 1``, skipping values from ``size`` on; HistogramFixedWidth puts ``x`` in bin
``int(min((max(x, low) - low) / ((high - low) / nbins), nbins - 1))``, the difference in ``x``'s dtype and the
division in float64; LowerBound/UpperBound search each row on its own; a shift by ``y`` uses ``y`` clamped to
``[0, bits - 1]``.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, list_results, register


def kernel(op_type, **flags):
    return register(op_type, REFERENCE, **flags)


@kernel("DenseBincount")
def dense_bincount(ctx, arr, size, weights):
    size = int(size)
    if size < 0:
        raise ValueError(f"size ({size}) must be non-negative")
    if arr.size and arr.min() < 0:
        raise ValueError("Input arr must be non-negative!")
    if weights.size and weights.shape != arr.shape:
        raise ValueError("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts "
                         f"as all weights equal to 1. Received {list(weights.shape)}")
    rows = arr if arr.ndim == 2 else arr.reshape(1, -1)
    row_weights = weights.reshape(rows.shape) if weights.size else np.ones(rows.shape, weights.dtype)
    out = np.zeros((rows.shape[0], size), weights.dtype)
    for i, (row, w) in enumerate(zip(rows, row_weights)):
        keep = row < size
        np.add.at(out[i], row[keep], w[keep])
    if ctx.attrs.get("binary_output"):
        out = (out != 0).astype(weights.dtype)
    return out if arr.ndim == 2 else out[0]


@kernel("HistogramFixedWidth")
def histogram_fixed_width(ctx, values, value_range, nbins):
    nbins = int(nbins)
    if nbins <= 0:
        raise ValueError(f"nbins should be a positive number, but got '{nbins}'")
    low, high = value_range[0], value_range[1]
    if not low < high:
        raise ValueError(f"value_range should satisfy value_range[0] < value_range[1], but got '[{low:g}, {high:g}]'")
    step = float(high - low) / nbins
    offset = (np.maximum(values, low) - low).astype(np.float64)
    bins = np.minimum(offset / step, nbins - 1).astype(np.int32)
    return np.bincount(bins.reshape(-1), minlength=nbins).astype(ctx.attrs["dtype"])


def _bound(side):
    def run(ctx, sorted_inputs, values):
        if sorted_inputs.shape[0] != values.shape[0]:
            raise ValueError("Leading dim_size of both tensors must match.")
        out = np.empty(values.shape, ctx.attrs["out_type"])
        for i in range(values.shape[0]):
            out[i] = np.searchsorted(sorted_inputs[i], values[i], side=side)
        return out
    return run


kernel("LowerBound")(_bound("left"))
kernel("UpperBound")(_bound("right"))


@kernel("Roll")
def roll(ctx, x, shift, axis):
    shift, axis = np.reshape(shift, -1), np.reshape(axis, -1)
    if shift.size != axis.size:
        raise ValueError(f"shift and axis must have the same size: {shift.size} vs {axis.size}")
    for a in axis:
        if not -x.ndim <= a < x.ndim:
            raise ValueError(f"axis {a} is out of range")
    if x.ndim == 0 or not axis.size:
        return x
    return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))


@kernel("IdentityN")
def identity_n(ctx, *inputs):
    return list_results(inputs)


def _clamped(x, y):
    return np.clip(y, 0, x.dtype.itemsize * 8 - 1).astype(x.dtype)


for _op, _fn in (("BitwiseAnd", np.bitwise_and), ("BitwiseOr", np.bitwise_or), ("BitwiseXor", np.bitwise_xor),
                 ("LeftShift", lambda x, y: np.left_shift(x, _clamped(x, y))),
                 ("RightShift", lambda x, y: np.right_shift(x, _clamped(x, y)))):
    kernel(_op)(lambda ctx, x, y, _fn=_fn: np.asarray(_fn(x, y)).astype(x.dtype, copy=False))
kernel("Invert")(lambda ctx, x: np.invert(x))


@kernel("Bucketize")
def bucketize(ctx, x):
    # TensorFlow compares each value with the float32 boundaries as C++ does: in float64 for a double,
    # else in float32; a value equal to a boundary goes above it.
    compare = np.float64 if x.dtype == np.float64 else np.float32
    boundaries = np.asarray(ctx.attrs["boundaries"], dtype=np.float32).astype(compare)
    return np.searchsorted(boundaries, x.astype(compare), side="right").astype(np.int32)


@kernel("UnravelIndex")
def unravel_index(ctx, indices, dims):
    if indices.ndim > 1:
        raise ValueError(f"The indices can only be scalar or vector, got \"[{','.join(map(str, indices.shape))}]\"")
    if dims.ndim != 1:
        raise ValueError(f"The indices can only be 1-D, got \"[{','.join(map(str, dims.shape))}]\"")
    if np.any(dims <= 0):
        raise ValueError("Input dims must be > 0")
    if indices.size and (indices.min() < 0 or indices.max() >= np.prod(dims, dtype=np.int64)):
        raise ValueError("index is out of bound as with dims")
    return np.stack(np.unravel_index(indices, tuple(int(d) for d in dims))).astype(indices.dtype)


@kernel("Bitcast")
def bitcast(ctx, source):
    target = np.dtype(ctx.attrs["type"])
    if source.itemsize == target.itemsize:
        return source.view(target)
    if source.itemsize > target.itemsize:
        return np.ascontiguousarray(source).view(target).reshape(*source.shape, source.itemsize // target.itemsize)
    if not source.ndim or source.shape[-1] != target.itemsize // source.itemsize:
        raise ValueError(f"Cannot bitcast from {source.dtype.name} to {target.name}: the last dimension of shape "
                         f"{list(source.shape)} must be {target.itemsize // source.itemsize}")
    return np.ascontiguousarray(source).view(target).reshape(source.shape[:-1])
