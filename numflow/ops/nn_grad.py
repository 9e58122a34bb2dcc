"""Gradients of the neural-network ops: activations, softmax, bias_add, l2_loss, cross entropy.

As TensorFlow's ``nn_grad.py``, with TensorFlow's gradient ops, declared here when the nn ops do not
declare them: ``ReluGrad(gradients, features)`` and ``BiasAddGrad(out_backprop)``. Kernels:
``numflow_kernels/grad.py``. The convolutions' and pools' gradients are in ``conv_grad.py``.
"""

from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import declare_once, gradient


def _graph():
    from numflow.framework.graph import get_default_graph

    return get_default_graph()


@declare_once("ReluGrad")
def _relu_grad_infer(op):
    g, features = op.inputs
    return [(g.dtype, g.shape.merge_with(features.shape) if g.shape.is_compatible_with(features.shape)
             else g.shape)]


@declare_once("BiasAddGrad")
def _bias_add_grad_infer(op):
    g = op.inputs[0]
    if g.shape.ndims is None:
        return [(g.dtype, TensorShape([None]))]
    channel = g.shape.dim_values[1] if op._attrs["data_format"] == "NCHW" else g.shape.dim_values[-1]
    return [(g.dtype, TensorShape([channel]))]


# -- activations and softmax -------------------------------------------------------------------
@gradient("Relu")
def _relu_grad(op, grad):
    return [_graph().create_op("ReluGrad", [grad, op.outputs[0]], name="ReluGrad").outputs[0]]


@gradient("ReluGrad")
def _relu_grad_grad(op, grad):
    features = op.inputs[1]
    return [_graph().create_op("ReluGrad", [grad, features], name="ReluGrad").outputs[0],
            array_ops.zeros_like(features)]


@gradient("Softmax")
def _softmax_grad(op, grad):
    y = op.outputs[0]
    dot = math_ops.reduce_sum(math_ops.multiply(grad, y), -1, keepdims=True)
    return [math_ops.multiply(math_ops.subtract(grad, dot), y)]


@gradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    softmax = math_ops.exp(op.outputs[0])
    return [math_ops.subtract(grad, math_ops.multiply(math_ops.reduce_sum(grad, -1, keepdims=True), softmax))]


# -- bias_add, l2_loss ------------------------------------------------------------------------
@gradient("BiasAdd")
def _bias_add_grad(op, grad):
    attrs = {"data_format": op._attrs.get("data_format", "NHWC")}
    db = _graph().create_op("BiasAddGrad", [grad], attrs, name="BiasAddGrad").outputs[0]
    return [grad, db]


@gradient("L2Loss")
def _l2_loss_grad(op, grad):
    return [math_ops.multiply(op.inputs[0], grad)]


# -- cross entropy -------------------------------------------------------------------------------
def _broadcast_mul(vec, mat):
    """``vec[:, None] * mat``: a per-row loss gradient times a per-row matrix."""
    return math_ops.multiply(array_ops.expand_dims(vec, -1), mat)


@gradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, grad_loss, grad_grad):
    """TensorFlow's: the kernel's second output is d(loss)/d(logits); labels get -log_softmax."""
    from numflow.ops import nn_ops

    logits = op.inputs[0]
    grad = _broadcast_mul(grad_loss, op.outputs[1])
    if grad_grad is not None and not _is_zeros(grad_grad):
        softmax = nn_ops.softmax(logits)
        dot = math_ops.reduce_sum(math_ops.multiply(grad_grad, softmax), -1, keepdims=True)
        grad = math_ops.add(grad, math_ops.multiply(math_ops.subtract(grad_grad, dot), softmax))
    return [grad, _broadcast_mul(grad_loss, math_ops.negative(nn_ops.log_softmax(logits)))]


@gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op, grad_loss, grad_grad):
    return [_broadcast_mul(grad_loss, op.outputs[1]), None]


def _is_zeros(t):
    """Whether ``t`` is zeros known when the graph is built (TensorFlow's ``IsZero``)."""
    if t.op.type == "ZerosLike":
        return True
    value = array_ops.static_value(t.op.inputs[1]) if t.op.type == "Fill" else array_ops.static_value(t)
    return value is not None and not value.any()
