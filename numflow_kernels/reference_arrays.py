"""NumPy kernels of the array ops beyond ``reference.py``: ``GatherNd``, ``ScatterNd``, the
``TensorScatter*`` ops, ``ReverseV2``, ``ReverseSequence`` and ``Size``. Errors are plain ``ValueError``
(InvalidArgumentError to the user) in TensorFlow's words; a scatter checks every index before it
writes anything, and adds duplicates one after another in index order.
"""

import math

import numpy as np

from numflow_kernels.reference_math import dims_text, kernel, ufunc_at


@kernel("Size")
def size(ctx, x):
    return np.array(np.size(x), dtype=ctx.attrs["out_type"])


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


def checked_scatter(indices, updates, shape, target_name):
    """The rows of ``shape`` (flattened past the indexed dimensions) that ``indices`` names, and ``updates``
    as one row each, after TensorFlow's checks."""
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
    rows = np.ravel_multi_index(tuple(flat.T), tuple(shape[:k])) if k else np.zeros(flat.shape[0], np.int64)
    width = math.prod(shape[k:])
    return rows.astype(np.int64, copy=False), np.ascontiguousarray(updates).reshape(flat.shape[0], width), \
        math.prod(shape[:k])


def _scatter(out, indices, updates, target_name, apply):
    """``out`` (modified) with ``updates`` applied at ``indices`` by ``apply(out_rows, rows, updates_rows)``."""
    rows, values, count = checked_scatter(indices, updates, out.shape, target_name)
    apply(out.reshape(count, values.shape[1]), rows, values)
    return out


def _assign(out, rows, values):
    out[rows] = values  # duplicates: the last row written wins, as TensorFlow's sequential CPU kernel leaves it


def scatter_kernels(add):
    """The kernels of ScatterNd and the TensorScatter ops, adding rows with ``add(out, rows, values, kind)``
    (``reference_math.ufunc_at``: 0 adds, in index order)."""

    def scatter_nd(ctx, indices, updates, shape):
        dims = [int(d) for d in shape.tolist()]
        if any(d < 0 for d in dims):
            raise ValueError(f"Dimension {min(dims)} must be >= 0")
        return _scatter(np.zeros(dims, dtype=updates.dtype), indices, updates, "shape",
                        lambda out, rows, values: add(out, rows, values, 0))

    def tensor_scatter(apply):
        return lambda ctx, tensor, indices, updates: _scatter(np.array(tensor, copy=True), indices, updates, "input",
                                                              apply)

    return {
        "ScatterNd": scatter_nd,
        "TensorScatterUpdate": tensor_scatter(_assign),
        "TensorScatterAdd": tensor_scatter(lambda out, rows, values: add(out, rows, values, 0)),
        "TensorScatterSub": tensor_scatter(lambda out, rows, values: add(out, rows, np.negative(values), 0)),
        "TensorScatterMax": tensor_scatter(lambda out, rows, values: add(out, rows, values, 1)),
        "TensorScatterMin": tensor_scatter(lambda out, rows, values: add(out, rows, values, 2)),
    }


for _op_type, _fn in scatter_kernels(ufunc_at).items():
    kernel(_op_type)(_fn)


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


@kernel("ListDiff")
def list_diff(ctx, x, y):
    """The values of ``x`` not in ``y`` (in order, repeats kept) and their positions."""
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"x should be a 1D vector, got shape {list(x.shape)}" if x.ndim != 1 else
                         f"y should be a 1D vector, got shape {list(y.shape)}")
    positions = np.flatnonzero(~np.isin(x, y))
    return x[positions], positions.astype(ctx.attrs["out_idx"])


@kernel("BroadcastArgs")
def broadcast_args(ctx, s0, s1):
    """The broadcast of two shapes, as numpy's rules (TensorFlow's BCast)."""
    try:
        return np.array(np.broadcast_shapes(tuple(int(d) for d in s0), tuple(int(d) for d in s1)), s0.dtype)
    except ValueError:
        raise ValueError(f"Incompatible shapes: [{','.join(str(int(d)) for d in s0)}] vs. "
                         f"[{','.join(str(int(d)) for d in s1)}]") from None
