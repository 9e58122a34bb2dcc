"""Gradients of the math ops: elementwise arithmetic with broadcasting, matmul, reductions.

Each follows TensorFlow's ``math_grad.py``: a binary op's gradient for an operand that was
broadcast is summed back to that operand's shape (:func:`array_grad.sum_to`); a reduction's
gradient is reshaped to the kept-dims shape and broadcast back over the input.

Also declares ``SigmoidGrad(y, dy)``, ``TanhGrad(y, dy)`` and ``RsqrtGrad(y, dy)`` (TensorFlow's fused
gradients of ``Sigmoid``, ``Tanh`` and ``Rsqrt``, which graphs TensorFlow wrote hold) when the math
ops do not.
"""

import numpy as np

from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import (
    broadcast_to,
    declare_once,
    gradient,
    kept_dims_shape,
    not_differentiable,
    reduced_grad,
    sum_to,
)
from numflow.ops.complex_ops import conj

not_differentiable("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
                   "LogicalOr", "LogicalNot", "Range", "ArgMax", "ArgMin", "FloorDiv", "All", "Any")


def _graph():
    from numflow.framework.graph import get_default_graph

    return get_default_graph()


def _fused(op_type, y, dy):
    return _graph().create_op(op_type, [y, dy], name=op_type).outputs[0]


def _same_as_first(op):
    y, dy = op.inputs
    return [(dy.dtype, y.shape.merge_with(dy.shape) if y.shape.is_compatible_with(dy.shape) else dy.shape)]


declare_once("SigmoidGrad")(_same_as_first)
declare_once("TanhGrad")(_same_as_first)
declare_once("RsqrtGrad")(_same_as_first)


# -- binary ops --------------------------------------------------------------------------------
@gradient("AddV2")
def _add_grad(op, grad):
    x, y = op.inputs
    return [sum_to(grad, x, y), sum_to(grad, y, x)]


@gradient("Sub")
def _sub_grad(op, grad):
    x, y = op.inputs
    return [sum_to(grad, x, y), sum_to(math_ops.negative(grad), y, x)]


@gradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    cx, cy = conj(x), conj(y)
    return [sum_to(math_ops.multiply(grad, cy), x, y), sum_to(math_ops.multiply(cx, grad), y, x)]



def _quotient_grad(divide):
    """The gradient of ``x / y`` computed with ``divide`` (RealDiv's, or DivNoNan's zero for y == 0)."""

    def grad_fn(op, grad):
        x, y = op.inputs
        cx, cy = conj(x), conj(y)
        gx = divide(grad, cy)
        gy = math_ops.multiply(grad, divide(divide(math_ops.negative(cx), cy), cy))
        return [sum_to(gx, x, y), sum_to(gy, y, x)]

    return grad_fn


gradient("RealDiv")(_quotient_grad(math_ops.realdiv))
gradient("DivNoNan")(_quotient_grad(math_ops.div_no_nan))


