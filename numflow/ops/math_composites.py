"""Functions TensorFlow 1.x writes in Python over other ops, built here from the same ops in the same
order, so that their names, shapes and numbers are TensorFlow's: ``scalar_mul``, ``accumulate_n``,
``sort`` and ``argsort`` (on ``top_k``), ``confusion_matrix`` (a ``scatter_nd`` of ones),
``broadcast_to``, ``broadcast_static_shape`` and ``broadcast_dynamic_shape`` (op ``BroadcastArgs``), and
``get_static_value``."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, as_shape, broadcast_shapes, dimension_value
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, _typed_operand, check_dtype, check_rank, static_value


def scalar_mul(scalar, x, name=None):
    """``scalar * x`` for a 0-D ``scalar`` (op ``Mul``); an IndexedSlices ``x`` stays one.

    Raises
    ------
    ValueError
        When ``scalar`` is not 0-D.
    """
    base = (x.values if isinstance(x, IndexedSlices) else convert_to_tensor(x)).dtype.base_dtype
    scalar = convert_to_tensor(scalar, dtype=base, name="scalar")
    if scalar.shape.ndims != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {scalar.shape}.")
    if isinstance(x, IndexedSlices):
        return IndexedSlices(math_ops.multiply(scalar, x.values, name=name), x.indices, x.dense_shape)
    return math_ops.multiply(scalar, x, name=name)


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of ``inputs`` (tensors of one dtype and shape): ``add_n``, as TensorFlow 2 does it."""
    if not inputs or not isinstance(inputs, list | tuple):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    inputs = [convert_to_tensor(t) for t in inputs]
    if not all(t.dtype == inputs[0].dtype for t in inputs):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    merged = as_shape(shape) if shape is not None else as_shape(None)
    for t in inputs:
        merged = merged.merge_with(t.shape)
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(f"tensor_dtype is {tensor_dtype}, but input is of type {inputs[0].dtype}")
    if len(inputs) == 1:
        return inputs[0] if name is None else array_ops.identity(inputs[0], name=name)
    return math_ops.add_n(inputs, name=name)


_DIRECTIONS = ("ASCENDING", "DESCENDING")


