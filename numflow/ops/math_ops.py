"""Elementwise arithmetic, comparisons, casts, matmul and reductions."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.registry import declare

# TF op type, public name, result dtype: None = the inputs' dtype.
_BINARY = {
    "AddV2": ("add", None),
    "Sub": ("subtract", None),
    "Mul": ("multiply", None),
    "RealDiv": ("realdiv", None),
    "FloorDiv": ("floordiv", None),
    "FloorMod": ("floormod", None),
    "Pow": ("pow", None),
    "Maximum": ("maximum", None),
    "Minimum": ("minimum", None),
    "SquaredDifference": ("squared_difference", None),
    "Less": ("less", dtypes.bool),
    "LessEqual": ("less_equal", dtypes.bool),
    "Greater": ("greater", dtypes.bool),
    "GreaterEqual": ("greater_equal", dtypes.bool),
    "Equal": ("equal", dtypes.bool),
    "NotEqual": ("not_equal", dtypes.bool),
    "LogicalAnd": ("logical_and", dtypes.bool),
    "LogicalOr": ("logical_or", dtypes.bool),
}


def _binary_infer(result_dtype):
    def infer(op):
        x, y = op.inputs
        if x.dtype != y.dtype:
            raise TypeError(
                f"Input 'y' of '{op.type}' Op has type {y.dtype.name} that does not match type "
                f"{x.dtype.name} of argument 'x'."
            )
        return [(result_dtype or x.dtype, broadcast_shapes(x.shape, y.shape))]

    return infer


for _op_type, (_, _result) in _BINARY.items():
    declare(_op_type)(_binary_infer(_result))


def _binary_op(op_type, x, y, name):
    """Add a binary op, converting Python values to the other operand's dtype as TensorFlow does."""
    if isinstance(x, Tensor) or hasattr(x, "_as_tensor") or not (isinstance(y, Tensor) or hasattr(y, "_as_tensor")):
        x = convert_to_tensor(x, name="x")
        y = _convert_operand(y, x.dtype, "y")
    else:
        y = convert_to_tensor(y, name="y")
        x = _convert_operand(x, y.dtype, "x")
    return get_default_graph().create_op(op_type, [x, y], name=name).outputs[0]


def _convert_operand(value, dtype, name):
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return convert_to_tensor(value, name=name)
    return convert_to_tensor(value, dtype=dtype, name=name)


def _make_binary(op_type, public_name):
    def fn(x, y, name=None):
        return _binary_op(op_type, x, y, name or op_type)

    fn.__name__ = public_name
    fn.__doc__ = f"Elementwise ``{public_name}`` of ``x`` and ``y`` with numpy broadcasting (op ``{op_type}``)."
    return fn


add = _make_binary("AddV2", "add")
subtract = _make_binary("Sub", "subtract")
multiply = _make_binary("Mul", "multiply")
realdiv = _make_binary("RealDiv", "realdiv")
floordiv = _make_binary("FloorDiv", "floordiv")
floormod = mod = _make_binary("FloorMod", "mod")
maximum = _make_binary("Maximum", "maximum")
minimum = _make_binary("Minimum", "minimum")
squared_difference = _make_binary("SquaredDifference", "squared_difference")
less = _make_binary("Less", "less")
less_equal = _make_binary("LessEqual", "less_equal")
greater = _make_binary("Greater", "greater")
greater_equal = _make_binary("GreaterEqual", "greater_equal")
equal = _make_binary("Equal", "equal")
not_equal = _make_binary("NotEqual", "not_equal")
logical_and = _make_binary("LogicalAnd", "logical_and")
logical_or = _make_binary("LogicalOr", "logical_or")


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's public name
    """``x ** y`` elementwise (op ``Pow``)."""
    return _binary_op("Pow", x, y, name or "pow")


def truediv(x, y, name=None):
    """``x / y``; integer inputs are first cast to floats as TensorFlow does (int32 -> float64)."""
    x = convert_to_tensor(x, name="x") if not hasattr(x, "_as_tensor") else convert_to_tensor(x)
    y = _convert_operand(y, x.dtype, "y")
    if x.dtype != y.dtype:
        raise TypeError(f"x and y must have the same dtype, got {x.dtype!r} != {y.dtype!r}")
    if x.dtype.is_integer:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return _binary_op("RealDiv", x, y, name or "truediv")


divide = truediv


def logical_xor(x, y, name="LogicalXor"):
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


# Unary ops: TF op type -> public name.
_UNARY = {
    "Neg": "negative", "Abs": "abs", "Square": "square", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "Exp": "exp",
    "Log": "log", "Log1p": "log1p", "Sign": "sign", "Floor": "floor", "Ceil": "ceil", "Round": "round",
    "Reciprocal": "reciprocal", "Tanh": "tanh", "Sigmoid": "sigmoid", "Sin": "sin", "Cos": "cos",
    "LogicalNot": "logical_not",
}


def _unary_infer(op):
    x = op.inputs[0]
    return [(x.dtype, x.shape)]


for _op_type in _UNARY:
    declare(_op_type)(_unary_infer)


