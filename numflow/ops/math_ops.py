"""Elementwise arithmetic, comparisons, casts, matmul, range and segment sums (the reductions, kept under
these names too, are in ``reduction_ops``).

Dtype rules are TensorFlow's: both operands of a binary op have one dtype (a Python number takes the
tensor operand's dtype, or raises TypeError when it cannot: ``int_tensor + 1.5``); each op accepts
the dtypes TensorFlow registers for it; ``/`` casts integers to floats first (int8/16 to float32,
int32/64 to float64); comparisons give bool.

Ops are named as TensorFlow names them: the operators' names (``add``, ``sub``, ``mul``, ``truediv``,
``floordiv``, ``mod``, ``pow``) for the functions the operators call, op types otherwise; Python
operands become constants inside that name scope (``add/y``).
"""

import builtins
import math

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops.constant_op import convert_to_tensor, ints_fit, is_tensor
from numflow.ops.op_util import (
    INDEX_TYPES,
    _out,
    check_dtype,
    check_rank,
    check_same_dtype,
    merge_dims,
    static_value,
)

FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
SIGNED = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)
UNSIGNED = (dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64)
REAL = FLOATS + SIGNED + UNSIGNED
COMPLEX = (dtypes.complex64, dtypes.complex128)
NUMBERS = REAL + COMPLEX
_BOOL_ONLY = "bool"
_ANY = None


def _check_bool(op, tensors, names):
    for t, n in zip(tensors, names):
        if t.dtype.base_dtype != dtypes.bool:
            raise TypeError(
                f"Input '{n}' of '{op.type}' Op has type {t.dtype.base_dtype.name} that does not match "
                "expected type of bool."
            )


# TF op type: (result dtype, None = the inputs'; the input dtypes TensorFlow registers it for).
_BINARY = {
    "AddV2": (None, NUMBERS + (dtypes.string,)),
    "Sub": (None, NUMBERS),
    "Mul": (None, NUMBERS),
    "RealDiv": (None, NUMBERS),
    "DivNoNan": (None, FLOATS + COMPLEX),
    "FloorDiv": (None, REAL),
    "FloorMod": (None, REAL),
    "Pow": (None, FLOATS + SIGNED + COMPLEX),
    "Maximum": (None, REAL),
    "Minimum": (None, REAL),
    "SquaredDifference": (None, FLOATS + (dtypes.int32, dtypes.int64) + COMPLEX),
    "Less": (dtypes.bool, REAL),
    "LessEqual": (dtypes.bool, REAL),
    "Greater": (dtypes.bool, REAL),
    "GreaterEqual": (dtypes.bool, REAL),
    "Equal": (dtypes.bool, _ANY),
    "NotEqual": (dtypes.bool, _ANY),
    "LogicalAnd": (dtypes.bool, _BOOL_ONLY),
    "LogicalOr": (dtypes.bool, _BOOL_ONLY),
}


def _binary_infer(result_dtype, allowed):
    def infer(op):
        x, y = op._inputs
        if allowed == _BOOL_ONLY:
            _check_bool(op, (x, y), ("x", "y"))
        else:
            check_same_dtype(x, y, op._type, "x", "y")
            if allowed is not _ANY:
                check_dtype(x, allowed, "x")
        return [(result_dtype or x._dtype, broadcast_shapes(x._shape, y._shape))]

    return infer


for _op_type, (_result, _allowed) in _BINARY.items():
    declare(_op_type)(_binary_infer(_result, _allowed))


def _convert_pair(op_type, x, y, reflected=False):
    """Both operands as tensors: a Python value takes the dtype of the tensor operand.

    Where the value does not fit that dtype, the error is TensorFlow's for the same call: ``t + 1.5``
    keeps 1.5 a float and reports AddV2's mismatch; ``t * 1.5`` names the op's parameter; a
    reflected operator (``1.5 * t``) reports the conversion alone.
    """
    if is_tensor(x) or not is_tensor(y):
        x = convert_to_tensor(x, name="x")
        y = _convert_operand(op_type, y, x.dtype.base_dtype, "y")
    elif reflected:
        y = convert_to_tensor(y, name="y")
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
    else:
        y = convert_to_tensor(y, name="y")
        x = _convert_operand(op_type, x, y.dtype.base_dtype, "x")
    return x, y


