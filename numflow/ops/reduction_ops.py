"""Reductions (``reduce_sum``, ``reduce_mean``... over axes fixed when the graph is built) and ``argmax``/
``argmin``, with TensorFlow's static shapes, dtypes and errors. ``math_ops`` gives them under its name too.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.math_ops import NUMBERS, REAL, _check_bool
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, static_value


def _reduction_shape(shape, axes, keepdims):
    if shape.ndims is None:
        return TensorShape(None)
    if axes is None:
        return TensorShape([1] * shape.ndims if keepdims else [])
    rank = shape.ndims
    norm = set()
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"Invalid reduction dimension {a} for input with {rank} dimensions.")
        norm.add(a % rank)
    dims = shape.dim_values
    if keepdims:
        return TensorShape([1 if i in norm else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in norm])


def _reduction_infer(op):
    """A reduction over the ``axis`` attr, or over a second input's axes (a graph read from a GraphDef
    has one; ``axis`` then holds its value when it is constant, else None)."""
    x = op.inputs[0]
    if op.type in ("All", "Any"):
        _check_bool(op, (x,), ("input",))
    else:
        check_dtype(x, REAL if op.type in ("Max", "Min", "EuclideanNorm") else NUMBERS, "input")
    if len(op.inputs) == 2 and op._attrs["axis"] is None:
        keep = op._attrs["keep_dims"] and x.shape.ndims is not None
        return [(x.dtype, TensorShape([None] * x.shape.ndims if keep else None))]
    return [(x.dtype, _reduction_shape(x.shape, op._attrs["axis"], op._attrs["keep_dims"]))]


for _op_type in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "EuclideanNorm"):
    declare(_op_type)(_reduction_infer)


def _normalize_axis(axis):
    if axis is None:
        return None
    if is_tensor(axis):
        value = static_value(convert_to_tensor(axis))
        if value is None:
            raise ValueError("Reduction axes must be known when the graph is built (a constant).")
        axis = value
    return tuple(int(a) for a in np.atleast_1d(axis))


def _make_reduction(op_type, public_name):
    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        if axis is not None and reduction_indices is not None:
            raise ValueError("Cannot specify both 'axis' and 'reduction_indices'.")
        x = convert_to_tensor(input_tensor)
        if axis is None:
            axis = reduction_indices
        keep = bool(keepdims if keepdims is not None else keep_dims)
        attrs = {"axis": _normalize_axis(axis), "keep_dims": keep}
        return get_default_graph().create_op(op_type, [x], attrs, name=name or op_type).outputs[0]

    fn.__name__ = public_name
    fn.__doc__ = (f"``{public_name}`` over ``axis`` (all axes when None; negative axes count from the end), "
                  "keeping reduced dims with ``keepdims``. Integer means truncate toward zero.")
    return fn


reduce_sum = _make_reduction("Sum", "reduce_sum")
reduce_mean = _make_reduction("Mean", "reduce_mean")
reduce_max = _make_reduction("Max", "reduce_max")
reduce_min = _make_reduction("Min", "reduce_min")
reduce_prod = _make_reduction("Prod", "reduce_prod")
reduce_all = _make_reduction("All", "reduce_all")
reduce_any = _make_reduction("Any", "reduce_any")
reduce_euclidean_norm = _make_reduction("EuclideanNorm", "reduce_euclidean_norm")


def _arg_infer(op):
    x, axis = op.inputs
    check_dtype(x, REAL + (dtypes.bool,), "input")
    check_dtype(axis, INDEX_TYPES, "dimension")
    value = static_value(axis)
    if x.shape.ndims is None:
        return [(op._attrs["output_type"], TensorShape(None))]
    if value is None:
        return [(op._attrs["output_type"], TensorShape([None] * max(x.shape.ndims - 1, 0)))]
    rank, axis = x.shape.ndims, int(value)
    if not -rank <= axis < rank:
        raise ValueError(
            f"Dimension ({axis}) must be in the range [{-rank}, {rank}), where {rank} is the number of "
            "dimensions in the input."
        )
    return [(op._attrs["output_type"], _reduction_shape(x.shape, (axis,), False))]


for _op_type in ("ArgMax", "ArgMin"):
    declare(_op_type)(_arg_infer)


def _make_arg(op_type, public_name):
    def fn(input, axis=None, name=None, dimension=None, output_type=dtypes.int64):  # noqa: A002
        if axis is not None and dimension is not None:
            raise ValueError("Cannot specify both 'axis' and 'dimension'")
        axis = 0 if axis is None and dimension is None else axis if axis is not None else dimension
        with get_default_graph().name_scope(name or op_type) as scope:
            x = convert_to_tensor(input, name="input")
            axis = convert_to_tensor(axis, name="dimension", preferred_dtype=dtypes.int32)
            attrs = {"output_type": dtypes.as_dtype(output_type)}
            return _out(op_type, [x, axis], attrs, name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"The index of the {public_name[3:]}imum along ``axis`` (op ``{op_type}``)."
    return fn


argmax = _make_arg("ArgMax", "argmax")
argmin = _make_arg("ArgMin", "argmin")
