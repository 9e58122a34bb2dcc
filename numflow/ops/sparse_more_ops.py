"""More of ``tf.sparse``: from_dense, transpose, softmax (op ``SparseSoftmax``, with its gradient),
reset_shape, merge, to_indicator, expand_dims, eye and mask, built from the same ops TensorFlow 2.21
builds them from, under its name scopes (``tf.sparse_*`` in TensorFlow 1); and ``tf.sparse_matmul`` (op
``SparseMatMul``, a dense product with sparsity hints). Kernel of ``SparseSoftmax``:
``numflow_kernels/reference_sparse_struct.py``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     st = tf.sparse.transpose(tf.sparse.from_dense([[0, 5], [7, 0]]))
...     tf.Session().run(st.values).tolist()
[7, 5]
"""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.math_grad import _matmul_grad
from numflow.ops.math_ops import _inner_dims
from numflow.ops.op_util import _out, check_dtype, check_rank, static_value
from numflow.ops.sparse_math_ops import as_sparse, check_sparse_inputs, sparse_reduce_sum, sparse_reorder


def from_dense(tensor, name=None):
    """The non-zero elements of the dense ``tensor`` as a SparseTensor (in row-major order)."""
    from numflow.ops.scatter_ops import gather_nd
    from numflow.ops.selection_ops import where_v2

    with get_default_graph().name_scope(name or "dense_to_sparse"):
        tensor = convert_to_tensor(tensor)
        indices = where_v2(math_ops.not_equal(tensor, array_ops.zeros_like(tensor)))
        return SparseTensor(indices, gather_nd(tensor, indices), array_ops.shape(tensor, out_type=dtypes.int64))


def sparse_transpose(sp_input, perm=None, name=None):
    """``sp_input`` with its dimensions permuted by ``perm`` (reversed by default), reordered row-major."""
    from numflow.ops.selection_ops import gather

    sp_input = as_sparse(sp_input)
    with get_default_graph().name_scope(name or "SparseTranspose"):
        if perm is None:
            rank = sp_input.shape.ndims
            if rank is not None:
                perm = rank - 1 - np.arange(0, rank, 1)
            else:
                rank = array_ops.rank(sp_input.indices[0])
                perm = rank - 1 - math_ops.range(0, rank, 1)
        indices = array_ops.transpose(gather(array_ops.transpose(sp_input.indices), perm))
        known_perm = static_value(convert_to_tensor(perm))
        if known_perm is not None and sp_input.shape.is_fully_defined():
            old = sp_input.shape.as_list()
            dense_shape = [old[p] for p in known_perm]
        else:
            dense_shape = gather(sp_input.dense_shape, perm)
        return sparse_reorder(SparseTensor(indices, sp_input.values, dense_shape))


@declare("SparseSoftmax")
def _softmax_infer(op):
    indices, values, shape = op.inputs
    check_sparse_inputs(indices, values, shape)
    return [(values.dtype.base_dtype, values.shape)]


def sparse_softmax(sp_input, name=None):
    """Softmax over the last dimension of each row of the ``sp_input`` (in canonical order): the
    missing entries take no part (they are not zeros)."""
    sp_input = as_sparse(sp_input)
    with get_default_graph().name_scope(name or "SparseSoftmax"):
        values = _out("SparseSoftmax", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                      name="SparseSoftmax")[0]
        return SparseTensor(sp_input.indices, values, sp_input.dense_shape)


@register_gradient("SparseSoftmax")
def _softmax_grad(op, grad):
    """``(grad - sum(grad * softmax) over the row) * softmax``, each row's sum gathered back to its entries."""
    from numflow.ops.scatter_ops import gather_nd

    indices, shape = op.inputs[0], op.inputs[2]
    softmax = op.outputs[0]
    row_sums = sparse_reduce_sum(SparseTensor(indices, softmax * grad, shape), [-1], keepdims=True)
    row_of = array_ops.concat([indices[:, :-1], array_ops.zeros_like(indices[:, -1:])], 1)
    return [None, (grad - gather_nd(row_sums, row_of)) * softmax, None]


