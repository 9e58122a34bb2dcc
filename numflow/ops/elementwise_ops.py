"""Elementwise ops beyond the arithmetic of ``math_ops``: truncating division and remainder (ops
``TruncateDiv``, ``TruncateMod``), TensorFlow 1's raw-op spellings (``floor_div``, ``arg_min``,
``arg_max``), and the float tests ``is_nan``, ``is_inf``, ``is_finite``.

Integer ``TruncateDiv``/``TruncateMod`` round toward zero as C does (``-7 // 2 == -3``,
``-7 % 2 == -1``); on floats they are ``trunc(x / y)`` and ``fmod``. An integer division by zero fails
at run time with InternalError, the class TensorFlow 2.21 gives it.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import (
    FLOATS,
    REAL,
    _binary_infer,
    _make_binary,
    _make_unary,
    argmax,
    argmin,
    cast,
    maximum,
    minimum,
)
from numflow.ops.op_util import check_dtype

_TRUNCATE_MOD_TYPES = FLOATS + (dtypes.int32, dtypes.int64)

declare("TruncateDiv")(_binary_infer(None, REAL))
declare("TruncateMod")(_binary_infer(None, _TRUNCATE_MOD_TYPES))

truncatediv = _make_binary("TruncateDiv", "truncatediv", "TruncateDiv")
truncatemod = _make_binary("TruncateMod", "truncatemod", "TruncateMod")
floor_div = _make_binary("FloorDiv", "floor_div", "FloorDiv")


def arg_max(input, dimension, name=None, output_type=dtypes.int64):  # noqa: A002 - TensorFlow's names
    """TensorFlow 1's ``tf.arg_max``: :func:`argmax` along ``dimension`` (op ``ArgMax``)."""
    return argmax(input, axis=dimension, name=name or "ArgMax", output_type=output_type)


def arg_min(input, dimension, name=None, output_type=dtypes.int64):  # noqa: A002 - TensorFlow's names
    """TensorFlow 1's ``tf.arg_min``: :func:`argmin` along ``dimension`` (op ``ArgMin``)."""
    return argmin(input, axis=dimension, name=name or "ArgMin", output_type=output_type)


def _float_test_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "x")
    return [(dtypes.bool, x.shape)]


def _make_float_test(op_type, public_name, what):
    declare(op_type)(_float_test_infer)
    fn = _make_unary(op_type, public_name)
    fn.__doc__ = f"Whether each element of the float tensor ``x`` is {what} (op ``{op_type}``); a bool tensor."
    return fn


is_nan = _make_float_test("IsNan", "is_nan", "NaN")
is_inf = _make_float_test("IsInf", "is_inf", "+inf or -inf")
is_finite = _make_float_test("IsFinite", "is_finite", "finite (neither inf nor NaN)")

not_differentiable("IsNan", "IsInf", "IsFinite")


@gradient("TruncateDiv")
def _truncate_div_grad(op, grad):
    """None for both inputs: TensorFlow registers TruncateDiv's gradient as none (a step function)."""
    return [None, None]


def saturate_cast(value, dtype, name=None):
    """``value`` cast to ``dtype``, first limited to the range ``dtype`` holds (no wrap-around), as TensorFlow
    builds it: ``Maximum`` with the lowest value and ``Minimum`` with the highest, where needed."""
    with get_default_graph().name_scope(name or "saturate_cast") as scope:
        value = convert_to_tensor(value, name="value")
        dtype = dtypes.as_dtype(dtype).base_dtype
        source = value.dtype.base_dtype
        if source.min < dtype.min:
            value = maximum(value, convert_to_tensor(dtype.min, dtype=source, name="min"))
        if source.max > dtype.max:
            value = minimum(value, convert_to_tensor(dtype.max, dtype=source, name="max"))
        return cast(value, dtype, name=scope)