def _convert_operand(op_type, value, dtype, name):
    if is_tensor(value):
        return convert_to_tensor(value, name=name)
    if op_type == "AddV2":
        return convert_to_tensor(value, preferred_dtype=dtype, name=name)
    try:
        return convert_to_tensor(value, dtype=dtype, name=name)
    except TypeError as e:
        raise TypeError(f"Expected {dtype.name} passed to parameter '{name}' of op '{op_type}', got {value!r} of "
                        f"type '{type(value).__name__}' instead. Error: {e}") from None


def _binary_op(op_type, x, y, name, reflected=False):
    with get_default_graph().name_scope(name) as scope:
        x, y = _convert_pair(op_type, x, y, reflected)
        return _out(op_type, [x, y], name=scope)[0]


def reflected_operator(fn_name, value, tensor, name):
    """``value <op> tensor`` for Python's reflected operators (``1.5 * t``): ``value`` must fit ``tensor``'s dtype."""
    op_type = _OPERATOR_OP_TYPES.get(fn_name)
    if op_type is None:
        return globals()[fn_name](value, tensor, name=name)
    return _binary_op(op_type, value, tensor, name, reflected=True)


_OPERATOR_OP_TYPES = {"add": "AddV2", "subtract": "Sub", "multiply": "Mul", "floordiv": "FloorDiv", "mod": "FloorMod",
                      "logical_and": "LogicalAnd", "logical_or": "LogicalOr"}


def _make_binary(op_type, public_name, default_name):
    def fn(x, y, name=None):
        return _binary_op(op_type, x, y, name or default_name)

    fn.__name__ = public_name
    fn.__doc__ = f"Elementwise ``{public_name}`` of ``x`` and ``y`` with numpy broadcasting (op ``{op_type}``)."
    return fn


add = _make_binary("AddV2", "add", "Add")
subtract = _make_binary("Sub", "subtract", "Sub")
multiply = _make_binary("Mul", "multiply", "Mul")
realdiv = _make_binary("RealDiv", "realdiv", "RealDiv")
floordiv = _make_binary("FloorDiv", "floordiv", "floordiv")
mod = _make_binary("FloorMod", "mod", "FloorMod")
floormod = _make_binary("FloorMod", "floormod", "FloorMod")
maximum = _make_binary("Maximum", "maximum", "Maximum")
minimum = _make_binary("Minimum", "minimum", "Minimum")
squared_difference = _make_binary("SquaredDifference", "squared_difference", "SquaredDifference")
less = _make_binary("Less", "less", "Less")
less_equal = _make_binary("LessEqual", "less_equal", "LessEqual")
greater = _make_binary("Greater", "greater", "Greater")
greater_equal = _make_binary("GreaterEqual", "greater_equal", "GreaterEqual")
equal = _make_binary("Equal", "equal", "Equal")
not_equal = _make_binary("NotEqual", "not_equal", "NotEqual")
logical_and = _make_binary("LogicalAnd", "logical_and", "LogicalAnd")
logical_or = _make_binary("LogicalOr", "logical_or", "LogicalOr")


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's public name
    """``x ** y`` elementwise (op ``Pow``); integers to negative powers fail at run time."""
    return _binary_op("Pow", x, y, name or "Pow")


# True division casts integers to this float type first, as TensorFlow's ``__truediv__`` does.
_TRUEDIV_FLOAT = {
    dtypes.int8: dtypes.float32, dtypes.uint8: dtypes.float32, dtypes.int16: dtypes.float32,
    dtypes.uint16: dtypes.float32, dtypes.int32: dtypes.float64, dtypes.uint32: dtypes.float64,
    dtypes.int64: dtypes.float64, dtypes.uint64: dtypes.float64,
}


def truediv(x, y, name=None):
    """``x / y``; integer inputs are first cast to floats (int8/16 to float32, int32/64 to float64)."""
    with get_default_graph().name_scope(name or "truediv") as scope:
        x, y = _convert_pair("RealDiv", x, y)
        dtype = x.dtype.base_dtype
        if dtype != y.dtype.base_dtype:
            raise TypeError(f"x and y must have the same dtype, got {dtype!r} != {y.dtype.base_dtype!r}")
        if dtype not in NUMBERS:
            raise TypeError(f"Invalid dtype {dtype!r} in __truediv__")
        target = _TRUEDIV_FLOAT.get(dtype)
        if target is not None:
            x, y = cast(x, target), cast(y, target)
        return _out("RealDiv", [x, y], name=scope)[0]