def sparse_reset_shape(sp_input, new_shape=None):
    """``sp_input`` with dense shape ``new_shape`` (no smaller than its own), or its tightest shape."""
    from numflow.ops.check_ops import assert_equal, assert_less_equal
    from numflow.ops.control_flow_ops import with_dependencies

    sp_input = as_sparse(sp_input)
    indices, values = array_ops.identity(sp_input.indices), array_ops.identity(sp_input.values)
    in_shape = array_ops.identity(sp_input.dense_shape)
    if new_shape is None:
        low_bound = math_ops.reduce_max(indices, axis=0)
        return SparseTensor(indices, values, math_ops.maximum(
            constant(0, dtype=dtypes.int64), math_ops.add(low_bound, array_ops.ones_like(in_shape))))
    shape = convert_to_tensor(new_shape)
    shape.shape.assert_has_rank(1)
    shape = math_ops.cast(shape, dtypes.int64)
    if shape.shape.ndims is not None:
        shape.shape.dims[0].assert_is_compatible_with(in_shape.shape.dims[0])
    known = static_value(shape)
    if known is not None and sp_input.shape.is_fully_defined():
        own = np.array(sp_input.shape.as_list())
        if not np.all(own <= known):
            raise ValueError(f"Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                             f"({own}), sp_input.shape ({known}).")
        return SparseTensor(indices, values, known)
    shape = with_dependencies([assert_equal(array_ops.shape(in_shape), array_ops.shape(shape))], shape)
    shape = with_dependencies([assert_less_equal(in_shape, shape)], shape)
    return SparseTensor(indices, values, shape)


def _check_vocab_sizes(sp_ids, vocab_size):
    """``sp_ids`` and ``vocab_size`` as lists, with TensorFlow's TypeErrors and ValueError."""
    sizes_ok = (Tensor, numbers.Integral)
    if isinstance(sp_ids, SparseTensor) or hasattr(sp_ids, "dense_shape"):
        if not isinstance(vocab_size, sizes_ok):
            raise TypeError(f"vocab_size has to be a Tensor or Python int. Found {type(vocab_size)}")
        sp_ids, vocab_size = [sp_ids], [vocab_size]
    else:
        if not hasattr(sp_ids, "__iter__"):
            raise TypeError(f"sp_ids has to be a SparseTensor or list thereof. Found {type(sp_ids)}")
        if not hasattr(vocab_size, "__iter__"):
            raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(vocab_size)}")
        for dim in vocab_size:
            if not isinstance(dim, sizes_ok):
                raise TypeError(f"vocab_size has to be a list of Tensors or Python ints. Found {type(dim)}")
    if len(sp_ids) != len(vocab_size):
        raise ValueError("sp_ids and vocab_size have to have equal lengths.")
    return list(sp_ids), list(vocab_size)


def sparse_merge(sp_ids, sp_values, vocab_size, name=None, already_sorted=False):
    """The ids of ``sp_ids`` (one SparseTensor, or a list for several new dimensions) as the last
    indices of ``sp_values``' values: a SparseTensor of dense shape ``sp_ids``' but the last, then
    ``vocab_size``."""
    sp_ids, vocab_size = _check_vocab_sizes(sp_ids, vocab_size)
    with get_default_graph().name_scope(name or "SparseMerge"):
        sp_ids = [as_sparse(s) for s in sp_ids]
        sp_values = as_sparse(sp_values)
        ids = [array_ops.expand_dims(s.values if s.dtype == dtypes.int64 else math_ops.cast(s.values, dtypes.int64),
                                     axis=1) for s in sp_ids]
        vocab_size = [math_ops.cast(x, dtypes.int64) for x in vocab_size]
        indices = array_ops.concat([sp_ids[0].indices[:, :-1], *ids], 1)
        shape = array_ops.concat([sp_ids[0].dense_shape[:-1], vocab_size], 0)
        result = SparseTensor(indices, sp_values.values, shape)
        if already_sorted:
            return result
        ordered = sparse_reorder(result)
        return SparseTensor(ordered.indices, ordered.values, shape)


