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


# -- sparse segment reductions ------------------------------------------------------------------
def _segment_checks(rows, indices, segment_ids):
    if indices.ndim != 1:
        raise ValueError("indices should be a vector.")
    if segment_ids.ndim != 1:
        raise ValueError("segment_ids should be a vector.")
    if indices.shape != segment_ids.shape:
        raise ValueError("segment_ids and indices should have same size.")
    bad = np.flatnonzero((indices < 0) | (indices >= rows))
    if bad.size:
        raise ValueError(f"Bad: indices[{bad[0]}] == {int(indices[bad[0]])} out of range [0, {rows})")
    if segment_ids.size and (segment_ids[0] < 0 or (np.diff(segment_ids) < 0).any()):
        raise ValueError("segment ids are not increasing" if segment_ids[0] >= 0 else "segment ids must be >= 0")


def _segment_scale(segment_ids, num_segments, mode, dtype):
    """Each segment's divisor's reciprocal: 1 (sum), 1 / count (mean), 1 / sqrt(count) (sqrtn)."""
    counts = np.bincount(segment_ids, minlength=num_segments).astype(np.float64)
    counts[counts == 0] = 1
    scale = {"sum": np.ones_like(counts), "mean": 1 / counts, "sqrtn": 1 / np.sqrt(counts)}[mode]
    return scale.astype(dtype)


def _segment_reduction(mode):
    def run(ctx, data, indices, segment_ids):
        _segment_checks(data.shape[0], indices, segment_ids)
        num_segments = int(segment_ids[-1]) + 1 if segment_ids.size else 0
        out = np.zeros((num_segments,) + data.shape[1:], data.dtype)
        np.add.at(out, segment_ids, data[indices])
        if mode == "sum":
            return out
        counts = np.bincount(segment_ids, minlength=num_segments).reshape((-1,) + (1,) * (data.ndim - 1))
        divisor = counts if mode == "mean" else np.sqrt(counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, out / divisor.astype(data.dtype), out).astype(data.dtype)

    return run


def _segment_grad(mode, sparse):
    def run(ctx, grad, indices, segment_ids, output_rows):
        rows = int(output_rows)
        _segment_checks(rows, indices, segment_ids)
        scale = _segment_scale(segment_ids, grad.shape[0], mode, grad.dtype)
        picked = grad[segment_ids] * scale[segment_ids].reshape((-1,) + (1,) * (grad.ndim - 1))
        if not sparse:
            out = np.zeros((rows,) + grad.shape[1:], grad.dtype)
            np.add.at(out, indices, picked)
            return out
        unique, position = np.unique(indices, return_inverse=True)
        values = np.zeros((unique.size,) + grad.shape[1:], grad.dtype)
        np.add.at(values, position, picked)
        return values, unique.astype(indices.dtype)

    return run


for _name, _mode in (("Sum", "sum"), ("Mean", "mean"), ("SqrtN", "sqrtn")):
    register(f"SparseSegment{_name}", REFERENCE)(_segment_reduction(_mode))
    register(f"SparseSegment{_name}Grad", REFERENCE)(_segment_grad(_mode, sparse=False))
    register(f"SparseSegment{_name}GradV2", REFERENCE)(_segment_grad(_mode, sparse=True))
