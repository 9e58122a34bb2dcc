"""NumPy kernels of arithmetic on sparse tensors: SparseTensorDenseMatMul, SparseReorder, SparseReshape,
SparseAdd (and its gradient), SparseTensorDenseAdd and the SparseReduceSum/Max reductions.

Spec: TensorFlow's ``sparse_tensor_dense_matmul_op.cc`` (values added into the product in index order),
``reorder_op.cc``, ``reshape_util.cc``, ``sparse_add_op.cc`` (a merge of two row-major index lists,
``threshold`` applied only to sums of two values: a sum is kept when ``threshold <= |sum|``),
``sparse_add_grad_op.cc``, ``sparse_tensor_dense_add_op.cc`` and ``sparse_reduce_op.cc`` (groups of
values sharing their kept coordinates, reduced in row-major order; an output element without values is 0).
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register


def kernel(op_type, **kwargs):
    return register(op_type, REFERENCE, **kwargs)


def _dims(shape):
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def check_sparse(indices, values, shape):
    if indices.ndim != 2:
        raise ValueError(f"Input indices should be a matrix but received shape {_dims(indices.shape)}")
    if values.ndim != 1:
        raise ValueError(f"Input values should be a vector but received shape {_dims(values.shape)}")
    if shape.ndim != 1:
        raise ValueError(f"Input shape should be a vector but received shape {_dims(shape.shape)}")
    if indices.shape[0] != values.shape[0] or indices.shape[1] != shape.shape[0]:
        raise ValueError(f"Number of elements in input indices and values differ, or the rank of the indices "
                         f"is not the shape's: indices {_dims(indices.shape)}, values {_dims(values.shape)}, "
                         f"shape {_dims(shape.shape)}")


def _row_major_order(indices):
    """The stable permutation sorting ``indices``' rows in row-major order."""
    if indices.shape[1] == 0:
        return np.arange(indices.shape[0])
    return np.lexsort(indices.T[::-1])


# -- SparseTensorDenseMatMul ---------------------------------------------------------------------
@kernel("SparseTensorDenseMatMul")
def sparse_tensor_dense_matmul(ctx, indices, values, a_shape, b):
    if b.ndim != 2:
        raise ValueError("Tensor 'b' is not a matrix")
    if a_shape.shape != (2,):
        raise ValueError("Tensor 'a_shape' is not a vector" if a_shape.ndim != 1 else
                         "Tensor 'a_shape' must have 2 elements")
    if values.ndim != 1:
        raise ValueError("Tensor 'a_values' is not a vector")
    if indices.ndim != 2:
        raise ValueError("Tensor 'a_indices' is not a matrix")
    if indices.shape[0] != values.shape[0]:
        raise ValueError("Number of rows of a_indices does not match number of entries in a_values")
    if indices.shape[1] != 2:
        raise ValueError("Number of columns of a_indices does not match number of entries in a_shape")
    adjoint_a, adjoint_b = ctx.attrs["adjoint_a"], ctx.attrs["adjoint_b"]
    outer_a, inner_a = (int(a_shape[1]), int(a_shape[0])) if adjoint_a else (int(a_shape[0]), int(a_shape[1]))
    inner_b, outer_b = b.shape[::-1] if adjoint_b else b.shape
    if inner_a != inner_b:
        raise ValueError(f"Cannot multiply A and B because inner dimension does not match: {inner_a} vs. {inner_b}."
                         f"  Did you forget a transpose?  Dimensions of A: [{int(a_shape[0])}, {int(a_shape[1])})."
                         f"  Dimensions of B: {_dims(b.shape)}")
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    for name, at, column, bound in (("m", rows, int(adjoint_a), outer_a), ("k", cols, 1 - int(adjoint_a), inner_a)):
        bad = np.flatnonzero((at < 0) | (at >= bound))
        if bad.size:
            raise ValueError(f"{name} ({int(at[bad[0]])}) from index[{bad[0]},{column}] out of bounds (>={bound})")
    dense_b = b.T.conj() if adjoint_b else b
    scaled = (values.conj() if adjoint_a else values)[:, None] * dense_b[cols]
    out = np.zeros((outer_a, outer_b), np.result_type(values, b))
    np.add.at(out, rows, scaled)
    return out


# -- SparseReorder, SparseReshape -----------------------------------------------------------------
@kernel("SparseReorder")
def sparse_reorder(ctx, indices, values, shape):
    check_sparse(indices, values, shape)
    order = _row_major_order(indices)
    return indices[order], values[order]


