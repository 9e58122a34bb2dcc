"""NumPy kernels of SparseFillEmptyRows (and its gradient), SparseConcat, SparseSparseMaximum/Minimum and
SparseSoftmax.

Spec: TensorFlow's ``fill_empty_rows_functor.h`` (the output sorted by row, a row's values in input order,
an empty row's default at ``[row, 0, ...]``; ``reverse_index_map`` is each input value's output position),
``sparse_concat_op.cc`` (``SparseTensor::Concat``: along dimension 0 the inputs follow one another, along any
other the entries are reordered row-major, stably) and ``sparse_sparse_binary_op_shared.cc`` (the union of two
row-major index lists, a missing value counting as 0) and ``sparse_softmax_op.cc`` (a softmax over each run
of consecutive entries that share all but their last index, shifted by the run's maximum).
"""

import numpy as np

from numflow_kernels.reference_sparse_math import check_operands, check_sparse, merge
from numflow_kernels.registry import REFERENCE, register


def kernel(op_type):
    return register(op_type, REFERENCE)


@kernel("SparseFillEmptyRows")
def sparse_fill_empty_rows(ctx, indices, values, shape, default):
    check_sparse(indices, values, shape)
    if default.ndim != 0:
        raise ValueError(f"default_value must be a scalar, saw: {list(default.shape)}")
    rows = int(shape[0]) if shape.size else 0
    if shape.size == 0:
        raise ValueError("dense_shape must have at least one element")
    row_of = indices[:, 0]
    bad = np.flatnonzero((row_of < 0) | (row_of >= rows))
    if bad.size:
        raise ValueError(f"indices({bad[0]}, 0) is invalid: {int(row_of[bad[0]])} >= {rows}"
                         if row_of[bad[0]] >= 0 else f"indices({bad[0]}, 0) is invalid: {int(row_of[bad[0]])} < 0")
    counts = np.bincount(row_of, minlength=rows)
    empty = counts == 0
    per_row = np.maximum(counts, 1)
    starts = np.concatenate([[0], np.cumsum(per_row)[:-1]]).astype(np.int64)
    order = np.argsort(row_of, kind="stable")  # a row's values in input order
    reverse_map = np.empty(len(values), np.int64)
    reverse_map[order] = starts[row_of[order]] + (np.arange(len(order)) - np.concatenate(
        [[0], np.cumsum(counts)[:-1]])[row_of[order]])
    total = int(per_row.sum()) if rows else 0
    out_indices = np.zeros((total, indices.shape[1]), np.int64)
    out_values = np.empty(total, values.dtype)
    out_indices[reverse_map] = indices
    out_values[reverse_map] = values
    filled = starts[empty]
    out_indices[filled, 0] = np.flatnonzero(empty)
    out_values[filled] = default
    return out_indices, out_values, empty, reverse_map


@kernel("SparseFillEmptyRowsGrad")
def sparse_fill_empty_rows_grad(ctx, reverse_map, grad):
    """Each input value's gradient from its output position; the default value's, the filled positions' sum."""
    if reverse_map.ndim != 1 or grad.ndim != 1:
        raise ValueError(f"reverse_index_map and grad_values must be vectors, saw: {list(reverse_map.shape)} and "
                         f"{list(grad.shape)}")
    taken = np.zeros(grad.shape[0], bool)
    taken[reverse_map] = True
    return grad[reverse_map], grad[~taken].sum(dtype=grad.dtype).astype(grad.dtype)


@kernel("SparseConcat")
def sparse_concat(ctx, *inputs):
    count = len(inputs) // 3
    all_indices, all_values, shapes = inputs[:count], inputs[count:2 * count], inputs[2 * count:]
    for parts in zip(all_indices, all_values, shapes, strict=True):
        check_sparse(*parts)
    rank = shapes[0].shape[0]
    axis = ctx.attrs["concat_dim"]
    if not -rank <= axis < rank:
        raise ValueError(f"Concat dimension must be in range [{-rank}, {rank}), got {axis}")
    axis %= rank
    for i, shape in enumerate(shapes[1:], 1):
        if shape.shape[0] != rank:
            raise ValueError(f"Ranks of all input tensors must match: expected {rank} but got {shape.shape[0]} at "
                             f"position {i}")
        for d in range(rank):
            if d != axis and shape[d] != shapes[0][d]:
                raise ValueError(f"Input shapes must match: expected {int(shapes[0][d])} for dimension {d} but got "
                                 f"{int(shape[d])} at position {i}")
    offsets = np.concatenate([[0], np.cumsum([int(s[axis]) for s in shapes])]).astype(np.int64)
    moved = []
    for indices, offset in zip(all_indices, offsets[:-1], strict=False):
        shifted = indices.copy()
        shifted[:, axis] += offset
        moved.append(shifted)
    out_indices, out_values = np.concatenate(moved), np.concatenate(all_values)
    if axis != 0:
        order = np.lexsort(out_indices.T[::-1])
        out_indices, out_values = out_indices[order], out_values[order]
    out_shape = shapes[0].copy()
    out_shape[axis] = offsets[-1]
    return out_indices, out_values, out_shape


