"""Array ops of ``tf.compat.v1`` beyond ``array_ops``: ``ensure_shape`` (op ``EnsureShape``), ``repeat``,
``shape_n`` (op ``ShapeN``), ``parallel_stack`` (op ``ParallelConcat``), ``invert_permutation``,
``batch_gather``, ``unique_with_counts`` (op ``UniqueWithCounts``) and ``edit_distance`` (op
``EditDistance``), composed as TensorFlow composes them. Kernels: ``numflow_kernels/reference_array_more.py``.
"""

import collections

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, constant_value, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape, dimension_value
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_composites import broadcast_to
from numflow.ops.op_util import _out, check_dtype, check_rank
from numflow.ops.selection_ops import gather
from numflow.ops.sequence_ops import boolean_mask, sequence_mask
from numflow.ops.tile_pad_split_ops import tile


@declare("EnsureShape")
def _ensure_shape_infer(op):
    (x,) = op.inputs
    return [(x.dtype, x.shape.merge_with(op._attrs["shape"]))]


def ensure_shape(x, shape, name=None):
    """``x``, checked to have a shape compatible with ``shape`` (``None`` dims match any size): ValueError
    now where the static shapes differ, InvalidArgumentError when the graph runs otherwise (op ``EnsureShape``).
    """
    shape = as_shape(shape)
    with get_default_graph().name_scope(name or "EnsureShape") as scope:
        x = convert_to_tensor(x, name="input")
        return _out("EnsureShape", [x], {"shape": shape}, name=scope)[0]


@gradient("EnsureShape")
def _ensure_shape_grad(op, grad):
    return [grad]


@declare("ShapeN")
def _shape_n_infer(op):
    return [(op._attrs["out_type"], TensorShape([x.shape.ndims])) for x in op.inputs]


def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002 - TensorFlow's argument name
    """The shapes of the tensors ``input``, as 1-D tensors of ``out_type`` (op ``ShapeN``)."""
    out_type = dtypes.as_dtype(out_type)
    if out_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value for attr 'out_type' of {out_type.name} is not in the list of allowed values: int32, "
                        "int64")
    with get_default_graph().name_scope(name or "ShapeN") as scope:
        tensors = [convert_to_tensor(x) for x in input]
        return list(_out("ShapeN", tensors, {"out_type": out_type, "N": len(tensors)}, name=scope))


@declare("ParallelConcat")
def _parallel_concat_infer(op):
    return [(op.inputs[0].dtype, op._attrs["shape"])]


def parallel_stack(values, name="parallel_stack"):
    """``stack(values)`` along a new first axis, every input's shape known (op ``ParallelConcat``)."""
    with get_default_graph().name_scope(name):
        value_shape = convert_to_tensor(values[0]).shape
        output_shape = TensorShape([len(values)]).concatenate(value_shape)
        expanded = [array_ops.expand_dims(v, 0) for v in values]
        with get_default_graph().name_scope("ParallelConcat") as scope:
            return _out("ParallelConcat", expanded, {"shape": output_shape, "N": len(values)}, name=scope)[0]


def invert_permutation(x, name=None):
    """The inverse of the permutation ``x``: ``y[x[i]] = i`` (op ``InvertPermutation``)."""
    with get_default_graph().name_scope(name or "InvertPermutation") as scope:
        return _out("InvertPermutation", [convert_to_tensor(x, name="x")], name=scope)[0]


UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


@declare("UniqueWithCounts")
def _unique_with_counts_infer(op):
    (x,) = op.inputs
    check_rank(x.shape, 1)
    out_idx = op._attrs["out_idx"]
    return [(x.dtype, TensorShape([None])), (out_idx, x.shape), (out_idx, TensorShape([None]))]


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """``(y, idx, count)``: the distinct elements of the 1-D ``x`` in the order they first appear, each
    element's position in ``y``, and how often each of ``y`` occurs (op ``UniqueWithCounts``)."""
    with get_default_graph().name_scope(name or "UniqueWithCounts") as scope:
        x = convert_to_tensor(x, name="x")
        out_idx = dtypes.as_dtype(out_idx)
        if out_idx not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Value for attr 'out_idx' of {out_idx.name} is not in the list of allowed values: "
                            "int32, int64")
        return UniqueWithCounts(*_out("UniqueWithCounts", [x], {"out_idx": out_idx}, name=scope))


not_differentiable("ShapeN")