def _resolved_shape(size, shape, new_shape):
    """``new_shape`` with its -1 worked out, in the words of TensorFlow's ``reshape_util.cc``."""
    dims = [int(d) for d in new_shape]
    unknown = -1
    for i, d in enumerate(dims):
        if d == -1:
            if unknown != -1:
                raise ValueError(f"only one output dimension may be -1, not both {unknown} and {i}")
            unknown = i
        elif d < 0:
            raise ValueError(f"size {i} must be non-negative, not {d}")
    known = int(np.prod([d for d in dims if d != -1]))
    if unknown != -1:
        if known == 0 or size % known:
            raise ValueError(f"Input to reshape is a SparseTensor with {size} dense values, but the requested shape "
                             f"requires a multiple of {known}. input_shape={_dims(shape)} "
                             f"output_shape={_dims([1 if d == -1 else d for d in dims])}")
        dims[unknown] = size // known
    if int(np.prod(dims)) != size:
        raise ValueError(f"Input to reshape is a tensor with {size} dense values, but the requested shape has "
                         f"{int(np.prod(dims))}. input_shape={_dims(shape)} output_shape={_dims(dims)}")
    return np.array(dims, np.int64)


@kernel("SparseReshape")
def sparse_reshape(ctx, indices, shape, new_shape):
    if indices.ndim != 2:
        raise ValueError(f"Input indices should be a matrix but received shape {_dims(indices.shape)}")
    if shape.ndim != 1 or new_shape.ndim != 1:
        raise ValueError("Input shape and target shape should be vectors")
    if indices.shape[1] != shape.shape[0]:
        raise ValueError(f"Input tensor rank must match input shape length: {indices.shape[1]} vs. {shape.shape[0]}")
    size = int(np.prod(shape))
    out_shape = _resolved_shape(size, shape, new_shape)
    flat = np.ravel_multi_index(tuple(indices.T), tuple(shape)) if indices.shape[1] else np.zeros(len(indices), int)
    new_indices = np.stack(np.unravel_index(flat, tuple(out_shape)), axis=1) if out_shape.size else \
        np.zeros((len(indices), 0), np.int64)
    return new_indices.astype(np.int64).reshape(len(indices), out_shape.size), out_shape


# -- SparseAdd, SparseTensorDenseAdd ---------------------------------------------------------------
def merge(a_indices, b_indices):
    """TensorFlow's merge of two row-major index lists: (from_a, position) per output entry, in order."""
    merged, i, j = [], 0, 0
    a_rows, b_rows = [tuple(r) for r in a_indices.tolist()], [tuple(r) for r in b_indices.tolist()]
    while i < len(a_rows) and j < len(b_rows):
        if a_rows[i] < b_rows[j]:
            merged.append((0, i))
            i += 1
        elif a_rows[i] > b_rows[j]:
            merged.append((1, j))
            j += 1
        else:
            merged.append((2, i, j))
            i, j = i + 1, j + 1
    return merged + [(0, k) for k in range(i, len(a_rows))] + [(1, k) for k in range(j, len(b_rows))]


def check_operands(a_shape, b_shape):
    if a_shape.shape != b_shape.shape:
        raise ValueError(f"Operands do not have the same ranks; got shapes: {_dims(a_shape)} and {_dims(b_shape)}")
    bad = np.flatnonzero(a_shape != b_shape)
    if bad.size:
        d = bad[0]
        raise ValueError(f"Operands' shapes do not match: got {int(a_shape[d])} and {int(b_shape[d])} "
                         f"for dimension {d}")


@kernel("SparseAdd")
def sparse_add(ctx, a_indices, a_values, a_shape, b_indices, b_values, b_shape, threshold):
    check_sparse(a_indices, a_values, a_shape)
    check_sparse(b_indices, b_values, b_shape)
    if threshold.ndim != 0:
        raise ValueError(f"The magnitude threshold must be a scalar: got shape {_dims(threshold.shape)}")
    check_operands(a_shape, b_shape)
    out_indices, out_values = [], []
    for entry in merge(a_indices, b_indices):
        if entry[0] == 2:
            total = a_values[entry[1]] + b_values[entry[2]]
            if threshold <= abs(total):
                out_indices.append(a_indices[entry[1]])
                out_values.append(total)
        else:
            source_indices, source_values = (a_indices, a_values) if entry[0] == 0 else (b_indices, b_values)
            out_indices.append(source_indices[entry[1]])
            out_values.append(source_values[entry[1]])
    rank = a_shape.shape[0]
    return (np.array(out_indices, np.int64).reshape(-1, rank), np.array(out_values, a_values.dtype).reshape(-1),
            a_shape.copy())