divide = truediv


def div_no_nan(x, y, name=None):
    """``x / y``, or 0 where ``y`` is 0 (op ``DivNoNan``); integers are cast to floats as for ``/``."""
    with get_default_graph().name_scope(name or "div_no_nan") as scope:
        x, y = _convert_pair("DivNoNan", x, y)
        dtype = x.dtype.base_dtype
        if dtype != y.dtype.base_dtype:
            raise TypeError(f"`x` and `y` must have the same dtype, got {dtype!r} != {y.dtype.base_dtype!r}.")
        target = _TRUEDIV_FLOAT.get(dtype)
        if target is not None:
            x, y = cast(x, target), cast(y, target)
        return _out("DivNoNan", [x, y], name=scope)[0]


def div(x, y, name=None):
    """TensorFlow 1's ``tf.div``: floor division for integers, true division for floats."""
    with get_default_graph().name_scope(name or "div") as scope:
        x, y = _convert_pair("Div", x, y)
        op_type = "FloorDiv" if x.dtype.base_dtype.is_integer else "RealDiv"
        return _out(op_type, [x, y], name=scope)[0]


def logical_xor(x, y, name="LogicalXor"):
    """``x != y`` for bools, built as TensorFlow does from and/or/not."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name)


@declare("AddN")
def _add_n_infer(op):
    first = op.inputs[0]
    shape = first.shape
    for i, t in enumerate(op.inputs[1:], 1):
        check_same_dtype(first, t, "AddN", "inputs", f"inputs[{i}]")
        if shape.ndims is not None and t.shape.ndims is not None and shape.ndims != t.shape.ndims:
            raise ValueError(f"Shapes must be equal rank, but are {shape.ndims} and {t.shape.ndims}")
        if shape.ndims is not None and t.shape.ndims is not None:
            shape = TensorShape([merge_dims(a, b, d, shape.dim_values, t.shape.dim_values)
                                 for d, (a, b) in enumerate(zip(shape.dim_values, t.shape.dim_values))])
        elif shape.ndims is None:
            shape = t.shape
    check_dtype(first, (*NUMBERS, dtypes.variant), "inputs")  # variants: TensorLists, which gradients add
    return [(first.dtype, shape)]


def add_n(inputs, name=None):
    """The elementwise sum of an iterable of tensors of one shape and dtype (op ``AddN``)."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape.")
    if len(inputs) == 1:
        x = convert_to_tensor(inputs[0])
        if name:
            from numflow.ops.array_ops import identity

            return identity(x, name=name)
        return x
    with get_default_graph().name_scope(name or "AddN") as scope:
        tensors = [convert_to_tensor(t, name=f"inputs_{i}") for i, t in enumerate(inputs)]
        return _out("AddN", tensors, {"N": len(tensors)}, name=scope)[0]


# -- unary ops ----------------------------------------------------------------------------------
# TF op type: the input dtypes TensorFlow registers it for.
_UNARY = {
    "Neg": FLOATS + SIGNED + COMPLEX, "Abs": FLOATS + SIGNED, "Square": NUMBERS, "Sqrt": FLOATS + COMPLEX,
    "Rsqrt": FLOATS + COMPLEX, "Exp": FLOATS + COMPLEX, "Log": FLOATS + COMPLEX, "Log1p": FLOATS + COMPLEX,
    "Sign": FLOATS + SIGNED + COMPLEX, "Floor": FLOATS, "Ceil": FLOATS, "Round": FLOATS + SIGNED,
    "Reciprocal": FLOATS + SIGNED + COMPLEX, "Tanh": FLOATS + COMPLEX, "Sigmoid": FLOATS + COMPLEX,
    "Sin": FLOATS + COMPLEX, "Cos": FLOATS + COMPLEX, "LogicalNot": _BOOL_ONLY,
}


def _unary_infer(allowed):
    def infer(op):
        x = op.inputs[0]
        if allowed == _BOOL_ONLY:
            _check_bool(op, (x,), ("x",))
        else:
            check_dtype(x, allowed, "x")
        return [(x.dtype, x.shape)]

    return infer