# -- repeat: TensorFlow's repeat_with_axis -----------------------------------------------------------------
def _int32(tensor, name):
    tensor = convert_to_tensor(tensor, name=name, preferred_dtype=dtypes.int32)
    if not tensor.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: {name}) must be of type integer. Received `tensor` = {tensor} "
                        f"of dtype: {tensor.dtype.name}")
    return math_ops.cast(tensor, dtypes.int32)


def _tile_one_dimension(data, axis, multiple):
    multiples = [1] * data.shape.ndims
    multiples[axis] = multiple
    return tile(data, multiples)


def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` with each element (or slice along ``axis``) repeated ``repeats`` times, as ``np.repeat``.

    >>> import numflow as tf
    >>> tf.Session().run(tf.repeat([1, 2], [2, 3])).tolist()
    [1, 1, 2, 2, 2]
    """
    if axis is None:
        input = array_ops.reshape(input, [-1])
        axis = 0
    if not isinstance(axis, int):
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type {type(axis).__name__}")
    with get_default_graph().name_scope(name or "Repeat"):
        data = convert_to_tensor(input, name="data")
        static_repeats = constant_value(repeats) if isinstance(repeats, Tensor) else np.asarray(repeats)
        repeats = _int32(repeats, "repeats")
        repeats.shape.with_rank_at_most(1)
        if data.shape.ndims is None:
            raise ValueError("repeat needs `input` of known rank.")
        if data.shape.ndims == 0:
            data = array_ops.stack([data])
        data_shape = array_ops.shape(data, out_type=repeats.dtype)
        rank = data.shape.ndims
        if not -rank <= axis < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis %= rank
        if repeats.shape.num_elements() == 1:
            repeats = array_ops.reshape(repeats, [])
            tiled = _tile_one_dimension(array_ops.expand_dims(data, axis + 1), axis + 1, repeats)
            result_shape = array_ops.concat([data_shape[:axis], [repeats * data_shape[axis]], data_shape[axis + 1:]],
                                            axis=0)
            result = array_ops.reshape(tiled, result_shape)
            count, size = static_repeats, dimension_value(data.shape[axis])
            new_size = None if count is None or size is None else int(np.reshape(count, [])) * size
            result.set_shape(data.shape[:axis].concatenate([new_size]).concatenate(data.shape[axis + 1:]))
            return result
        if repeats.shape.ndims == 1:
            data.shape.dims[axis].assert_is_compatible_with(repeats.shape[0])
        repeats = broadcast_to(repeats, [data_shape[axis]])
        repeats_original = repeats
        if repeats.shape.ndims != axis + 1:
            broadcast_shape = array_ops.concat([data_shape[:axis + 1 - array_ops.rank(repeats)],
                                                array_ops.shape(repeats)], axis=0)
            repeats = broadcast_to(repeats, broadcast_shape)
            repeats.set_shape([None] * (axis + 1))
        max_repeat = math_ops.reduce_max(repeats, list(range(repeats.shape.ndims)))
        max_repeat = math_ops.maximum(convert_to_tensor(0, name="zero", dtype=max_repeat.dtype), max_repeat)
        mask = sequence_mask(repeats, max_repeat)
        tiled = _tile_one_dimension(array_ops.expand_dims(data, axis + 1), axis + 1, max_repeat)
        result = boolean_mask(tiled, mask)
        if axis:
            repeated_dim_size = math_ops.reduce_sum(repeats_original, math_ops.range(0, array_ops.rank(
                repeats_original), 1))
            result = array_ops.reshape(result, array_ops.concat(
                [data_shape[:axis], [repeated_dim_size], data_shape[axis + 1:]], axis=0))
        new_axis_size = 0 if dimension_value(repeats.shape[0]) == 0 else None
        size = dimension_value(data.shape[axis])
        if axis and static_repeats is not None and size is not None:  # TensorFlow folds the reshape's size
            new_axis_size = int(np.broadcast_to(static_repeats, [size]).sum())
        result.set_shape(data.shape[:axis].concatenate([new_axis_size]).concatenate(data.shape[axis + 1:]))
        return result


# -- batch_gather: TensorFlow's _batch_gather --------------------------------------------------------------
def batch_gather(params, indices, name=None):
    """``params`` gathered along the axis after the leading batch axes shared with ``indices``
    (``indices``' rank minus one): ``result[b, i] = params[b, indices[b, i]]``."""
    with get_default_graph().name_scope(name or "BatchGather"):
        indices = convert_to_tensor(indices, name="indices")
        params = convert_to_tensor(params, name="params")
        if indices.shape.ndims is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        batch_dims = indices.shape.ndims - 1
        if params.shape.ndims is not None and batch_dims >= params.shape.ndims:
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`params`) = "
                             f"{params.shape.ndims}")
        return _batch_gather(params, indices, batch_dims)


def _batch_gather(params, indices, batch_dims):
    indices_ndims = indices.shape.ndims
    indices_shape = array_ops.shape(indices)
    params_shape = array_ops.shape(params)
    batch_indices = indices
    indices_dtype = indices.dtype.base_dtype
    accum_dim_value = array_ops.ones((), dtype=indices_dtype)
    casted_params_shape = math_ops.cast(params_shape, indices_dtype)
    for dim in range(batch_dims, 0, -1):
        dim_value = casted_params_shape[dim - 1]
        accum_dim_value *= casted_params_shape[dim]
        start = array_ops.zeros((), dtype=indices_dtype)
        step = array_ops.ones((), dtype=indices_dtype)
        dim_indices = math_ops.range(start, dim_value, step) * accum_dim_value
        dim_shape = array_ops.stack([1] * (dim - 1) + [dim_value] + [1] * (indices_ndims - dim), axis=0)
        batch_indices += array_ops.reshape(dim_indices, dim_shape)
    flat_indices = array_ops.reshape(batch_indices, [-1])
    outer_shape = params_shape[batch_dims + 1:]
    flat_inner_shape = math_ops.reduce_prod(params_shape[:batch_dims + 1], [0], keepdims=False)
    flat_params = array_ops.reshape(params, array_ops.concat([[flat_inner_shape], outer_shape], axis=0))
    flat_result = gather(flat_params, flat_indices)
    result = array_ops.reshape(flat_result, array_ops.concat([indices_shape, outer_shape], axis=0))
    final_shape = indices.shape[:batch_dims].merge_with(params.shape[:batch_dims])
    final_shape = final_shape.concatenate(indices.shape.dims[batch_dims:])
    result.set_shape(final_shape.concatenate(params.shape[batch_dims + 1:]))
    return result


# -- edit_distance -----------------------------------------------------------------------------------------
@declare("EditDistance")
def _edit_distance_infer(op):
    hyp_indices, hyp_values, hyp_shape, truth_indices, truth_values, truth_shape = op.inputs
    for t in (hyp_indices, truth_indices):
        check_dtype(t, (dtypes.int64,), "indices")
    hyp, truth = constant_value(hyp_shape), constant_value(truth_shape)
    if hyp is not None and truth is not None:
        if len(hyp) != len(truth):
            raise ValueError(f"Shapes must be equal rank, but are {len(truth)} and {len(hyp)}")
        return [(dtypes.float32, TensorShape([max(int(a), int(b)) for a, b in zip(hyp[:-1], truth[:-1])]))]
    rank = dimension_value(hyp_shape.shape[0]) if hyp_shape.shape.ndims == 1 else None
    return [(dtypes.float32, TensorShape(None if rank is None else [None] * (rank - 1)))]


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance between the sequences of two SparseTensors, each sequence the values
    along their last dimension; divided by the truth's length when ``normalize`` (op ``EditDistance``).

    >>> import numflow as tf
    >>> hyp = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
    >>> truth = tf.SparseTensor([[0, 0]], ["a"], [1, 1])
    >>> tf.Session().run(tf.edit_distance(hyp, truth)).tolist()
    [1.0]
    """
    if not isinstance(hypothesis, SparseTensor | SparseTensorValue):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor | SparseTensorValue):
        raise TypeError("Truth must be a SparseTensor.")
    graph = get_default_graph()
    with graph.name_scope(name or "EditDistance") as scope:
        inputs = [convert_to_tensor(t) for t in (hypothesis.indices, hypothesis.values, hypothesis.dense_shape,
                                                 truth.indices, truth.values, truth.dense_shape)]
        if inputs[1].dtype.base_dtype != inputs[4].dtype.base_dtype:
            raise TypeError(f"Input 'truth_values' of 'EditDistance' Op has type {inputs[4].dtype.name} that does "
                            f"not match type {inputs[1].dtype.name} of argument 'hypothesis_values'.")
        return _out("EditDistance", inputs, {"normalize": bool(normalize)}, name=scope)[0]


not_differentiable("EditDistance")