@kernel("SparseAddGrad")
def sparse_add_grad(ctx, grad, a_indices, b_indices, sum_indices):
    """Each sum's gradient to the operand values at its index (TensorFlow walks the same merge)."""
    a_grad, b_grad = np.zeros(len(a_indices), grad.dtype), np.zeros(len(b_indices), grad.dtype)
    sums = {tuple(r): k for k, r in enumerate(sum_indices.tolist())}
    for rows, out in ((a_indices, a_grad), (b_indices, b_grad)):
        for i, r in enumerate(rows.tolist()):
            k = sums.get(tuple(r))
            if k is not None:
                out[i] = grad[k]
    return a_grad, b_grad


@kernel("SparseTensorDenseAdd")
def sparse_tensor_dense_add(ctx, indices, values, shape, dense):
    if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1:
        raise ValueError(f"Inputs a_indices, a_values and a_shape should be a matrix and vectors: got shapes "
                         f"{_dims(indices.shape)}, {_dims(values.shape)} and {_dims(shape.shape)}")
    if tuple(int(d) for d in shape) != dense.shape:
        raise ValueError(f"Dimension mismatch: a_shape {_dims(shape)} and b {_dims(dense.shape)}")
    check_indices_in_bounds(indices, shape)
    out = dense.copy()
    np.add.at(out, tuple(indices.T), values)
    return out


def check_indices_in_bounds(indices, shape):
    bad = np.flatnonzero(((indices < 0) | (indices >= shape)).any(axis=1))
    if bad.size:
        raise ValueError(f"indices[{bad[0]}] = {_dims(indices[bad[0]])} is out of bounds: need 0 <= index < "
                         f"{_dims(shape)}")


# -- reductions ----------------------------------------------------------------------------------
def _groups(ctx, indices, values, shape, axes):
    """The kept coordinates of each value's output element (row-major sorted, unique) and each value's group."""
    check_sparse(indices, values, shape)
    rank = shape.shape[0]
    reduced = set()
    for a in np.reshape(axes, -1).tolist():
        if not -rank <= a < rank:
            raise ValueError(f"Invalid reduction dimension {a}, for input with {rank} dimensions.")
        reduced.add(a % rank)
    kept = [d for d in range(rank) if d not in reduced]
    keep_dims = ctx.attrs["keep_dims"]
    out_shape = np.array([1 if d in reduced else shape[d] for d in range(rank)] if keep_dims else shape[kept], np.int64)
    coords = indices[:, kept]
    if coords.shape[1]:
        unique, group = np.unique(coords, axis=0, return_inverse=True)
    else:
        unique, group = np.zeros((min(len(indices), 1), 0), np.int64), np.zeros(len(indices), np.int64)
    if keep_dims:
        full = np.zeros((len(unique), rank), np.int64)
        full[:, kept] = unique
        unique = full
    order = _row_major_order(indices)
    return unique, group.reshape(-1), out_shape, order


def _reduced_values(values, group, count, order, reduce):
    out = np.zeros(count, values.dtype)
    if reduce is np.maximum:
        out[:] = np.iinfo(values.dtype).min if values.dtype.kind in "iu" else -np.inf
    reduce.at(out, group[order], values[order])
    return out


def _reduction(reduce, sparse):
    def run(ctx, indices, values, shape, axes):
        unique, group, out_shape, order = _groups(ctx, indices, values, shape, axes)
        reduced = _reduced_values(values, group, len(unique), order, reduce)
        if sparse:
            return unique, reduced, out_shape
        dense = np.zeros(tuple(out_shape), values.dtype)
        if unique.shape[1]:
            dense[tuple(unique.T)] = reduced
        elif reduced.size:  # every axis reduced, without keep_dims: the one group is the scalar
            dense[()] = reduced[0]
        return dense

    return run


for _name, _reduce in (("Sum", np.add), ("Max", np.maximum)):
    kernel(f"SparseReduce{_name}")(_reduction(_reduce, sparse=False))
    kernel(f"SparseReduce{_name}Sparse")(_reduction(_reduce, sparse=True))