def _make_unary(op_type, public_name):
    def fn(x, name=None):
        x = convert_to_tensor(x, name="x")
        return get_default_graph().create_op(op_type, [x], name=name or op_type).outputs[0]

    fn.__name__ = public_name
    fn.__doc__ = f"Elementwise ``{public_name}`` (op ``{op_type}``)."
    return fn


for _op_type, _public in _UNARY.items():
    globals()[_public] = _make_unary(_op_type, _public)


@declare("Cast")
def _cast_infer(op):
    return [(op._attrs["DstT"], op.inputs[0].shape)]


def cast(x, dtype, name=None):
    """``x`` converted elementwise to ``dtype`` (floats to integers truncate toward zero)."""
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return get_default_graph().create_op("Cast", [x], {"DstT": dtype, "SrcT": x.dtype}, name=name or "Cast").outputs[0]


def to_float(x, name="ToFloat"):
    return cast(x, dtypes.float32, name=name)


@declare("MatMul")
def _matmul_infer(op):
    a, b = op.inputs
    if a.dtype != b.dtype:
        raise TypeError(
            f"Input 'b' of 'MatMul' Op has type {b.dtype.name} that does not match type {a.dtype.name} of argument 'a'."
        )
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    a.shape.with_rank(2)
    b.shape.with_rank(2)
    m, k = (a.shape.dims[::-1] if ta else a.shape.dims) if a.shape.ndims is not None else (None, None)
    k2, n = (b.shape.dims[::-1] if tb else b.shape.dims) if b.shape.ndims is not None else (None, None)
    if k is not None and k2 is not None and k != k2:
        raise ValueError(
            f"Dimensions must be equal, but are {k} and {k2} for 'MatMul' with input shapes: "
            f"{a.shape.as_list()}, {b.shape.as_list()}"
        )
    return [(a.dtype, TensorShape([m, n]))]


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    """The matrix product of 2-D ``a`` and ``b``, optionally transposing either first."""
    a = convert_to_tensor(a, name="a")
    b = _convert_operand(b, a.dtype, "b")
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)}
    return get_default_graph().create_op("MatMul", [a, b], attrs, name=name or "MatMul").outputs[0]


def _reduction_shape(shape, axes, keepdims):
    if shape.ndims is None:
        return TensorShape(None)
    if axes is None:
        return TensorShape([1] * shape.ndims if keepdims else [])
    rank = shape.ndims
    norm = set()
    for a in axes:
        if not -rank <= a < max(rank, 1):
            raise ValueError(f"Invalid reduction dimension {a} for input with {rank} dimensions.")
        norm.add(a % rank if rank else 0)
    dims = shape.dims
    if keepdims:
        return TensorShape([1 if i in norm else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in norm])


def _reduction_infer(op):
    x = op.inputs[0]
    return [(x.dtype, _reduction_shape(x.shape, op._attrs["axis"], op._attrs["keep_dims"]))]


_REDUCTIONS = {"Sum": "reduce_sum", "Mean": "reduce_mean", "Max": "reduce_max", "Min": "reduce_min",
               "Prod": "reduce_prod", "All": "reduce_all", "Any": "reduce_any"}
for _op_type in _REDUCTIONS:
    declare(_op_type)(_reduction_infer)


def _normalize_axis(axis):
    if axis is None:
        return None
    if isinstance(axis, Tensor):
        from numflow.framework.graph import constant_value

        value = constant_value(axis)
        if value is None:
            raise ValueError("Reduction axes must be known when the graph is built (a constant).")
        axis = value
    return tuple(int(a) for a in np.atleast_1d(axis))


def _make_reduction(op_type, public_name):
    def fn(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
        x = convert_to_tensor(input_tensor)
        if axis is None:
            axis = reduction_indices
        keep = bool(keepdims if keepdims is not None else keep_dims)
        attrs = {"axis": _normalize_axis(axis), "keep_dims": keep}
        return get_default_graph().create_op(op_type, [x], attrs, name=name or op_type).outputs[0]

    fn.__name__ = public_name
    fn.__doc__ = f"``{public_name}`` over ``axis`` (all axes when None), keeping reduced dims with ``keepdims``."
    return fn


for _op_type, _public in _REDUCTIONS.items():
    globals()[_public] = _make_reduction(_op_type, _public)


@declare("Range")
def _range_infer(op):
    start, limit, delta = (op._attrs[k] for k in ("start", "limit", "delta"))
    n = len(np.arange(start, limit, delta))
    return [(op._attrs["dtype"], TensorShape([n]))]


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TensorFlow's public name
    """``[start, start + delta, ...)`` up to ``limit`` (``range(n)`` counts from 0)."""
    if limit is None:
        start, limit = 0, start
    values = [start, limit, delta]
    if dtype is None:
        dtype = dtypes.float32 if any(isinstance(v, float) for v in values) else dtypes.int32
    dtype = dtypes.as_dtype(dtype)
    attrs = {"start": start, "limit": limit, "delta": delta, "dtype": dtype}
    return get_default_graph().create_op("Range", [], attrs, name=name).outputs[0]