for _op_type, _allowed in _UNARY.items():
    declare(_op_type)(_unary_infer(_allowed))


def _make_unary(op_type, public_name):
    def fn(x, name=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            x = convert_to_tensor(x, name="x")
            if op_type == "Round" and x.dtype.base_dtype.is_integer:
                return x
            return _out(op_type, [x], name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"Elementwise ``{public_name}`` (op ``{op_type}``)."
    return fn


negative = _make_unary("Neg", "negative")


def abs(x, name=None):  # noqa: A001 - TensorFlow's public name
    """``|x|`` elementwise: op ``Abs``, or ``ComplexAbs`` (``complex_ops``; giving the parts' dtype) for a
    complex ``x``."""
    with get_default_graph().name_scope(name or "Abs") as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype.is_complex:
            return _out("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}, name=scope)[0]
        return _out("Abs", [x], name=scope)[0]


square = _make_unary("Square", "square")
sqrt = _make_unary("Sqrt", "sqrt")
rsqrt = _make_unary("Rsqrt", "rsqrt")
exp = _make_unary("Exp", "exp")
log = _make_unary("Log", "log")
log1p = _make_unary("Log1p", "log1p")


def sign(x, name=None):
    """-1, 0 or 1 by the sign of each element (op ``Sign``); ``x / |x|`` (0 for 0) for a complex ``x``, built
    as TensorFlow builds it (``DivNoNan`` of ``x`` and its cast ``ComplexAbs``)."""
    x = convert_to_tensor(x, name="x")
    if x.dtype.base_dtype.is_complex:
        magnitude = _out("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}, name="ComplexAbs")[0]
        return _out("DivNoNan", [x, cast(magnitude, x.dtype.base_dtype)], name=name or "DivNoNan")[0]
    with get_default_graph().name_scope(name or "Sign") as scope:
        return _out("Sign", [x], name=scope)[0]


floor = _make_unary("Floor", "floor")
ceil = _make_unary("Ceil", "ceil")
round = _make_unary("Round", "round")  # noqa: A001 - TensorFlow's public name
reciprocal = _make_unary("Reciprocal", "reciprocal")
tanh = _make_unary("Tanh", "tanh")
sigmoid = _make_unary("Sigmoid", "sigmoid")
sin = _make_unary("Sin", "sin")
cos = _make_unary("Cos", "cos")
logical_not = _make_unary("LogicalNot", "logical_not")


# -- casts ------------------------------------------------------------------------------------
@declare("Cast")
def _cast_infer(op):
    return [(op._attrs["DstT"], op.inputs[0].shape)]


def cast(x, dtype, name=None):
    """``x`` converted elementwise to ``dtype`` (floats to integers truncate toward zero). A tensor of
    ``dtype`` comes back as it is; anything else is converted in TensorFlow's ``Cast`` name scope (a
    Python number becomes ``Cast/x``), which the Cast op is named after."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and x.dtype.base_dtype == dtype:
        return x
    graph = get_default_graph()
    with graph.name_scope(name or "Cast") as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype == dtype:
            return x
        attrs = {"DstT": dtype, "SrcT": x.dtype.base_dtype}
        return graph.create_op("Cast", [x], attrs, name=scope).outputs[0]


def to_float(x, name="ToFloat"):
    return cast(x, dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    return cast(x, dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    return cast(x, dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    return cast(x, dtypes.int64, name=name)


# -- matrix products ----------------------------------------------------------------------------
_MATMUL_TYPES = FLOATS + (dtypes.int32, dtypes.int64) + UNSIGNED + COMPLEX


def _inner_dims(a, b, ta, tb):
    (m, k), (k2, n) = a[-2:][::-1] if ta else a[-2:], b[-2:][::-1] if tb else b[-2:]
    if k is not None and k2 is not None and k != k2:
        raise ValueError(f"Dimensions must be equal, but are {k} and {k2}")
    return m, n


@declare("MatMul")
def _matmul_infer(op):
    a, b = op.inputs
    check_same_dtype(a, b, "MatMul", "a", "b")
    check_dtype(a, _MATMUL_TYPES, "a")
    check_rank(a.shape, 2)
    check_rank(b.shape, 2)
    ad = a.shape.dim_values if a.shape.ndims is not None else [None, None]
    bd = b.shape.dim_values if b.shape.ndims is not None else [None, None]
    m, n = _inner_dims(ad, bd, op._attrs["transpose_a"], op._attrs["transpose_b"])
    return [(a.dtype, TensorShape([m, n]))]


@declare("BatchMatMulV2")
def _batch_matmul_infer(op):
    a, b = op.inputs
    check_same_dtype(a, b, "BatchMatMulV2", "x", "y")
    check_dtype(a, _MATMUL_TYPES, "x")
    check_rank(a.shape, 2, at_least=True)
    check_rank(b.shape, 2, at_least=True)
    if a.shape.ndims is None or b.shape.ndims is None:
        return [(a.dtype, TensorShape(None))]
    m, n = _inner_dims(a.shape.dim_values, b.shape.dim_values, op._attrs["adj_x"], op._attrs["adj_y"])
    batch = broadcast_shapes(a.shape.dim_values[:-2], b.shape.dim_values[:-2])
    return [(a.dtype, batch.concatenate([m, n]))]


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, name=None):
    """The matrix product ``a @ b``; inputs of rank > 2 multiply batches of matrices (``BatchMatMulV2``)."""
    if transpose_a and adjoint_a:
        raise ValueError("Only one of transpose_a and adjoint_a can be True.")
    if transpose_b and adjoint_b:
        raise ValueError("Only one of transpose_b and adjoint_b can be True.")
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    with get_default_graph().name_scope(name or "MatMul") as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b", preferred_dtype=a.dtype.base_dtype)
        if a.shape.ndims is not None and b.shape.ndims is not None and max(a.shape.ndims, b.shape.ndims) <= 2:
            # MatMul transposes only: an adjoint of a complex matrix conjugates it first, as TensorFlow does.
            if adjoint_a and a.dtype.base_dtype.is_complex:
                a = _conj(a)
            if adjoint_b and b.dtype.base_dtype.is_complex:
                b = _conj(b)
            return _out("MatMul", [a, b], {"transpose_a": ta, "transpose_b": tb}, name=scope)[0]
        return _out("BatchMatMulV2", [a, b], {"adj_x": ta, "adj_y": tb}, name=scope)[0]


def _conj(x):
    return _out("Conj", [x], name="Conj")[0]


# -- range --------------------------------------------------------------------------------------
def range_size(start, limit, delta):
    """The number of elements of ``range(start, limit, delta)`` (numpy scalars of one dtype), as TF."""
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if delta > 0 and start > limit:
        raise ValueError(f"Requires start <= limit when delta > 0: {start}/{limit}")
    if delta < 0 and start < limit:
        raise ValueError(f"Requires start >= limit when delta < 0: {start}/{limit}")
    if np.issubdtype(np.result_type(start), np.integer):
        span, step = builtins.abs(int(limit) - int(start)), builtins.abs(int(delta))
        return (span + step - 1) // step
    return int(math.ceil(np.abs((limit - start) / delta)))


@declare("Range")
def _range_infer(op):
    for t, name in zip(op.inputs, ("start", "limit", "delta")):
        check_rank(t.shape, 0)
        check_same_dtype(op.inputs[0], t, "Range", "start", name)
    check_dtype(op.inputs[0], (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64), "start")
    values = [static_value(t) for t in op.inputs]
    if any(v is None for v in values):
        return [(op.inputs[0].dtype, TensorShape([None]))]
    return [(op.inputs[0].dtype, TensorShape([range_size(*(v[()] for v in values))]))]


_RANGE_TYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TensorFlow's public name
    """``[start, start + delta, ...)`` up to ``limit`` (``range(n)`` counts from 0); tensors allowed."""
    if limit is None:
        start, limit = 0, start
    with get_default_graph().name_scope(name or "range") as scope:
        for v, n in zip((start, limit, delta), ("start", "limit", "delta")):
            if dtype is not None and not is_tensor(v) and not ints_fit(v, dtype):
                raise ValueError(f"range's {n} {v} is out of the range of {dtypes.as_dtype(dtype).name}: the "
                                 "range would wrap around. Leave dtype out (int64 then) or pass a wider one.")
        args = [v if is_tensor(v) else convert_to_tensor(v, dtype=dtype, name=n)
                for v, n in zip((start, limit, delta), ("start", "limit", "delta"))]
        args = [convert_to_tensor(v) for v in args]
        if dtype is None:
            for t in args:
                if t.dtype.base_dtype not in _RANGE_TYPES:
                    raise TypeError(f"Range does not support dtype {t.dtype.base_dtype.name}; use int32, "
                                    "int64, float32 or float64.")
            dtype = builtins.max((t.dtype.base_dtype for t in args), key=_RANGE_TYPES.index)
        args = [cast(t, dtype) for t in args]
        return _out("Range", args, {"Tidx": dtypes.as_dtype(dtype)}, name=scope)[0]


# -- segment sums -------------------------------------------------------------------------------
@declare("UnsortedSegmentSum")
def _unsorted_segment_sum_infer(op):
    data, segment_ids, num_segments = op.inputs
    check_dtype(data, NUMBERS, "data")
    check_dtype(segment_ids, (dtypes.int16, dtypes.int32, dtypes.int64), "segment_ids")
    check_dtype(num_segments, INDEX_TYPES, "num_segments")
    check_rank(num_segments.shape, 0)
    n = static_value(num_segments)
    if n is not None and n < 0:
        raise ValueError(f"Dimension size, given by scalar input 2, must be non-negative but is {int(n)}")
    n = None if n is None else int(n)
    if data.shape.ndims is None or segment_ids.shape.ndims is None:
        return [(data.dtype, TensorShape(None))]
    k = segment_ids.shape.ndims
    check_rank(data.shape, k, at_least=True)
    for d, s in zip(data.shape.dim_values, segment_ids.shape.dim_values):
        if d is not None and s is not None and d != s:
            raise ValueError(f"Dimensions must be equal, but are {d} and {s}")
    return [(data.dtype, TensorShape([n] + data.shape.dim_values[k:]))]


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """``output[i] = sum(data[j...] for j where segment_ids[j...] == i)`` for ``i`` in ``[0, num_segments)``.

    ``segment_ids`` has the shape of a prefix of ``data``'s dimensions; negative ids are dropped, ids
    from ``num_segments`` up fail at run time (op ``UnsortedSegmentSum``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.unsorted_segment_sum([1, 2, 3, 4], [0, 2, 0, -1], 3)).tolist()
    [4, 0, 2]
    """
    with get_default_graph().name_scope(name or "UnsortedSegmentSum") as scope:
        data = convert_to_tensor(data, name="data")
        segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
        num_segments = convert_to_tensor(num_segments, name="num_segments", preferred_dtype=dtypes.int32)
        return _out("UnsortedSegmentSum", [data, segment_ids, num_segments], name=scope)[0]


def _operator(fn_name, op_name, reverse=False):
    """A Python operator of Tensor building ``fn_name``'s op; TF names the op after the operator (``add``)."""
    fn = globals()[fn_name]
    if reverse:
        return lambda self, other: reflected_operator(fn_name, other, self, op_name)
    if op_name is None:
        return lambda self, other: fn(self, other)
    return lambda self, other: fn(self, other, name=op_name)


# Python's operators on a Tensor build these ops; the graph layer defines none (as TensorFlow's
# math_ops overrides them on ops.Tensor).
for _name, _fn_name in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "truediv"),
                        ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow"), ("matmul", "matmul"),
                        ("and", "logical_and"), ("or", "logical_or"), ("xor", "logical_xor")]:
    setattr(Tensor, f"__{_name}__", _operator(_fn_name, _name))
    setattr(Tensor, f"__r{_name}__", _operator(_fn_name, _name, reverse=True))
for _name, _fn_name in [("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")]:
    setattr(Tensor, f"__{_name}__", _operator(_fn_name, None))
Tensor.__neg__ = lambda self: negative(self)
Tensor.__abs__ = lambda self: abs(self)
Tensor.__invert__ = lambda self: logical_not(self)


# The reductions read this module's dtype lists; their names stay here too (math_ops.reduce_sum).
from numflow.ops.reduction_ops import (  # noqa: E402, F401
    argmax,
    argmin,
    reduce_all,
    reduce_any,
    reduce_euclidean_norm,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
