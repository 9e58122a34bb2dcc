"""Placeholders, identity, shapes, and ops that create, reshape, join or slice arrays."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.registry import declare


@declare("Placeholder")
def _placeholder_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


def placeholder(dtype, shape=None, name=None):
    """A tensor whose value must be fed at run time: ``sess.run(y, feed_dict={x: value})``."""
    attrs = {"dtype": dtypes.as_dtype(dtype), "shape": as_shape(shape)}
    return get_default_graph().create_op("Placeholder", [], attrs, name=name or "Placeholder").outputs[0]


@declare("PlaceholderWithDefault")
def _placeholder_with_default_infer(op):
    x = op.inputs[0]
    shape = op._attrs["shape"]
    if not shape.is_compatible_with(x.shape):
        raise ValueError(f"Shape {shape} is not compatible with the default value's shape {x.shape}")
    return [(x.dtype, shape)]


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` unless a value is fed in its place."""
    x = convert_to_tensor(input)
    return get_default_graph().create_op(
        "PlaceholderWithDefault", [x], {"shape": as_shape(shape)}, name=name or "PlaceholderWithDefault"
    ).outputs[0]


@declare("Identity")
def _identity_infer(op):
    x = op.inputs[0]
    return [(x.dtype, x.shape)]


def identity(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """A tensor with the same value as ``input`` (its own op: a place for control dependencies)."""
    x = convert_to_tensor(input)
    return get_default_graph().create_op("Identity", [x], name=name or "Identity").outputs[0]


@declare("Shape")
def _shape_infer(op):
    x = op.inputs[0]
    return [(op._attrs["out_type"], TensorShape([x.shape.ndims]))]


def shape(input, name=None, out_type=dtypes.int32):  # noqa: A002 - TensorFlow's argument name
    """The run-time shape of ``input`` as a 1-D integer tensor."""
    x = convert_to_tensor(input)
    return get_default_graph().create_op(
        "Shape", [x], {"out_type": dtypes.as_dtype(out_type)}, name=name or "Shape"
    ).outputs[0]
