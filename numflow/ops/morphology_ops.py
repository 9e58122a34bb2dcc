"""Grayscale morphology: ``tf.nn.dilation2d`` (op ``Dilation2D``, TensorFlow 1.x's signature: ``filter``,
``strides``, ``rates``, ``padding``) and ``tf.nn.erosion2d`` (its dual, ``-dilation2d(-value,
reverse(kernel))``), with the backprop ops ``Dilation2DBackpropInput`` and ``Dilation2DBackpropFilter``
that make its gradient. Kernels: ``numflow_kernels/reference_morphology.py`` and ``cpu/morphology.py``.
"""

from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import conv_util as cu
from numflow.ops.array_grad import gradient
from numflow.ops.conv_ops import gen_op
from numflow.ops.math_ops import REAL, negative
from numflow.ops.op_util import check_dtype, check_rank, dims_text
from numflow.ops.sequence_ops import reverse
from numflow_kernels.reference_morphology import output_size

_ATTRS = ("strides", "rates", "padding")


def _check_attrs(attrs):
    for attr, word in (("strides", "stride"), ("rates", "rate")):
        values = list(attrs[attr])
        if len(values) < 4:
            raise ValueError(f"Attr '{attr}' of 'Dilation2D' Op passed list of length {len(values)} less than "
                             "minimum 4.")
        if len(values) != 4:
            raise ValueError(f"Dilation2D requires the {word} attribute to contain 4 values, but got: {len(values)}")
        if min(values) < 1:
            raise ValueError(f"Dilation2D requires positive {word}s, but got {values}")
    cu.check_choice(attrs["padding"], ("SAME", "VALID"), "padding", "Dilation2D")


def dilation_output(op):
    """The static shape of a Dilation2D of ``op``'s input and filter (TensorFlow's shape function)."""
    x, f = op.inputs[0], op.inputs[1]
    check_dtype(x, REAL, "input")
    check_rank(x.shape, 4)
    check_rank(f.shape, 3)
    _check_attrs(op._attrs)
    xd, fd = cu.dims(x.shape, 4), cu.dims(f.shape, 3)
    if None not in (xd[3], fd[2]) and xd[3] != fd[2]:
        raise ValueError(f"Dimensions must be equal, but are {xd[3]} and {fd[2]} for '{op.name}' (Dilation2D) with "
                         f"input shapes: {dims_text(x.shape)}, {dims_text(f.shape)}.")
    a = op._attrs
    spatial = [None if None in (size, k) else output_size(size, k, a["strides"][d], a["rates"][d], a["padding"])[0]
               for d, size, k in ((1, xd[1], fd[0]), (2, xd[2], fd[1]))]
    return TensorShape([xd[0], *spatial, xd[3] if xd[3] is not None else fd[2]])


@declare("Dilation2D")
def _dilation_infer(op):
    return [(op.inputs[0].dtype, dilation_output(op))]


@declare("Dilation2DBackpropInput")
def _backprop_input_infer(op):
    dilation_output(op)
    return [(op.inputs[0].dtype, op.inputs[0].shape)]


@declare("Dilation2DBackpropFilter")
def _backprop_filter_infer(op):
    dilation_output(op)
    return [(op.inputs[0].dtype, op.inputs[1].shape)]


def _attrs(strides, rates, padding):
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return {"strides": [int(s) for s in strides], "rates": [int(r) for r in rates], "padding": padding}


def dilation2d(input, filter=None, strides=None, rates=None, padding=None, name=None,  # noqa: A002
               filters=None, dilations=None):
    """The grayscale dilation of the 4-D ``input`` by the 3-D ``filter`` (op ``Dilation2D``).

    ``output[b, y, x, c] = max over (dy, dx) of input[b, y * strides[1] + rates[1] * dy, x * strides[2] +
    rates[2] * dx, c] + filter[dy, dx, c]``, over the taps inside the input. ``filters`` and
    ``dilations`` are TensorFlow 2's names of ``filter`` and ``rates``.

    >>> import numflow as tf
    >>> x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
    >>> y = tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
    >>> tf.Session().run(y)[0, :, :, 0].tolist()
    [[3.0, 3.0], [3.0, 3.0]]
    """
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    rates = cu.argument_lookup("dilations", dilations, "rates", rates)
    return gen_op("Dilation2D", [(input, "input"), (filter, "filter")], _attrs(strides, rates, padding), name)


def erosion2d(value, kernel, strides, rates, padding, name=None):
    """The grayscale erosion of the 4-D ``value`` by the 3-D ``kernel``: ``-dilation2d(-value, kernel
    reversed in height and width)``, as TensorFlow builds it in a name scope ``erosion2d``.

    >>> import numflow as tf
    >>> x = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
    >>> y = tf.nn.erosion2d(x, tf.ones([2, 2, 1]), [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    >>> tf.Session().run(y).ravel().tolist()
    [-1.0]
    """
    with get_default_graph().name_scope(name or "erosion2d") as scope:
        flipped = dilation2d(negative(value), reverse(kernel, [0, 1]), strides, rates, padding, name=scope)
        return negative(flipped)


def _backprop(op_type, op, grad):
    attrs = {k: op._attrs[k] for k in _ATTRS}
    return get_default_graph().create_op(op_type, [op.inputs[0], op.inputs[1], grad], attrs,
                                         name=op_type).outputs[0]


@gradient("Dilation2D")
def _dilation_grad(op, grad):
    return [_backprop("Dilation2DBackpropInput", op, grad), _backprop("Dilation2DBackpropFilter", op, grad)]
