"""Reshaping the entries of SparseTensors: sparse_retain, sparse_fill_empty_rows (op ``SparseFillEmptyRows``,
with its gradient), sparse_concat (``SparseConcat``), sparse_maximum/minimum (``SparseSparseMaximum``/
``Minimum``), sparse_slice (``SparseSlice``, with its gradient) and sparse_split (``SparseSplit``), as
TensorFlow builds them. Kernels: ``numflow_kernels/reference_sparse_struct.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_rank
from numflow.ops.sparse_math_ops import as_sparse, check_sparse_inputs


def sparse_retain(sp_input, to_retain):
    """The entries of ``sp_input`` where the bool vector ``to_retain`` is true (a ``Where`` and two gathers)."""
    from numflow.ops.selection_ops import gather, where_v2

    sp_input = as_sparse(sp_input)
    to_retain = convert_to_tensor(to_retain)
    to_retain.shape.assert_has_rank(1)
    values_rows = dimension_value(sp_input.values.shape[0]) if sp_input.values.shape.ndims else None
    retain_rows = dimension_value(to_retain.shape[0])
    if None not in (values_rows, retain_rows) and values_rows != retain_rows:
        raise ValueError(f"Dimensions {values_rows} and {retain_rows} are not compatible")
    where_true = array_ops.reshape(where_v2(to_retain), [-1])
    return SparseTensor(gather(sp_input.indices, where_true), gather(sp_input.values, where_true),
                        array_ops.identity(sp_input.dense_shape))


@declare("SparseFillEmptyRows")
def _fill_empty_rows_infer(op):
    indices, values, shape, default = op.inputs
    check_sparse_inputs(indices, values, shape)
    check_rank(default.shape, 0)
    rank = dimension_value(indices.shape[1]) if indices.shape.ndims == 2 else None
    return [(dtypes.int64, TensorShape([None, rank])), (values.dtype, TensorShape([None])),
            (dtypes.bool, TensorShape([None])), (dtypes.int64, TensorShape([None]))]


@declare("SparseFillEmptyRowsGrad")
def _fill_empty_rows_grad_infer(op):
    reverse_map, grad = op.inputs
    return [(grad.dtype, reverse_map.shape), (grad.dtype, TensorShape([]))]


def sparse_fill_empty_rows(sp_input, default_value, name=None):
    """``sp_input`` with ``default_value`` at ``[row, 0, ...]`` of each row that has no value, and the bool vector
    of those rows (op ``SparseFillEmptyRows``)."""
    sp_input = as_sparse(sp_input)
    with get_default_graph().name_scope(name or "SparseFillEmptyRows"):
        default_value = convert_to_tensor(default_value, dtype=sp_input.values.dtype.base_dtype)
        indices, values, empty_rows, _ = _out("SparseFillEmptyRows", [sp_input.indices, sp_input.values,
                                                                       sp_input.dense_shape, default_value],
                                              name="SparseFillEmptyRows")
        return SparseTensor(indices, values, sp_input.dense_shape), empty_rows


@register_gradient("SparseFillEmptyRows")
def _fill_empty_rows_grad(op, _, values_grad, *unused):
    """TensorFlow's: each input value the gradient at its output position; the default value the rest."""
    values, default = get_default_graph().create_op("SparseFillEmptyRowsGrad", [op.outputs[3], values_grad],
                                                    name="SparseFillEmptyRowsGrad").outputs
    return [None, values, None, default]


