"""Gradients of the convolutions, of the pools and of SpaceToBatchND / BatchToSpaceND, as TensorFlow's
``nn_grad.py`` and ``array_grad.py`` build them, and the pooling gradient ops they add.

A convolution's gradients are its two backprops; a backprop's are the other backprop and the
forward convolution. ``MaxPool``'s gradient is ``MaxPoolGrad(orig_input, orig_output, grad)``,
whose own gradient is ``MaxPoolGradGrad`` (and that one's, ``MaxPoolGrad`` again); ``AvgPool``'s is
``AvgPoolGrad(orig_input_shape, grad)``, whose gradient is ``AvgPool`` of the incoming one.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, conv_ops, pool_ops, space_batch_ops  # noqa: F401  (declare the forward ops)
from numflow.ops.array_grad import gradient, shape_of
from numflow.ops.conv_ops import with_type
from numflow.ops.op_util import shape_from_tensor

_CONV_ATTRS = ("strides", "padding", "explicit_paddings", "data_format", "dilations", "use_cudnn_on_gpu", "Tshape")
_POOL_ATTRS = ("ksize", "strides", "padding", "explicit_paddings", "data_format")


def _op(op_type, inputs, attrs, name=None):
    return get_default_graph().create_op(op_type, inputs, attrs, name=name or op_type).outputs[0]


def _attrs(op, keys):
    return {k: op._attrs[k] for k in keys if k in op._attrs}


def _shape(x):
    return array_ops.shape_tensor(shape_of(x))


# -- convolutions ---------------------------------------------------------------------------------------
_BACKPROPS = {
    "Conv2D": ("Conv2DBackpropInput", "Conv2DBackpropFilter"),
    "Conv3D": ("Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"),
    "DepthwiseConv2dNative": ("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter"),
}
_FORWARD = {b: f for f, pair in _BACKPROPS.items() for b in pair}


@gradient(*_BACKPROPS)
def _conv_grad(op, grad):
    x, w = op.inputs
    attrs = _attrs(op, _CONV_ATTRS)
    to_input, to_filter = _BACKPROPS[op.type]
    return [_op(to_input, [_shape(x), w, grad], with_type(_attrs_for(to_input, attrs), grad.dtype)),
            _op(to_filter, [x, _shape(w), grad], _attrs_for(to_filter, attrs))]


def _attrs_for(op_type, attrs):
    """``attrs`` as ``op_type`` takes them: Conv3DBackpropInputV2 has a ``Tshape``, the others none."""
    out = {k: v for k, v in attrs.items() if k not in ("Tshape", "T")}
    if op_type == "Conv3DBackpropInputV2":
        out["Tshape"] = dtypes.int32
    return out


@gradient(*(b for pair in _BACKPROPS.values() for b in pair[:1]))
def _backprop_input_grad(op, grad):
    _, w, dy = op.inputs
    attrs = _attrs(op, _CONV_ATTRS)
    forward = _FORWARD[op.type]
    to_filter = _BACKPROPS[forward][1]
    return [None, _op(to_filter, [grad, _shape(w), dy], _attrs_for(to_filter, attrs)),
            _op(forward, [grad, w], _attrs_for(forward, attrs))]


@gradient(*(pair[1] for pair in _BACKPROPS.values()))
def _backprop_filter_grad(op, grad):
    x, _, dy = op.inputs
    attrs = _attrs(op, _CONV_ATTRS)
    forward = _FORWARD[op.type]
    to_input = _BACKPROPS[forward][0]
    return [_op(to_input, [_shape(x), grad, dy], with_type(_attrs_for(to_input, attrs), grad.dtype)), None,
            _op(forward, [x, grad], _attrs_for(forward, attrs))]


# -- pooling gradient ops ---------------------------------------------------------------------------------
def _like_input(op):
    return [(op.inputs[-1].dtype, op.inputs[0].shape)]


def _like_output(op):
    return [(op.inputs[-1].dtype, op.inputs[1].shape)]


def _from_sizes(op):
    shape = shape_from_tensor(op.inputs[0])
    return [(op.inputs[1].dtype, shape if shape.ndims is not None else TensorShape([None] * 4))]


for _type in ("MaxPoolGrad", "MaxPool3DGrad"):
    declare(_type)(_like_input)
for _type in ("MaxPoolGradGrad", "MaxPool3DGradGrad"):
    declare(_type)(_like_output)
for _type in ("AvgPoolGrad", "AvgPool3DGrad"):
    declare(_type)(_from_sizes)
declare("MaxPoolGradWithArgmax")(lambda op: [(op.inputs[1].dtype, op.inputs[0].shape)])
declare("MaxPoolGradGradWithArgmax")(lambda op: [(op.inputs[1].dtype, op.inputs[2].shape)])


@gradient("MaxPool", "MaxPool3D")
def _max_pool_grad(op, grad):
    grad_type = "MaxPoolGrad" if op.type == "MaxPool" else "MaxPool3DGrad"
    return [_op(grad_type, [op.inputs[0], op.outputs[0], grad], _attrs(op, _POOL_ATTRS))]


@gradient("MaxPoolGrad", "MaxPool3DGrad", "MaxPoolGradGrad", "MaxPool3DGradGrad")
def _max_pool_grad_grad(op, grad):
    """MaxPoolGrad's gradient is MaxPoolGradGrad, and MaxPoolGradGrad's is MaxPoolGrad (none for explicit padding)."""
    three_d = "3D" in op.type
    if op.type.endswith("GradGrad"):
        grad_type = "MaxPool3DGrad" if three_d else "MaxPoolGrad"
    else:
        grad_type = "MaxPool3DGradGrad" if three_d else "MaxPoolGradGrad"
    attrs = _attrs(op, _POOL_ATTRS)
    if grad_type == "MaxPoolGradGrad":
        attrs.pop("explicit_paddings", None)
    orig_input, orig_output = op.inputs[0], op.inputs[1]
    return [array_ops.zeros_like(orig_input), array_ops.zeros_like(orig_output),
            _op(grad_type, [orig_input, orig_output, grad], attrs)]


@gradient("AvgPool", "AvgPool3D")
def _avg_pool_grad(op, grad):
    grad_type = "AvgPoolGrad" if op.type == "AvgPool" else "AvgPool3DGrad"
    return [_op(grad_type, [_shape(op.inputs[0]), grad], _attrs(op, _POOL_ATTRS))]


@gradient("AvgPoolGrad", "AvgPool3DGrad")
def _avg_pool_grad_grad(op, grad):
    pool_type = "AvgPool" if op.type == "AvgPoolGrad" else "AvgPool3D"
    return [array_ops.stop_gradient(op.inputs[0]), _op(pool_type, [grad], _attrs(op, _POOL_ATTRS))]


_ARGMAX_ATTRS = ("ksize", "strides", "padding", "include_batch_in_index", "Targmax")


@gradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, grad, unused_argmax_grad):
    return [_op("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]], _attrs(op, _ARGMAX_ATTRS))]


@gradient("MaxPoolGradWithArgmax")
def _max_pool_grad_with_argmax_grad(op, grad):
    x, _, argmax = op.inputs
    return [array_ops.zeros_like(x), _op("MaxPoolGradGradWithArgmax", [x, grad, argmax], _attrs(op, _ARGMAX_ATTRS)),
            None]


@gradient("MaxPoolGradGradWithArgmax")
def _max_pool_grad_grad_with_argmax_grad(op, grad):
    x, _, argmax = op.inputs
    return [array_ops.zeros_like(x), _op("MaxPoolGradWithArgmax", [x, grad, argmax], _attrs(op, _ARGMAX_ATTRS)),
            None]