@gradient("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    z = conj(op.outputs[0])
    x, y = conj(x), conj(y)
    one = np.ones((), dtype=x.dtype.base_dtype.as_numpy_dtype)
    gx = math_ops.multiply(math_ops.multiply(grad, y), math_ops.pow(x, math_ops.subtract(y, one)))
    # log(x) where x > 0 (where x != 0, for complex x), else 0: TensorFlow's choice for the gradient
    # with respect to the exponent.
    if x.dtype.base_dtype.is_complex:
        nonzero = math_ops.not_equal(x, np.zeros_like(one))
        log_x = array_ops.where(nonzero, math_ops.log(array_ops.where(nonzero, x, array_ops.ones_like(x))),
                                array_ops.zeros_like(x))
    else:
        positive = math_ops.cast(math_ops.greater(x, np.zeros_like(one)), x.dtype.base_dtype)
        safe_x = math_ops.add(math_ops.multiply(x, positive), math_ops.subtract(one, positive))
        log_x = math_ops.multiply(math_ops.log(safe_x), positive)
    gy = math_ops.multiply(math_ops.multiply(grad, z), log_x)
    return [sum_to(gx, x, y), sum_to(gy, y, x)]


def _select_grads(op, grad, x_wins):
    """The gradient to the winner, zeros to the other, selected (as TensorFlow does: an infinite or NaN
    gradient stays with its input, where a product with a 0/1 mask would spread NaN to both)."""
    x, y = op.inputs
    zeros = array_ops.zeros_like(grad)
    gx = array_ops.where(x_wins, grad, zeros)
    gy = array_ops.where(x_wins, zeros, grad)
    return [sum_to(gx, x, y), sum_to(gy, y, x)]


@gradient("Maximum")
def _maximum_grad(op, grad):
    return _select_grads(op, grad, math_ops.greater_equal(*op.inputs))


@gradient("Minimum")
def _minimum_grad(op, grad):
    return _select_grads(op, grad, math_ops.less_equal(*op.inputs))


@gradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    two = np.asarray(2, dtype=grad.dtype.base_dtype.as_numpy_dtype)
    gx = math_ops.multiply(math_ops.multiply(grad, two), math_ops.subtract(x, y))
    return [sum_to(gx, x, y), sum_to(math_ops.negative(gx), y, x)]


@gradient("FloorMod")
def _floor_mod_grad(op, grad):
    x, y = op.inputs
    gy = math_ops.multiply(grad, math_ops.negative(math_ops.floordiv(x, y)))
    return [sum_to(grad, x, y), sum_to(gy, y, x)]


# -- unary ops ---------------------------------------------------------------------------------
def _const(value, like):
    return np.asarray(value, dtype=like.dtype.base_dtype.as_numpy_dtype)


@gradient("Neg")
def _neg_grad(op, grad):
    return [math_ops.negative(grad)]


@gradient("Abs")
def _abs_grad(op, grad):
    return [math_ops.multiply(grad, math_ops.sign(op.inputs[0]))]


@gradient("Square")
def _square_grad(op, grad):
    x = conj(op.inputs[0])
    return [math_ops.multiply(grad, math_ops.multiply(x, _const(2, x)))]


@gradient("Sqrt")
def _sqrt_grad(op, grad):
    y = conj(op.outputs[0])
    return [math_ops.realdiv(math_ops.multiply(grad, _const(0.5, y)), y)]


@gradient("Rsqrt")
def _rsqrt_grad(op, grad):
    y = conj(op.outputs[0])
    cube = math_ops.multiply(math_ops.multiply(y, y), y)
    return [math_ops.multiply(math_ops.multiply(grad, _const(-0.5, y)), cube)]


@gradient("Exp")
def _exp_grad(op, grad):
    return [math_ops.multiply(grad, conj(op.outputs[0]))]


@gradient("Log")
def _log_grad(op, grad):
    return [math_ops.multiply(grad, math_ops.reciprocal(conj(op.inputs[0])))]


@gradient("Log1p")
def _log1p_grad(op, grad):
    x = conj(op.inputs[0])
    return [math_ops.multiply(grad, math_ops.reciprocal(math_ops.add(_const(1, x), x)))]


@gradient("Reciprocal")
def _reciprocal_grad(op, grad):
    y = conj(op.outputs[0])
    return [math_ops.multiply(math_ops.negative(grad), math_ops.multiply(y, y))]


@gradient("Tanh")
def _tanh_grad(op, grad):
    return [_fused("TanhGrad", conj(op.outputs[0]), grad)]


@gradient("Sigmoid")
def _sigmoid_grad(op, grad):
    return [_fused("SigmoidGrad", conj(op.outputs[0]), grad)]


@gradient("Sin")
def _sin_grad(op, grad):
    return [math_ops.multiply(grad, math_ops.cos(conj(op.inputs[0])))]


@gradient("Cos")
def _cos_grad(op, grad):
    return [math_ops.multiply(math_ops.negative(grad), math_ops.sin(conj(op.inputs[0])))]


@gradient("Sign")
def _sign_grad(op, grad):
    return [array_ops.zeros_like(op.inputs[0])]


@gradient("Floor", "Ceil", "Round")
def _step_grad(op, grad):
    return [None]


@gradient("SigmoidGrad")
def _sigmoid_grad_grad(op, grad):
    y, dy = op.inputs
    one, two = _const(1, y), _const(2, y)
    gy = math_ops.multiply(math_ops.multiply(grad, dy), math_ops.subtract(one, math_ops.multiply(two, y)))
    return [gy, _fused("SigmoidGrad", y, grad)]


@gradient("TanhGrad")
def _tanh_grad_grad(op, grad):
    y, dy = op.inputs
    gy = math_ops.multiply(math_ops.multiply(math_ops.multiply(grad, dy), y), _const(-2, y))
    return [gy, _fused("TanhGrad", y, grad)]


# -- matrix products ---------------------------------------------------------------------------
@gradient("MatMul")
def _matmul_grad(op, grad):
    a, b = conj(op.inputs[0]), conj(op.inputs[1])
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    mm = math_ops.matmul
    if not ta and not tb:
        return [mm(grad, b, transpose_b=True), mm(a, grad, transpose_a=True)]
    if not ta and tb:
        return [mm(grad, b), mm(grad, a, transpose_a=True)]
    if ta and not tb:
        return [mm(b, grad, transpose_b=True), mm(a, grad)]
    return [mm(b, grad, transpose_a=True, transpose_b=True), mm(grad, a, transpose_a=True, transpose_b=True)]


@gradient("BatchMatMulV2")
def _batch_matmul_grad(op, grad):
    x, y = op.inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    mm = math_ops.matmul
    if not ax and not ay:
        gx, gy = mm(grad, y, adjoint_b=True), mm(x, grad, adjoint_a=True)
    elif not ax and ay:
        gx, gy = mm(grad, y), mm(grad, x, adjoint_a=True)
    elif ax and not ay:
        gx, gy = mm(y, grad, adjoint_b=True), mm(x, grad)
    else:
        gx, gy = mm(y, grad, adjoint_a=True, adjoint_b=True), mm(grad, x, adjoint_a=True, adjoint_b=True)
    return [sum_to(gx, x), sum_to(gy, y)]


# -- reductions --------------------------------------------------------------------------------
@gradient("Sum")
def _sum_grad(op, grad):
    return [broadcast_to(reduced_grad(grad, op), op.inputs[0])]


def _count(x, y):
    """How many elements of ``x`` went into each element of ``y``: a Python int or an int tensor."""
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        return max(x.shape.num_elements() // max(y.shape.num_elements(), 1), 1)
    x_size = math_ops.reduce_prod(array_ops.shape(x))
    y_size = math_ops.reduce_prod(array_ops.shape(y))
    return math_ops.floordiv(x_size, math_ops.maximum(y_size, 1))


@gradient("Mean")
def _mean_grad(op, grad):
    x = op.inputs[0]
    spread = broadcast_to(reduced_grad(grad, op), x)
    count = _count(x, op.outputs[0])
    dtype = grad.dtype.base_dtype
    if isinstance(count, int):
        return [math_ops.realdiv(spread, np.asarray(count, dtype=dtype.as_numpy_dtype))]
    return [math_ops.realdiv(spread, math_ops.cast(count, dtype))]


@gradient("Max", "Min")
def _min_or_max_grad(op, grad):
    """Split the gradient equally between the elements equal to the extremum (TensorFlow's rule)."""
    x = op.inputs[0]
    kept = kept_dims_shape(x, op._attrs["axis"])
    y = op.outputs[0] if op._attrs["keep_dims"] else array_ops.reshape(op.outputs[0], kept)
    grad = reduced_grad(grad, op)
    indicators = math_ops.cast(math_ops.equal(y, x), grad.dtype.base_dtype)
    selected = math_ops.reduce_sum(indicators, op._attrs["axis"], keepdims=True)
    return [math_ops.multiply(math_ops.realdiv(indicators, selected), grad)]


@gradient("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    """``x / norm * grad``, written as TensorFlow writes it: ``x / (norm / grad)``."""
    output = op.outputs[0]
    if not op._attrs["keep_dims"]:
        kept = kept_dims_shape(op.inputs[0], op._attrs["axis"])
        output = array_ops.reshape(output, kept)
        grad = array_ops.reshape(grad, kept)
    return [math_ops.truediv(op.inputs[0], output / grad)]
