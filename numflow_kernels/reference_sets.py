"""Kernels of ``tf.sets`` (``numflow/ops/set_ops.py``): the sets of each group (all indices but the last) of
dense or sparse inputs, combined and written out sorted as a sparse result whose last dimension is the
largest result's size, as TensorFlow's ``set_kernels.cc``."""

import itertools

import numpy as np

from numflow_kernels.reference_math import kernel


def _dense_groups(x):
    flat = x.reshape(-1, x.shape[-1]) if x.size else np.zeros((int(np.prod(x.shape[:-1])), 0), x.dtype)
    return x.shape[:-1], {index: set(row.tolist()) for index, row in zip(np.ndindex(*x.shape[:-1]), flat)}


def _sparse_groups(indices, values, shape, validate):
    shape = tuple(int(d) for d in shape)
    if len(shape) < 2:
        raise ValueError(f"Invalid input rank {len(shape)}: sets need a rank of at least 2.")
    rows = [tuple(r) for r in indices.tolist()]
    if validate:
        for k, row in enumerate(rows):
            if any(not 0 <= i < d for i, d in zip(row, shape)):
                raise ValueError(f"Invalid indices[{k}] = {list(row)} for shape {list(shape)}")
            if k and row <= rows[k - 1]:
                raise ValueError(f"indices[{k}] = {list(row)} is out of order. Many sparse ops require sorted "
                                 "indices.")
    groups = {}
    for row, value in zip(rows, values.tolist()):
        groups.setdefault(row[:-1], set()).add(value)
    return shape[:-1], groups


def _combine(group_a, group_b, operation):
    shape_a, sets_a = group_a
    shape_b, sets_b = group_b
    if tuple(shape_a) != tuple(shape_b):
        raise ValueError(f"Group shapes do not match: {list(shape_a)} vs {list(shape_b)}")
    results = {}
    for index in np.ndindex(*shape_a):
        a, b = sets_a.get(index, set()), sets_b.get(index, set())
        result = {"intersection": a & b, "union": a | b, "a-b": a - b, "b-a": b - a}[operation]
        if result:
            results[index] = sorted(result)
    width = max((len(r) for r in results.values()), default=0)
    indices = [list(index) + [j] for index, r in results.items() for j in range(len(r))]
    values = list(itertools.chain.from_iterable(results.values()))
    return (np.array(indices, np.int64).reshape(-1, len(shape_a) + 1), values,
            np.array(list(shape_a) + [width], np.int64))


def _values(values, dtype):
    """``values`` as an array of ``dtype`` (strings: one object element each, never a 2-D array of bytes)."""
    if dtype.kind != "O":
        return np.array(values, dtype=dtype)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@kernel("DenseToDenseSetOperation")
def dense_to_dense(ctx, a, b):
    indices, values, shape = _combine(_dense_groups(a), _dense_groups(b), ctx.attrs["set_operation"])
    return indices, _values(values, a.dtype), shape


@kernel("DenseToSparseSetOperation")
def dense_to_sparse(ctx, a, b_indices, b_values, b_shape):
    b = _sparse_groups(b_indices, b_values, b_shape, ctx.attrs["validate_indices"])
    indices, values, shape = _combine(_dense_groups(a), b, ctx.attrs["set_operation"])
    return indices, _values(values, a.dtype), shape


@kernel("SparseToSparseSetOperation")
def sparse_to_sparse(ctx, a_indices, a_values, a_shape, b_indices, b_values, b_shape):
    validate = ctx.attrs["validate_indices"]
    a = _sparse_groups(a_indices, a_values, a_shape, validate)
    b = _sparse_groups(b_indices, b_values, b_shape, validate)
    indices, values, shape = _combine(a, b, ctx.attrs["set_operation"])
    return indices, _values(values, a_values.dtype), shape


@kernel("SetSize")
def set_size(ctx, indices, values, shape):
    group_shape, groups = _sparse_groups(indices, values, shape, ctx.attrs["validate_indices"])
    out = np.zeros(group_shape, np.int32)
    for index, members in groups.items():
        out[index] = len(members)
    return out
