"""NumPy kernels of the sparse ops: SparseToDense, and the SparseSegment reductions with their gradients.

Spec: TensorFlow's ``sparse_to_dense_op.cc`` and ``segment_reduction_ops_impl.h``. SparseToDense
writes the values in index order (a repeated index keeps the last value); with
``validate_indices`` the indices must be sorted row-major without repeats, and they must always
lie inside the shape.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register


def kernel(op_type):
    return register(op_type, REFERENCE)


def _index_text(row):
    return "[" + ",".join(str(int(v)) for v in row) + "]"


def check_indices(indices, shape):
    """SparseTensor::IndicesValid, row by row: in bounds, then after the previous row (row-major, no
    repeats). TF's messages for the first row that fails."""
    for i in range(indices.shape[0]):
        row = indices[i]
        if ((row < 0) | (row >= shape)).any():
            raise ValueError(f"indices[{i}] = {_index_text(row)} is out of bounds: need 0 <= index < "
                             f"{_index_text(shape)}")
        if i:
            prev, cur = tuple(indices[i - 1]), tuple(row)
            if cur == prev:
                raise ValueError(f"indices[{i}] = {_index_text(row)} is repeated")
            if cur < prev:
                raise ValueError(f"indices[{i}] = {_index_text(row)} is out of order. Many sparse ops require "
                                 "sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy."
                                 "\n\n")


@kernel("SparseToDense")
def sparse_to_dense(ctx, indices, output_shape, values, default):
    if indices.ndim > 2:
        raise ValueError(f"sparse_indices should be a scalar, vector, or matrix, got shape {list(indices.shape)}")
    if output_shape.ndim != 1:
        raise ValueError(f"output_shape should be a vector, got shape {list(output_shape.shape)}")
    num_elems = indices.shape[0] if indices.ndim > 0 else 1
    num_dims = indices.shape[1] if indices.ndim > 1 else 1
    if not (values.ndim == 0 or values.shape == (num_elems,)):
        raise ValueError(f"sparse_values has incorrect shape {list(values.shape)}, should be [] or [{num_elems}]")
    if default.ndim != 0:
        raise ValueError(f"default_value should be a scalar, got shape {list(default.shape)}")
    if output_shape.size != num_dims:
        raise ValueError(f"output_shape has incorrect number of elements: {output_shape.size} should be: {num_dims}")
    rows = indices.reshape(num_elems, num_dims).astype(np.int64)
    shape = output_shape.astype(np.int64)
    if ctx.attrs["validate_indices"]:
        check_indices(rows, shape)
    elif ((rows < 0) | (rows >= shape)).any():
        raise ValueError(f"Indices are not valid (out of bounds).  Shape: {_index_text(shape)}")
    dense = np.full(tuple(shape), default, dtype=values.dtype)
    dense[tuple(rows.T)] = np.broadcast_to(values, (num_elems,))
    return dense