def _sparse_sparse(pick):
    def run(ctx, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        check_sparse(a_indices, a_values, a_shape)
        check_sparse(b_indices, b_values, b_shape)
        check_operands(a_shape, b_shape)
        zero = a_values.dtype.type(0)
        out_indices, out_values = [], []
        for entry in merge(a_indices, b_indices):
            if entry[0] == 2:
                out_indices.append(a_indices[entry[1]])
                out_values.append(pick(a_values[entry[1]], b_values[entry[2]]))
            elif entry[0] == 0:
                out_indices.append(a_indices[entry[1]])
                out_values.append(pick(a_values[entry[1]], zero))
            else:
                out_indices.append(b_indices[entry[1]])
                out_values.append(pick(zero, b_values[entry[1]]))
        return (np.array(out_indices, np.int64).reshape(-1, a_shape.shape[0]),
                np.array(out_values, a_values.dtype).reshape(-1))

    return run


kernel("SparseSparseMaximum")(_sparse_sparse(np.maximum))
kernel("SparseSparseMinimum")(_sparse_sparse(np.minimum))


@kernel("SparseSlice")
def sparse_slice(ctx, indices, values, shape, start, size):
    check_sparse(indices, values, shape)
    rank = shape.shape[0]
    if start.shape != (rank,) or size.shape != (rank,):
        raise ValueError(f"Expected start and size to be vectors of length {rank}, got shapes {list(start.shape)} "
                         f"and {list(size.shape)}")
    stop = np.minimum(start + size, shape)
    inside = ((indices >= start) & (indices < stop)).all(axis=1)
    return indices[inside] - start, values[inside], np.maximum(stop - start, 0).astype(np.int64)


@kernel("SparseSliceGrad")
def sparse_slice_grad(ctx, grad, indices, start, out_indices):
    """Each input value the gradient at its place in the slice (the slice keeps the input's order)."""
    moved = [tuple(r) for r in (indices - start).tolist()]
    positions = {tuple(r): k for k, r in enumerate(out_indices.tolist())}
    out = np.zeros(len(indices), grad.dtype)
    for i, row in enumerate(moved):
        k = positions.get(row)
        if k is not None:
            out[i] = grad[k]
    return out


@kernel("SparseSplit")
def sparse_split(ctx, axis, indices, values, shape):
    check_sparse(indices, values, shape)
    rank, count = shape.shape[0], ctx.attrs["num_split"]
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f"Input split_dim should be between {-rank} and {rank}, got {axis}")
    axis %= rank
    length = int(shape[axis])
    if not 1 <= count <= max(length, 1):
        raise ValueError(f"Input num_split should be between 1 and {length}, got {count}")
    base, extra = divmod(length, count)
    sizes = np.array([base + (i < extra) for i in range(count)], np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    piece = np.searchsorted(starts, indices[:, axis], side="right") - 1
    outs = [], [], []
    for i in range(count):
        mine = piece == i
        moved = indices[mine].copy()
        moved[:, axis] -= starts[i]
        piece_shape = shape.copy()
        piece_shape[axis] = sizes[i]
        outs[0].append(moved)
        outs[1].append(values[mine])
        outs[2].append(piece_shape)
    return tuple(outs[0] + outs[1] + outs[2])


@kernel("SparseSoftmax")
def sparse_softmax(ctx, indices, values, shape):
    check_sparse(indices, values, shape)
    if shape.size < 2:
        raise ValueError(f"Input should have rank >= 2, but received shape: {shape.tolist()}")
    out = np.empty_like(values)
    if not values.size:
        return out
    prefix = indices[:, :-1]
    starts = np.concatenate([[0], np.flatnonzero(np.any(prefix[1:] != prefix[:-1], axis=1)) + 1, [len(values)]])
    for begin, end in zip(starts[:-1], starts[1:]):
        shifted = np.exp(values[begin:end] - values[begin:end].max())
        out[begin:end] = shifted / shifted.sum(dtype=values.dtype)
    return out