def sparse_to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor, one more dimension of ``vocab_size``: True at each id ``sp_input`` holds
    in a row."""
    from numflow.ops.sparse_ops import sparse_tensor_to_dense

    sp_input = as_sparse(sp_input)
    with get_default_graph().name_scope(name or "SparseToIndicator") as scope:
        count = array_ops.shape(sp_input.indices)[0]
        flags = SparseTensor(sp_input.indices, array_ops.fill(array_ops.expand_dims(count, 0), True),
                             sp_input.dense_shape)
        merged = sparse_merge(sp_input, flags, vocab_size, scope)
        return sparse_tensor_to_dense(merged, default_value=False, validate_indices=False, name=scope)


def sparse_expand_dims(sp_input, axis=None, name=None):
    """``sp_input`` with a dimension of size 1 inserted at ``axis`` (last by default)."""
    from numflow.ops.selection_ops import where_v2
    from numflow.ops.slice_ops import slice as slice_

    rank = sp_input.dense_shape.shape.dims[0].value if sp_input.dense_shape.shape.ndims else None
    if rank is None:
        rank = array_ops.shape(sp_input.dense_shape)[0]
    axis = -1 if axis is None else axis
    with get_default_graph().name_scope(name or "expand_dims"):
        if isinstance(axis, numbers.Integral):
            axis = convert_to_tensor(axis, name="axis", dtype=dtypes.int32)
        elif not isinstance(axis, Tensor):
            raise TypeError("axis must be an integer value in range [-rank(sp_input) - 1, rank(sp_input)]")
        axis = where_v2(axis >= 0, axis, axis + rank + 1)
        count = array_ops.shape(sp_input.indices)[0]
        indices = array_ops.concat([slice_(sp_input.indices, [0, 0], [-1, axis]),
                                    array_ops.zeros([count, 1], dtype=dtypes.int64),
                                    slice_(sp_input.indices, [0, axis], [-1, -1])], axis=1)
        shape = array_ops.concat([slice_(sp_input.dense_shape, [0], [axis]),
                                  convert_to_tensor([1], name="new_shape", dtype=dtypes.int64),
                                  slice_(sp_input.dense_shape, [axis], [-1])], axis=0)
        return SparseTensor(indices=indices, values=sp_input.values, dense_shape=shape)


def _int64(value, name):
    if isinstance(value, numbers.Integral):
        return convert_to_tensor(value, name=name, dtype=dtypes.int64)
    if not isinstance(value, Tensor):
        raise TypeError(f"{name} must be an integer value")
    return value if value.dtype == dtypes.int64 else math_ops.cast(value, dtypes.int64)


def sparse_eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A sparse identity matrix of ``num_rows`` x ``num_columns`` (square by default)."""
    with get_default_graph().name_scope(name or "eye"):
        num_rows = _int64(num_rows, "num_rows")
        num_columns = num_rows if num_columns is None else _int64(num_columns, "num_columns")
        size = math_ops.minimum(num_rows, num_columns)
        diagonal = math_ops.range(size, dtype=dtypes.int64)
        return SparseTensor(indices=array_ops.stack([diagonal, diagonal], axis=1),
                            values=array_ops.ones(size, dtype=dtype), dense_shape=[num_rows, num_columns])


def sparse_mask(a, mask_indices, name=None):
    """The slices of the IndexedSlices ``a`` whose indices are not in ``mask_indices``."""
    from numflow.ops.selection_ops import gather
    from numflow.ops.set_ops import setdiff1d

    with get_default_graph().name_scope(name or "sparse_mask") as scope:
        out_indices, to_gather = setdiff1d(a.indices, mask_indices)
        return IndexedSlices(gather(a.values, to_gather, name=scope), out_indices, a.dense_shape)


@declare("SparseMatMul")
def _sparse_matmul_infer(op):
    a, b = op.inputs
    for x, param in ((a, "a"), (b, "b")):
        check_dtype(x, (dtypes.float32,), param)
        check_rank(x.shape, 2)
    ad = a.shape.dim_values if a.shape.ndims is not None else [None, None]
    bd = b.shape.dim_values if b.shape.ndims is not None else [None, None]
    m, n = _inner_dims(ad, bd, op._attrs["transpose_a"], op._attrs["transpose_b"])
    return [(dtypes.float32, TensorShape([m, n]))]


def sparse_matmul(a, b, transpose_a=False, transpose_b=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """``tf.sparse_matmul``: the float32 matrix product ``a @ b`` (op ``SparseMatMul``), the ``*_is_sparse``
    flags hinting that an operand holds many zeros (the product is the same either way)."""
    a = convert_to_tensor(a, name="a")
    b = convert_to_tensor(b, name="b")
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b), "a_is_sparse": bool(a_is_sparse),
             "b_is_sparse": bool(b_is_sparse)}
    return _out("SparseMatMul", [a, b], attrs, name=name or "SparseMatMul")[0]


register_gradient("SparseMatMul")(_matmul_grad)  # the product's gradient: the hints change nothing
