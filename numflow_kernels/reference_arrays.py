"""NumPy kernels of the array ops beyond ``reference.py``: ``GatherNd``, ``ScatterNd``, the
``TensorScatter*`` ops, ``ReverseV2``, ``ReverseSequence`` and ``Size``. Errors are plain ``ValueError``
(InvalidArgumentError to the user) in TensorFlow's words; a scatter checks every index before it
writes anything, and adds duplicates one after another in index order.
"""

import numpy as np

from numflow_kernels.reference_math import dims_text, kernel


@kernel("Size")
def size(ctx, x):
    return np.array(np.size(x), dtype=ctx.attrs["out_type"].as_numpy_dtype)


def _tuples(indices, shape):
    """``indices`` as a ``(n, k)`` array of index tuples into ``shape``, after TensorFlow's checks.

    Returns the tuples and the positions of the first out-of-range one (or None)."""
    k = indices.shape[-1]
    flat = indices.reshape(-1, k).astype(np.int64)
    limits = np.array(shape[:k], dtype=np.int64)
    bad = ((flat < 0) | (flat >= limits)).any(axis=1)
    return flat, (int(np.flatnonzero(bad)[0]) if bad.any() else None)


def _tuple_text(row):
    return "[" + ", ".join(str(int(i)) for i in row) + "]"


@kernel("GatherNd")
def gather_nd(ctx, params, indices):
    if indices.ndim == 0:
        raise ValueError("indices must be at least a vector")
    k = indices.shape[-1]
    if k > params.ndim:
        raise ValueError(f"index innermost dimension length must be <= params rank; saw: {k} vs. {params.ndim}")
    flat = indices.reshape(-1, k).astype(np.int64)
    if not k:
        out = np.broadcast_to(params, (flat.shape[0],) + params.shape)
    else:
        try:
            rows = np.ravel_multi_index(tuple(flat.T), params.shape[:k])
        except ValueError:  # an index out of range: find the first, for TensorFlow's message
            flat, bad = _tuples(indices, params.shape)
            raise ValueError(f"indices[{bad}] = {_tuple_text(flat[bad])} does not index into param shape "
                             f"{dims_text(params.shape)}, node name: {ctx.op_name}") from None
        out = params.reshape((-1,) + params.shape[k:])[rows]
    return np.ascontiguousarray(out.reshape(indices.shape[:-1] + params.shape[k:]))


def _checked_scatter(indices, updates, shape, target_name):
    """The index tuples and updates (one row per tuple) of a scatter into ``shape``, after TF's checks."""
    if indices.ndim == 0:
        raise ValueError(f"Indices shape must have rank at least one. Found:{dims_text(indices.shape)}")
    outer = indices.ndim - 1
    k = indices.shape[-1]
    if k > len(shape):
        raise ValueError(f"Output must have at least {k} dimensions: {dims_text(shape)}")
    if updates.shape[:outer] != indices.shape[:outer]:
        raise ValueError(f"Dimensions [0,{outer}) of indices[shape={dims_text(indices.shape)}] must match dimensions "
                         f"[0,{outer}) of updates[shape={dims_text(updates.shape)}]")
    if updates.shape[outer:] != tuple(shape[k:]):
        raise ValueError(f"Dimensions [{k},{len(shape)}) of {target_name}[shape={dims_text(shape)}] must match "
                         f"dimensions [{outer},{updates.ndim}) of updates[shape={dims_text(updates.shape)}]")
    flat, bad = _tuples(indices, shape)
    if bad is not None:
        raise ValueError(f"indices[{bad}] = {_tuple_text(flat[bad])} does not index into shape {dims_text(shape)}")
    return tuple(flat.T), updates.reshape((flat.shape[0],) + tuple(shape[k:]))


@kernel("ScatterNd")
def scatter_nd(ctx, indices, updates, shape):
    dims = [int(d) for d in shape.tolist()]
    if any(d < 0 for d in dims):
        raise ValueError(f"Dimension {min(dims)} must be >= 0")
    key, rows = _checked_scatter(indices, updates, dims, "shape")
    out = np.zeros(dims, dtype=updates.dtype)
    np.add.at(out, key, rows)
    return out


def _tensor_scatter(op_type, apply):
    @kernel(op_type)
    def run(ctx, tensor, indices, updates):
        key, rows = _checked_scatter(indices, updates, tensor.shape, "input")
        out = np.array(tensor, copy=True)
        apply(out, key, rows)
        return out


def _assign(out, key, rows):
    out[key] = rows  # duplicates: the last row written wins, as TensorFlow's sequential CPU kernel leaves it


_tensor_scatter("TensorScatterUpdate", _assign)
_tensor_scatter("TensorScatterAdd", np.add.at)
_tensor_scatter("TensorScatterSub", np.subtract.at)


def check_reverse_axes(axes, rank):
    """TensorFlow's checks of ReverseV2's axes (its message lacks the closing bracket); the axes, normalized."""
    seen = []
    for i, a in enumerate(axes):
        if not -rank <= a < rank:
            raise ValueError(f"'axis'[{i}] = {a} is out of valid range [0, {rank - 1}")
        if a % rank in seen:
            raise ValueError(f"axis {a % rank} specified more than once.")
        seen.append(a % rank)
    return seen


@kernel("ReverseV2")
def reverse_v2(ctx, x, axis):
    axes = check_reverse_axes([int(a) for a in np.reshape(axis, -1)], x.ndim)
    return np.ascontiguousarray(np.flip(x, tuple(axes))) if axes else x


@kernel("ReverseSequence")
def reverse_sequence(ctx, x, lengths):
    seq_dim, batch_dim = ctx.attrs["seq_dim"], ctx.attrs["batch_dim"]
    if batch_dim == seq_dim:
        raise ValueError(f"batch_dim == seq_dim == {seq_dim}")
    if lengths.ndim != 1:
        raise ValueError(f"seq_lengths must be 1-dim, not {lengths.ndim}")
    if lengths.size != x.shape[batch_dim]:
        raise ValueError(f"Length of seq_lengths != input.dims({batch_dim}), ({lengths.size} vs. "
                         f"{x.shape[batch_dim]})")
    for i, n in enumerate(lengths.tolist()):
        if n < 0:
            raise ValueError(f"seq_lens({i}) < 0")
        if n > x.shape[seq_dim]:
            raise ValueError(f"seq_lens({i}) > input.dims({seq_dim})")
    out = np.array(x, copy=True)
    for i, n in enumerate(lengths.tolist()):
        src = [slice(None)] * x.ndim
        src[batch_dim] = i
        src[seq_dim] = slice(0, n)
        out[tuple(src)] = np.flip(x[tuple(src)], axis=seq_dim - (batch_dim < seq_dim))
    return out