# -- SparseConcat ----------------------------------------------------------------------------------
@declare("SparseConcat")
def _concat_infer(op):
    count = len(op.inputs) // 3
    for i in range(count):
        check_sparse_inputs(op.inputs[i], op.inputs[count + i], op.inputs[2 * count + i])
    rank = dimension_value(op.inputs[2 * count].shape[0]) if op.inputs[2 * count].shape.ndims == 1 else None
    return [(dtypes.int64, TensorShape([None, rank])), (op.inputs[count].dtype, TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """The SparseTensors ``sp_inputs`` joined along ``axis`` (op ``SparseConcat``), their entries in row-major
    order (in input order for ``axis`` 0); with ``expand_nonconcat_dim`` the other dimensions are the largest."""
    if concat_dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'concat_dim'")
        axis = concat_dim
    if expand_nonconcat_dims is not None:
        expand_nonconcat_dim = expand_nonconcat_dims
    sp_inputs = [as_sparse(s) for s in sp_inputs]
    if len(sp_inputs) == 1:
        return sp_inputs[0]
    shapes = [s.dense_shape for s in sp_inputs]
    if expand_nonconcat_dim:
        from numflow.ops import math_ops

        largest = math_ops.reduce_max(array_ops.concat([array_ops.reshape(s, [1, -1]) for s in shapes], 0), 0)
        shapes = [array_ops.concat([largest[:axis], s[-1:] if axis == -1 else s[axis:axis + 1],
                                    [] if axis == -1 else largest[axis + 1:]], 0) for s in shapes]
    indices, values, out_shape = _out(
        "SparseConcat", [s.indices for s in sp_inputs] + [s.values for s in sp_inputs] + shapes,
        {"concat_dim": int(axis), "N": len(sp_inputs)}, name=name or "SparseConcat")
    static_shapes = [s.shape for s in sp_inputs]
    if all(s.ndims is not None for s in static_shapes):
        dims = ([max(s.dim_values[d] for s in static_shapes) for d in range(static_shapes[0].ndims)]
                if expand_nonconcat_dim else static_shapes[0].as_list())
        along = [s.dim_values[axis] for s in static_shapes]
        dims[axis] = None if None in along else sum(along)
        static = TensorShape(dims)
    else:
        static = TensorShape(None)
    if all(s.is_fully_defined() for s in static_shapes):
        return SparseTensor(indices, values, convert_to_tensor(static.as_list(), dtype=dtypes.int64))
    result = SparseTensor(indices, values, out_shape)
    result.set_shape(static)
    return result


# -- SparseSparseMaximum, SparseSparseMinimum ---------------------------------------------------------
@declare("SparseSparseMaximum")
@declare("SparseSparseMinimum")
def _sparse_sparse_infer(op):
    a_indices, a_values, a_shape, b_indices, b_values, b_shape = op.inputs
    check_sparse_inputs(a_indices, a_values, a_shape)
    check_sparse_inputs(b_indices, b_values, b_shape)
    rank = dimension_value(a_indices.shape[1]) if a_indices.shape.ndims == 2 else None
    return [(dtypes.int64, TensorShape([None, rank])), (a_values.dtype, TensorShape([None]))]


def _sparse_sparse(op_type, sp_a, sp_b, name):
    sp_a, sp_b = as_sparse(sp_a), as_sparse(sp_b)
    with get_default_graph().name_scope(name or op_type) as scope:
        indices, values = _out(op_type, [sp_a.indices, sp_a.values, sp_a.dense_shape, sp_b.indices, sp_b.values,
                                         sp_b.dense_shape], name=scope)
    return SparseTensor(indices, values, sp_a.dense_shape)


def sparse_maximum(sp_a, sp_b, name=None):
    """The elementwise maximum of two SparseTensors of one shape, a missing value counting as 0
    (op ``SparseSparseMaximum``)."""
    return _sparse_sparse("SparseSparseMaximum", sp_a, sp_b, name)


def sparse_minimum(sp_a, sp_b, name=None):
    """The elementwise minimum of two SparseTensors of one shape, a missing value counting as 0
    (op ``SparseSparseMinimum``)."""
    return _sparse_sparse("SparseSparseMinimum", sp_a, sp_b, name)


# -- SparseSlice, SparseSplit -------------------------------------------------------------------------
@declare("SparseSlice")
def _slice_infer(op):
    indices, values, shape, start, size = op.inputs
    check_sparse_inputs(indices, values, shape)
    check_rank(start.shape, 1)
    check_rank(size.shape, 1)
    rank = dimension_value(shape.shape[0]) if shape.shape.ndims == 1 else None
    return [(dtypes.int64, TensorShape([None, rank])), (values.dtype, TensorShape([None])),
            (dtypes.int64, TensorShape([rank]))]


@declare("SparseSliceGrad")
def _slice_grad_infer(op):
    grad, indices = op.inputs[:2]
    return [(grad.dtype, TensorShape([dimension_value(indices.shape[0]) if indices.shape.ndims == 2 else None]))]


def sparse_slice(sp_input, start, size, name=None):
    """The entries of ``sp_input`` inside the box ``[start, start + size)`` (clipped to its shape), moved to
    start at the origin (op ``SparseSlice``)."""
    sp_input = as_sparse(sp_input)
    start = convert_to_tensor(start, dtype=dtypes.int64)
    size = convert_to_tensor(size, dtype=dtypes.int64)
    with get_default_graph().name_scope(name or "SparseSlice") as scope:
        indices, values, shape = _out("SparseSlice", [sp_input.indices, sp_input.values, sp_input.dense_shape,
                                                      start, size], name=scope)
        return SparseTensor(indices, values, shape)


@register_gradient("SparseSlice")
def _slice_grad(op, *grads):
    """TensorFlow's: each input value gets the gradient of its entry in the slice, 0 outside it."""
    indices, values, _, start, _ = op.inputs
    values_grad = get_default_graph().create_op("SparseSliceGrad", [grads[1], indices, start, op.outputs[0]],
                                                name="SparseSliceGrad").outputs[0]
    values_grad.set_shape(values.shape)
    return [None, values_grad, None, None, None]


@declare("SparseSplit")
def _split_infer(op):
    axis, indices, values, shape = op.inputs
    check_rank(axis.shape, 0)
    check_sparse_inputs(indices, values, shape)
    rank = dimension_value(shape.shape[0]) if shape.shape.ndims == 1 else None
    count = op._attrs["num_split"]
    return ([(dtypes.int64, TensorShape([None, rank]))] * count + [(values.dtype, TensorShape([None]))] * count
            + [(dtypes.int64, TensorShape([rank]))] * count)


def sparse_split(keyword_required=None, sp_input=None, num_split=None, axis=None, name=None, split_dim=None):
    """``sp_input`` cut along ``axis`` into ``num_split`` SparseTensors, the first ``size % num_split`` of them
    one longer (op ``SparseSplit``); arguments by keyword only, as TensorFlow asks."""
    if keyword_required is not None:
        raise ValueError("Keyword arguments are required for this function.")
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None and split_dim is None:
        raise ValueError("axis is required")
    axis = axis if axis is not None else split_dim
    sp_input = as_sparse(sp_input)
    with get_default_graph().name_scope(name or "SparseSplit") as scope:
        axis = convert_to_tensor(axis, dtype=dtypes.int64, name="split_dim")
        outs = _out("SparseSplit", [axis, sp_input.indices, sp_input.values, sp_input.dense_shape],
                    {"num_split": int(num_split)}, name=scope)
    n = int(num_split)
    return [SparseTensor(outs[i], outs[n + i], outs[2 * n + i]) for i in range(n)]
