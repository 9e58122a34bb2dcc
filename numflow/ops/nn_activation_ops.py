"""Activations beyond relu: leaky_relu, elu, selu, softplus, softsign, crelu, swish (silu), log_sigmoid.

Each keeps TensorFlow's op and gradient op (``LeakyRelu``/``LeakyReluGrad(gradients, features)``,
``Elu``/``EluGrad(gradients, outputs)``, ``Selu``/``SeluGrad(gradients, outputs)``, ``Softsign``/
``SoftsignGrad(gradients, features)``, ``Relu6Grad(gradients, features)``); ``Softplus``'s gradient
is ``grad * sigmoid(features)`` as TensorFlow 2 builds it. crelu, swish and log_sigmoid are built
from other ops, under TensorFlow's names. Kernels: ``numflow_kernels/reference_activation.py``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, REAL
from numflow.ops.op_util import _out, check_dtype, check_same_dtype


def _float_unary(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "features")
    return [(x.dtype, x.shape)]


_SECOND_INPUT = {"EluGrad": "outputs", "SeluGrad": "outputs"}


def _grad_infer(op):
    gradients, other = op.inputs
    check_same_dtype(gradients, other, op.type, "gradients", _SECOND_INPUT.get(op.type, "features"))
    check_dtype(gradients, REAL if op.type == "Relu6Grad" else FLOATS, "gradients")
    shape = gradients.shape.merge_with(other.shape) if gradients.shape.is_compatible_with(other.shape) \
        else gradients.shape
    return [(gradients.dtype, shape)]


for _op_type in ("LeakyRelu", "Elu", "Selu", "Softplus", "Softsign"):
    declare(_op_type)(_float_unary)
for _op_type in ("LeakyReluGrad", "EluGrad", "SeluGrad", "SoftsignGrad", "Relu6Grad"):
    declare(_op_type)(_grad_infer)


def _activation(op_type, features, name, attrs=None):
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(features, name="features")
        return _out(op_type, [x], attrs, name=scope)[0]


def _grad_op(op_type, grad, other, attrs=None):
    return get_default_graph().create_op(op_type, [grad, other], attrs, name=op_type).outputs[0]


def leaky_relu(features, alpha=0.2, name=None):
    """``features`` where positive, else ``alpha * features`` (op ``LeakyRelu``).

    Integer features are cast to float32 first, as in TensorFlow.

    >>> import numflow as tf
    >>> tf.Session().run(tf.nn.leaky_relu([-2.0, 3.0], alpha=0.1)).tolist()
    [-0.20000000298023224, 3.0]
    """
    with get_default_graph().name_scope(name or "LeakyRelu") as scope:
        x = convert_to_tensor(features, name="features")
        if x.dtype.base_dtype.is_integer:
            x = math_ops.cast(x, dtypes.float32)
        # A float attr is a float32, as TensorFlow's: float64 features see alpha rounded to it.
        return _out("LeakyRelu", [x], {"alpha": float(np.float32(alpha))}, name=scope)[0]


def elu(features, name=None):
    """``exp(features) - 1`` where negative, else ``features`` (op ``Elu``)."""
    return _activation("Elu", features, name)


def selu(features, name=None):
    """``scale * elu(features)`` with ``alpha`` 1.6733 and ``scale`` 1.0507 (op ``Selu``)."""
    return _activation("Selu", features, name)


def softplus(features, name=None):
    """``log(exp(features) + 1)``, exact for large and small features (op ``Softplus``)."""
    return _activation("Softplus", features, name)


def softsign(features, name=None):
    """``features / (abs(features) + 1)`` (op ``Softsign``)."""
    return _activation("Softsign", features, name)


def crelu(features, name=None, axis=-1):
    """``relu(concat([features, -features], axis))``: the positive and negative parts side by side."""
    with get_default_graph().name_scope(name or "CRelu") as scope:
        x = convert_to_tensor(features, name="features")
        c = array_ops.concat([x, math_ops.negative(x)], axis, name=scope)
        from numflow.ops.nn_ops import relu

        return relu(c)


def swish(features, beta=1.0):
    """``features * sigmoid(beta * features)`` (also ``tf.nn.silu``); differentiable in both."""
    x = convert_to_tensor(features, name="features")
    b = math_ops.cast(convert_to_tensor(beta, name="beta"), x.dtype)
    return math_ops.multiply(x, math_ops.sigmoid(math_ops.multiply(b, x)))


silu = swish


def log_sigmoid(x, name=None):
    """``log(1 / (1 + exp(-x)))`` computed as ``-softplus(-x)``, stable for large ``|x|``."""
    with get_default_graph().name_scope(name or "LogSigmoid") as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.negative(softplus(math_ops.negative(x)), name=scope)


# -- gradients ---------------------------------------------------------------------------------
@register_gradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    return [_grad_op("LeakyReluGrad", grad, op.inputs[0], {"alpha": op._attrs["alpha"]})]


@register_gradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, grad):
    x = op.inputs[1]
    return [_grad_op("LeakyReluGrad", grad, x, {"alpha": op._attrs["alpha"]}), array_ops.zeros_like(x)]


@register_gradient("Elu")
def _elu_grad(op, grad):
    return [_grad_op("EluGrad", grad, op.outputs[0])]


@register_gradient("Selu")
def _selu_grad(op, grad):
    return [_grad_op("SeluGrad", grad, op.outputs[0])]


@register_gradient("Softplus")
def _softplus_grad(op, grad):
    return [math_ops.multiply(grad, math_ops.sigmoid(op.inputs[0]))]


@register_gradient("Softsign")
def _softsign_grad(op, grad):
    return [_grad_op("SoftsignGrad", grad, op.inputs[0])]


@register_gradient("Relu6")
def _relu6_grad(op, grad):
    return [_grad_op("Relu6Grad", grad, op.outputs[0])]


@register_gradient("Relu6Grad")
def _relu6_grad_grad(op, grad):
    x = op.inputs[1]
    return [_grad_op("Relu6Grad", grad, x), array_ops.zeros_like(x)]
