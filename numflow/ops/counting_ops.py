"""Counting and bucketing: ``tf.bincount`` (op ``DenseBincount``), ``tf.histogram_fixed_width`` (op
``HistogramFixedWidth``) and ``tf.searchsorted`` (ops ``LowerBound`` / ``UpperBound`` on rows), built as TensorFlow 1
builds them. Kernels: ``numflow_kernels/reference_counting.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.math_ops import FLOATS
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, shape_or_constant, static_value
from numflow.ops.sequence_ops import size

_COUNT_TYPES = (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)
_SORTABLE = FLOATS + (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16)


@declare("DenseBincount")
def _dense_bincount_infer(op):
    arr, size_, weights = op.inputs
    check_dtype(arr, INDEX_TYPES, "input")
    check_dtype(weights, _COUNT_TYPES, "weights")
    check_rank(size_.shape, 0)
    if arr.shape.ndims is not None and arr.shape.ndims > 2:
        raise ValueError(f"Shape must be at most rank 2 but is rank {arr.shape.ndims}")
    bins = static_value(size_)
    bins = None if bins is None else int(bins)
    if arr.shape.ndims is None:
        shape = TensorShape(None)
    else:
        shape = TensorShape([bins] if arr.shape.ndims <= 1 else [arr.shape.dim_values[0], bins])
    return [(weights.dtype.base_dtype, shape)]


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """How often each value of the non-negative integer ``arr`` occurs (or the sum of its ``weights``).

    Parameters
    ----------
    arr : Tensor
        Non-negative integers, flattened.
    weights : Tensor, optional
        ``arr``'s shape; each occurrence adds its weight instead of 1.
    minlength, maxlength : int, optional
        Bounds of the result's length (``max(arr) + 1`` otherwise); values from ``maxlength`` on are skipped.
    dtype : DType
        The counts' dtype when there are no weights.
    name : str, optional
    axis : int, optional
        0 (the default): count the flattened ``arr``; -1: count each row of a 2-D ``arr`` on its own (TensorFlow 2's
        ``tf.math.bincount``).
    binary_output : bool
        1 where a value occurs at least once (no ``weights``), instead of the count.
    """
    with get_default_graph().name_scope(name or "bincount"):
        arr = convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only "
                             "one.")
        if axis not in (None, 0, -1):
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
        if not arr.dtype.is_integer:
            arr = math_ops.cast(arr, dtypes.int32)
        nonempty = math_ops.greater(size(arr), 0)
        output_size = math_ops.cast(nonempty, arr.dtype) * (math_ops.reduce_max(arr) + 1)
        if minlength is not None:
            output_size = math_ops.maximum(convert_to_tensor(minlength, dtype=arr.dtype, name="minlength"),
                                           output_size)
        if maxlength is not None:
            output_size = math_ops.minimum(convert_to_tensor(maxlength, dtype=arr.dtype, name="maxlength"),
                                           output_size)
        if not axis:
            if weights is not None:
                weights = array_ops.reshape(weights, [-1])
            arr = array_ops.reshape(arr, [-1])
        if weights is None:
            weights = constant([], dtype=dtype or arr.dtype)
        return _out("DenseBincount", [arr, output_size, weights], {"binary_output": bool(binary_output)})[0]


@declare("HistogramFixedWidth")
def _histogram_infer(op):
    values, value_range, nbins = op.inputs
    check_dtype(values, _SORTABLE[:3] + (dtypes.int32, dtypes.int64), "values")
    check_rank(value_range.shape, 1)
    check_rank(nbins.shape, 0)
    bins = static_value(nbins)
    return [(op._attrs["dtype"], TensorShape([None if bins is None else int(bins)]))]


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of ``values`` in ``nbins`` equal bins spanning ``value_range`` (values outside go to the end bins).

    Parameters
    ----------
    values : Tensor
        Numbers of any shape.
    value_range : Tensor
        ``[low, high]``, of ``values``' dtype, ``low < high``.
    nbins : int or Tensor
    dtype : DType
        int32 or int64.
    name : str, optional
    """
    with get_default_graph().name_scope(name or "histogram_fixed_width") as scope:
        values = convert_to_tensor(values, name="values")
        value_range = convert_to_tensor(value_range, dtype=values.dtype.base_dtype, name="value_range")
        nbins = convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        return _out("HistogramFixedWidth", [values, value_range, nbins], {"dtype": dtypes.as_dtype(dtype)},
                    name=scope)[0]


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin, of ``nbins`` equal bins spanning ``value_range``, of each of ``values`` (values outside go
    to the end bins), as an int32 tensor of ``values``' shape; built as TensorFlow builds it.

    Parameters
    ----------
    values : Tensor
        Numbers of any shape.
    value_range : Tensor
        ``[low, high]``, of ``values``' dtype, ``low < high``.
    nbins : int or Tensor
        Positive (checked when run).
    dtype : DType
        Unused: the bins are int32, as in TensorFlow.
    name : str, optional
    """
    from numflow.ops.check_ops import Assert
    from numflow.ops.clip_ops import clip_by_value
    from numflow.ops.control_flow_ops import with_dependencies

    with get_default_graph().name_scope(name or "histogram_fixed_width_bins"):
        values = convert_to_tensor(values, name="values")
        shape = array_ops.shape(values)
        values = array_ops.reshape(values, [-1])
        value_range = convert_to_tensor(value_range, name="value_range")
        nbins = convert_to_tensor(nbins, dtype=dtypes.int32, name="nbins")
        check = Assert(math_ops.greater(nbins, 0), [f"nbins {nbins} must > 0"])
        nbins = with_dependencies([check], nbins)
        nbins_float = math_ops.cast(nbins, values.dtype)
        scaled = math_ops.truediv(values - value_range[0], value_range[1] - value_range[0], name="scaled_values")
        indices = math_ops.floor(nbins_float * scaled, name="indices")
        indices = math_ops.cast(clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
        return array_ops.reshape(indices, shape)


def _bound_infer(op):
    sequence, values = op.inputs
    if sequence.dtype.base_dtype != values.dtype.base_dtype:
        raise TypeError(f"Input 'values' of '{op.type}' Op has type {values.dtype.base_dtype.name} that does not "
                        f"match type {sequence.dtype.base_dtype.name} of argument 'sorted_inputs'.")
    check_rank(sequence.shape, 2)
    check_rank(values.shape, 2)
    return [(op._attrs["out_type"], values.shape)]


declare("LowerBound")(_bound_infer)
declare("UpperBound")(_bound_infer)
not_differentiable("DenseBincount", "HistogramFixedWidth", "LowerBound", "UpperBound")


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """For each of ``values``, where it would go in its row of ``sorted_sequence`` to keep the row sorted.

    Parameters
    ----------
    sorted_sequence : Tensor
        Rows sorted along the last axis.
    values : Tensor
        The same leading dimensions as ``sorted_sequence``.
    side : {"left", "right"}
        Before (``left``) or after (``right``) equal elements.
    out_type : DType
        int32 or int64.
    name : str, optional
    """
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    sequence_size = shape_or_constant(sorted_sequence)[-1]
    values_size = shape_or_constant(values)[-1]
    sequence_2d = array_ops.reshape(sorted_sequence, [-1, sequence_size])
    values_2d = array_ops.reshape(values, [-1, values_size])
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    op_type = "UpperBound" if side == "right" else "LowerBound"
    output = _out(op_type, [sequence_2d, values_2d], {"out_type": dtypes.as_dtype(out_type)},
                  name=name or op_type)[0]
    return array_ops.reshape(output, shape_or_constant(values))


@declare("Bucketize")
def _bucketize_infer(op):
    return [(dtypes.int32, op.inputs[0].shape)]


not_differentiable("Bucketize")


def bucketize(input, boundaries, name=None):  # noqa: A002
    """Each element's bucket: how many of the sorted ``boundaries`` are at most it (op ``Bucketize``)."""
    boundaries = [float(b) for b in boundaries]
    if any(b > a for a, b in zip(boundaries[1:], boundaries)):
        raise ValueError("Expected sorted boundaries")
    return _out("Bucketize", [convert_to_tensor(input)], {"boundaries": boundaries}, name=name or "Bucketize")[0]