def _sort_or_argsort(values, axis, direction, return_argsort):
    from numflow.ops.top_k_ops import top_k

    if direction not in _DIRECTIONS:
        raise ValueError(f"Argument `direction` should be one of {', '.join(_DIRECTIONS)}. Received: "
                         f"direction={direction}")
    axis_value = static_value(convert_to_tensor(axis, name="axis"))
    if axis_value is None or np.ndim(axis_value) != 0:
        raise ValueError("axis must be a constant scalar")
    axis = int(axis_value)
    values = convert_to_tensor(values, name="values")
    dtype = values.dtype.base_dtype
    if direction == "ASCENDING":  # sort the values turned around, then turn them back
        if dtype.is_unsigned:
            flip = lambda v: constant(dtype.max, dtype=dtype) - v  # noqa: E731
        elif dtype.is_integer:
            flip = lambda v: -v - 1  # noqa: E731 - TensorFlow's bitwise not
        else:
            flip = math_ops.negative
        values = flip(values)
    rank = values.shape.ndims
    transposition = None
    if not (axis == -1 or axis + 1 == rank):
        if rank is None:
            raise ValueError("sort along an axis other than the last needs the values' rank")
        axis %= rank
        transposition = constant(np.r_[np.arange(axis), [rank - 1], np.arange(axis + 1, rank - 1), [axis]].astype(
            np.int32), name="transposition")
        values = array_ops.transpose(values, transposition)
    k = array_ops.shape(values)[axis if transposition is None else -1]
    sorted_values, indices = top_k(values, k)
    result = indices if return_argsort else sorted_values
    if transposition is not None:
        result = array_ops.transpose(result, transposition)
    if direction == "ASCENDING" and not return_argsort:
        result = flip(result)
    return result


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis`` (``"ASCENDING"`` or ``"DESCENDING"``), through ``top_k``.

    >>> import numflow as tf
    >>> tf.Session().run(tf.sort([3, 1, 2])).tolist()
    [1, 2, 3]
    """
    with get_default_graph().name_scope(name or "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The indices that sort ``values`` along ``axis``; equal values keep their order (``stable`` or not)."""
    with get_default_graph().name_scope(name or "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


def _squeeze_last(labels, predictions):
    """TensorFlow's ``remove_squeezable_dimensions``: drop a last dimension of 1 that one has and the other lacks."""
    rank_l, rank_p = labels.shape.ndims, predictions.shape.ndims
    if rank_l is not None and rank_p is not None:
        if rank_p - rank_l == 1 and predictions.shape[-1] in (1, None):
            predictions = array_ops.squeeze(predictions, [-1])
        elif rank_l - rank_p == 1 and labels.shape[-1] in (1, None):
            labels = array_ops.squeeze(labels, [-1])
    return labels, predictions


def confusion_matrix(labels, predictions, num_classes=None, dtype=dtypes.int32, name=None, weights=None):
    """The ``num_classes`` x ``num_classes`` counts (or summed ``weights``) of each (label, prediction) pair.

    ``num_classes`` defaults to one more than the largest label or prediction; a negative or
    out-of-range one fails when the graph runs (InvalidArgumentError), as in TensorFlow.

    >>> import numflow as tf
    >>> tf.Session().run(tf.confusion_matrix([0, 1, 1], [0, 1, 0])).tolist()
    [[1, 0], [1, 1]]
    """
    from numflow.ops.check_ops import assert_less, assert_non_negative
    from numflow.ops.control_flow_ops import with_dependencies
    from numflow.ops.scatter_ops import scatter_nd

    with get_default_graph().name_scope(name or "confusion_matrix"):
        labels, predictions = _squeeze_last(convert_to_tensor(labels, name="labels"),
                                            convert_to_tensor(predictions, name="predictions"))
        predictions = math_ops.cast(predictions, dtypes.int64)
        labels = math_ops.cast(labels, dtypes.int64)
        labels = with_dependencies([assert_non_negative(labels, message="`labels` contains negative values")], labels)
        predictions = with_dependencies(
            [assert_non_negative(predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = math_ops.maximum(math_ops.reduce_max(predictions), math_ops.reduce_max(labels)) + 1
        else:
            bound = math_ops.cast(num_classes, dtypes.int64)
            labels = with_dependencies([assert_less(labels, bound, message="`labels` out of bound")], labels)
            predictions = with_dependencies([assert_less(predictions, bound, message="`predictions` out of bound")],
                                            predictions)
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
            predictions.shape.assert_is_compatible_with(weights.shape)
            weights = math_ops.cast(weights, dtype)
        shape = array_ops.stack([num_classes, num_classes])
        indices = array_ops.stack([labels, predictions], axis=1)
        values = array_ops.ones_like(predictions, dtype) if weights is None else weights
        return scatter_nd(indices=indices, updates=values, shape=math_ops.cast(shape, dtypes.int64))


def broadcast_to(input, shape, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` repeated along its dimensions of size 1 (and new leading ones) to ``shape`` (op ``BroadcastTo``).

    >>> import numflow as tf
    >>> tf.Session().run(tf.broadcast_to([1, 2], [2, 2])).tolist()
    [[1, 2], [1, 2]]
    """
    with get_default_graph().name_scope(name or "BroadcastTo") as scope:
        x = convert_to_tensor(input, name="input")
        target = convert_to_tensor(shape, name="shape", preferred_dtype=dtypes.int32)
        return _out("BroadcastTo", [x, target], name=scope)[0]


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape that ``shape_x`` and ``shape_y`` broadcast to; ValueError when they cannot."""
    try:
        return broadcast_shapes(shape_x, shape_y)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         f"pair they are either equal or one of them is 1. Received: {as_shape(shape_x)} and "
                         f"{as_shape(shape_y)}.") from None


@declare("BroadcastArgs")
def _broadcast_args_infer(op):
    s0, s1 = op.inputs
    check_dtype(s0, INDEX_TYPES, "T")
    check_rank(s0.shape, 1)
    check_rank(s1.shape, 1)
    lengths = [dimension_value(s.shape[0]) if s.shape.ndims == 1 else None for s in (s0, s1)]
    return [(s0.dtype, TensorShape([None if None in lengths else max(lengths)]))]


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (a 1-D integer tensor) that tensors of shapes ``shape_x`` and ``shape_y`` broadcast to
    (op ``BroadcastArgs``); InvalidArgumentError when they cannot, once the graph runs.

    >>> import numflow as tf
    >>> tf.Session().run(tf.broadcast_dynamic_shape([2, 1, 3], [4, 1])).tolist()
    [2, 4, 3]
    """
    with get_default_graph().name_scope("BroadcastArgs") as scope:
        s0 = convert_to_tensor(shape_x, name="s0")
        s1 = _typed_operand("BroadcastArgs", shape_y, s0.dtype.base_dtype, "s1")
        return _out("BroadcastArgs", [s0, s1], name=scope)[0]


def get_static_value(tensor, partial=False):
    """``tensor``'s value as a numpy array when the graph alone determines it, else None."""
    if not isinstance(tensor, Tensor):
        return np.asarray(tensor)
    return static_value(tensor)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The variance of ``input_tensor``'s elements over ``axis`` (``tf.math.reduce_variance``), as TensorFlow
    builds it: the mean of ``square(abs(x - mean))``."""
    with get_default_graph().name_scope(name or "reduce_variance"):
        input_tensor = convert_to_tensor(input_tensor)
        means = math_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError(f"Input must be either real or complex. Received integer type {means.dtype}.")
        squared_deviations = math_ops.square(math_ops.abs(input_tensor - means))
        return math_ops.reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation of ``input_tensor``'s elements over ``axis`` (``tf.math.reduce_std``)."""
    with get_default_graph().name_scope(name or "reduce_std"):
        input_tensor = convert_to_tensor(input_tensor)
        return math_ops.sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))
