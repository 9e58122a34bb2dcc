"""``tf.bitwise``: BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift and RightShift (with numpy broadcasting) and Invert,
on integers, without gradients. Shifts clamp the shift to ``[0, bits - 1]`` as TensorFlow's kernels do; a right shift
of a signed integer is arithmetic. Kernels: ``numflow_kernels/reference_counting.py``."""

from numflow.framework import dtypes
from numflow.framework.registry import declare
from numflow.ops.array_grad import not_differentiable
from numflow.ops.math_ops import _binary_infer, _make_binary, _make_unary, _unary_infer

INTEGERS = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32,
            dtypes.uint64)
_BINARY = ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift")

for _op_type in _BINARY:
    declare(_op_type)(_binary_infer(None, INTEGERS))
declare("Invert")(_unary_infer(INTEGERS))
not_differentiable(*_BINARY, "Invert")

bitwise_and = _make_binary("BitwiseAnd", "bitwise_and", "BitwiseAnd")
bitwise_or = _make_binary("BitwiseOr", "bitwise_or", "BitwiseOr")
bitwise_xor = _make_binary("BitwiseXor", "bitwise_xor", "BitwiseXor")
left_shift = _make_binary("LeftShift", "left_shift", "LeftShift")
right_shift = _make_binary("RightShift", "right_shift", "RightShift")
invert = _make_unary("Invert", "invert")
