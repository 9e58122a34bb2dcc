"""The elementwise functions beyond ``math_ops``' ``sin``, ``cos``, ``exp`` and ``tanh``: ``tan``, the inverse
and hyperbolic trigonometric functions (ops ``Asin``... ``Atanh``), ``atan2``, ``expm1``, the error
functions ``erf`` and ``erfc``, ``lgamma`` and ``digamma``, and ``rint`` (round half to even), with
TensorFlow's gradients (``math_grad.py``). Kernels: ``numflow_kernels/reference_special.py``.
"""

import math

import numpy as np

from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops import math_ops
from numflow.ops.array_grad import gradient, not_differentiable, sum_to
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, _binary_infer, _make_unary, _unary_infer
from numflow.ops.op_util import _out

_PUBLIC_NAMES = {
    "Tan": "tan", "Asin": "asin", "Acos": "acos", "Atan": "atan", "Sinh": "sinh", "Cosh": "cosh",
    "Asinh": "asinh", "Acosh": "acosh", "Atanh": "atanh", "Expm1": "expm1", "Erf": "erf", "Erfc": "erfc",
    "Lgamma": "lgamma", "Digamma": "digamma", "Rint": "rint",
}
for _op_type in _PUBLIC_NAMES:
    declare(_op_type)(_unary_infer(FLOATS))
declare("Atan2")(_binary_infer(None, FLOATS))

tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, expm1, erf, erfc, lgamma, digamma, rint = (
    _make_unary(op_type, name) for op_type, name in _PUBLIC_NAMES.items())


def atan2(y, x, name=None):
    """The angle of the point ``(x, y)``: ``arctan(y / x)`` in the right quadrant (op ``Atan2``).

    >>> import numflow as tf
    >>> round(float(tf.Session().run(tf.atan2(1.0, -1.0))), 4)
    2.3562
    """
    with get_default_graph().name_scope(name or "Atan2") as scope:
        y = convert_to_tensor(y, name="y")
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
        return _out("Atan2", [y, x], name=scope)[0]


# -- gradients: TensorFlow's (math_grad.py) -------------------------------------------------------------
def _one_minus_square(x):
    return math_ops.subtract(np.asarray(1, dtype=x.dtype.base_dtype.as_numpy_dtype), math_ops.square(x))


@gradient("Tan")
def _tan_grad(op, grad):
    return [grad * math_ops.square(math_ops.reciprocal(math_ops.cos(op.inputs[0])))]


@gradient("Asin")
def _asin_grad(op, grad):
    return [grad * math_ops.reciprocal(math_ops.sqrt(_one_minus_square(op.inputs[0])))]


@gradient("Acos")
def _acos_grad(op, grad):
    return [-grad * math_ops.reciprocal(math_ops.sqrt(_one_minus_square(op.inputs[0])))]


@gradient("Atan")
def _atan_grad(op, grad):
    x = op.inputs[0]
    return [grad * math_ops.reciprocal(math_ops.add(np.asarray(1, dtype=x.dtype.base_dtype.as_numpy_dtype),
                                                    math_ops.square(x)))]


@gradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    grad_inv = grad / (math_ops.square(x) + math_ops.square(y))
    return [sum_to(x * grad_inv, y, x), sum_to(-y * grad_inv, x, y)]


@gradient("Sinh")
def _sinh_grad(op, grad):
    return [grad * cosh(op.inputs[0])]


@gradient("Cosh")
def _cosh_grad(op, grad):
    return [grad * sinh(op.inputs[0])]


@gradient("Asinh")
def _asinh_grad(op, grad):
    return [grad / cosh(op.outputs[0])]


@gradient("Acosh")
def _acosh_grad(op, grad):
    return [grad / sinh(op.outputs[0])]


@gradient("Atanh")
def _atanh_grad(op, grad):
    return [grad * math_ops.reciprocal(_one_minus_square(op.inputs[0]))]


@gradient("Expm1")
def _expm1_grad(op, grad):
    return [grad * math_ops.exp(op.inputs[0])]


@gradient("Erf")
def _erf_grad(op, grad):
    x = op.inputs[0]
    two_over_root_pi = np.asarray(2 / math.sqrt(math.pi), dtype=x.dtype.base_dtype.as_numpy_dtype)
    return [grad * two_over_root_pi * math_ops.exp(-math_ops.square(x))]


@gradient("Erfc")
def _erfc_grad(op, grad):
    x = op.inputs[0]
    minus_two_over_root_pi = np.asarray(-2 / math.sqrt(math.pi), dtype=x.dtype.base_dtype.as_numpy_dtype)
    return [grad * minus_two_over_root_pi * math_ops.exp(-math_ops.square(x))]


@gradient("Lgamma")
def _lgamma_grad(op, grad):
    return [grad * digamma(op.inputs[0])]


not_differentiable("Rint")
