"""Pooling ops: ``MaxPool``, ``AvgPool``, ``MaxPool3D``, ``AvgPool3D`` and ``MaxPoolWithArgmax``, and the
``tf.nn`` functions that build them (max_pool, avg_pool and their 1-D, 2-D, 3-D and ``_v2`` forms,
max_pool_with_argmax), with TensorFlow's op names, attrs (``ksize``, ``strides``, ``padding``,
``explicit_paddings``, ``data_format``), static shapes and errors.

A max pool reads only the input (padding never wins); an average pool divides each window's sum by
the number of input elements in it, padding not counted. Gradients: ``pool_grad.py``; kernels:
``numflow_kernels/reference_pool.py`` and ``cpu/pool.py``.
"""

import collections

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops
from numflow.ops import conv_util as cu
from numflow.ops.conv_ops import gen_op
from numflow.ops.math_ops import FLOATS, SIGNED
from numflow.ops.op_util import check_dtype

MAX_POOL_TYPES = FLOATS + SIGNED + (dtypes.uint8, dtypes.uint16)
_RANK = {"MaxPool": 4, "AvgPool": 4, "MaxPool3D": 5, "AvgPool3D": 5, "MaxPoolWithArgmax": 4}
_PARAM = {"MaxPool": "input", "AvgPool": "value", "MaxPool3D": "input", "AvgPool3D": "input",
          "MaxPoolWithArgmax": "input"}


def pool_output(op, x):
    """The output shape of the pool ``op`` over ``x`` (TensorFlow's pooling shape function)."""
    rank = _RANK.get(op.type) or (5 if "3D" in op.type else 4)
    x_dims = cu.checked_input(op, x, rank)
    cu.check_window_attrs(op, rank, ("ksize", "strides"))
    fmt = op._attrs.get("data_format", "NHWC")
    n, c = cu.batch_and_channels(x_dims, fmt)
    return cu.shape(n, cu.window_output(op, x_dims, cu.spatial(op._attrs["ksize"], fmt)), c, fmt)


def _pool_infer(op):
    x = op.inputs[0]
    check_dtype(x, MAX_POOL_TYPES if op.type.startswith("MaxPool") and op.type != "MaxPool3D" else FLOATS,
                _PARAM[op.type])
    out = pool_output(op, x)
    if op.type == "MaxPoolWithArgmax":
        return [(x.dtype, out), (op._attrs["Targmax"], out)]
    return [(x.dtype, out)]


for _type in _RANK:
    declare(_type)(_pool_infer)


def pool_attrs(op_type, rank, ksize, strides, padding, data_format, explicit=False):
    """The attrs of a pooling op; ``ksize`` and ``strides`` already ``rank`` values."""
    formats = cu.FORMATS[rank] + (("NCHW_VECT_C",) if op_type == "MaxPool" else ())
    data_format = cu.FORMATS[rank][0] if data_format is None else data_format
    cu.check_choice(data_format, formats, "data_format", op_type)
    if data_format == "NCHW_VECT_C":
        raise ValueError(f"{op_type}: numflow does not support data_format NCHW_VECT_C")
    padding, explicit_paddings = cu.convert_padding(padding, rank) if explicit else (padding, [])
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    cu.check_choice(padding, ("SAME", "VALID", "EXPLICIT") if explicit else ("SAME", "VALID"), "padding", op_type)
    attrs = {"ksize": [int(k) for k in ksize], "strides": [int(s) for s in strides], "padding": padding,
             "data_format": data_format}
    if explicit:
        attrs["explicit_paddings"] = explicit_paddings
    return attrs


def _sequences(ksize, strides, n, data_format, default):
    channel = 1 if cu.channels_first(data_format or default) else n + 1
    return cu.get_sequence(ksize, n, channel, "ksize"), cu.get_sequence(strides, n, channel, "strides")


def _check_nonzero(ksize):
    if np.any(np.asarray(ksize) == 0):
        raise ValueError(f"`ksize` cannot be zero. Received: ksize={ksize}")


def _pool(op_type, value, ksize, strides, padding, data_format, name, scope, explicit=False):
    """``op_type`` of ``value`` in a name scope ``name`` (default ``scope``) named after it, as tf.nn builds it."""
    with get_default_graph().name_scope(name or scope) as full:
        rank = 5 if op_type.endswith("3D") else 4
        attrs = pool_attrs(op_type, rank, ksize, strides, padding, data_format, explicit)
        return gen_op(op_type, [(value, "input")], attrs, full)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """The maximum of each ``ksize`` window of the 4-D ``value``, moved by ``strides`` (op ``MaxPool``).

    ``ksize`` and ``strides`` are an int or 1, 2 or 4 values; ``padding`` is "SAME", "VALID" or a
    list of [before, after] pairs.

    >>> import numflow as tf
    >>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.Session().run(tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"))[0, :, :, 0].tolist()
    [[5.0, 7.0], [13.0, 15.0]]
    """
    value = cu.argument_lookup("input", input, "value", value)
    ksize, strides = _sequences(ksize, strides, 2, data_format, "NHWC")
    _check_nonzero(ksize)
    return _pool("MaxPool", value, ksize, strides, padding, data_format, name, "MaxPool", explicit=True)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """:func:`max_pool` in the name scope ``MaxPool2d``."""
    ksize, strides = _sequences(ksize, strides, 2, data_format, "NHWC")
    return _pool("MaxPool", input, ksize, strides, padding, data_format, name, "MaxPool2d", explicit=True)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The maximum of each window of the 5-D ``input`` (op ``MaxPool3D``)."""
    ksize, strides = _sequences(ksize, strides, 3, data_format, "NDHWC")
    return _pool("MaxPool3D", input, ksize, strides, padding, data_format, name, "MaxPool3D")


def _one_d(op_type, input, ksize, strides, padding, data_format, name, scope, explicit=False):  # noqa: A002
    """A pool of the 3-D ``input`` as the 2-D op of height 1 between ``ExpandDims`` and ``Squeeze``."""
    with get_default_graph().name_scope(name or scope) as full:
        data_format = data_format or "NWC"
        channel = 1 if cu.channels_first(data_format) else 2
        ksize = [1, *cu.get_sequence(ksize, 1, channel, "ksize")]
        strides = [1, *cu.get_sequence(strides, 1, channel, "strides")]
        if explicit and isinstance(padding, list | tuple):
            padding, pads = cu.convert_padding(padding, 3)
            padding = [[0, 0]] + [pads[i:i + 2] for i in range(0, len(pads), 2)]
        axis = 1 if data_format == "NWC" else 2
        x = array_ops.expand_dims(input, axis)
        attrs = pool_attrs(op_type, 4, ksize, strides, padding, "NHWC" if data_format == "NWC" else "NCHW", explicit)
        out = gen_op(op_type, [(x, "input")], attrs, full)
        return array_ops.squeeze(out, axis)


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The maximum of each window of the 3-D ``input`` [batch, width, channels] (a ``MaxPool`` of height 1)."""
    return _one_d("MaxPool", input, ksize, strides, padding, data_format, name, "MaxPool1d", explicit=True)


def _rank_of(input, data_format):  # noqa: A002
    shape = array_ops.convert_to_tensor(input).shape if not hasattr(input, "shape") else TensorShape(input.shape)
    if shape.ndims is not None:
        n = shape.ndims - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError(f"`input` must have a static shape or `data_format` must be given. Received: "
                         f"input.shape={shape} and data_format={data_format}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={shape} of rank {n + 2}.")
    return n


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Max pooling over 1, 2 or 3 spatial dimensions, by the rank of ``input`` (TensorFlow 2's ``max_pool``)."""
    n = _rank_of(input, data_format)
    if n == 1:
        return max_pool1d(input, ksize, strides, padding, data_format or "NWC", name)
    if n == 2:
        return max_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)
    if isinstance(padding, list | tuple):
        raise ValueError(f"Explicit padding is not supported with an input tensor of rank 5. Received: "
                         f"padding={padding}")
    return max_pool3d(input, ksize, strides, padding, data_format or "NDHWC", name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None, input=None):  # noqa: A002
    """The mean of each ``ksize`` window of the 4-D ``value`` over its input elements (op ``AvgPool``)."""
    value = cu.argument_lookup("input", input, "value", value)
    ksize, strides = _sequences(ksize, strides, 2, data_format, "NHWC")
    return _pool("AvgPool", value, ksize, strides, padding, data_format, name, "AvgPool")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """The mean of each window of the 3-D ``input`` (an ``AvgPool`` of height 1)."""
    return _one_d("AvgPool", input, ksize, strides, padding, data_format, name, "AvgPool1D")


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """The mean of each window of the 5-D ``input`` (op ``AvgPool3D``)."""
    ksize, strides = _sequences(ksize, strides, 3, data_format, "NDHWC")
    return _pool("AvgPool3D", input, ksize, strides, padding, data_format, name, "AvgPool3D")


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """Average pooling over 1, 2 or 3 spatial dimensions, by the rank of ``input`` (TensorFlow 2's ``avg_pool``)."""
    n = _rank_of(input, data_format)
    if n == 1:
        return avg_pool1d(input, ksize, strides, padding, data_format or "NWC", name)
    ksize, strides = _sequences(ksize, strides, n, data_format, "NHWC" if n == 2 else "NDHWC")
    if n == 2:
        return _pool("AvgPool", input, ksize, strides, padding, data_format, name, "AvgPool")
    return _pool("AvgPool3D", input, ksize, strides, padding, data_format, name, "AvgPool3D")


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None,  # noqa: A002, N803
                         name=None, output_dtype=None, include_batch_in_index=False):
    """:func:`max_pool` and, for each maximum, its flat index into ``input`` (op ``MaxPoolWithArgmax``):
    ``(y * width + x) * channels + c``, plus ``batch * height * width * channels`` when
    ``include_batch_in_index``. Returns ``(output, argmax)``; ``argmax`` is int64 unless ``Targmax`` says."""
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    argmax_type = dtypes.as_dtype(cu.argument_lookup("output_dtype", output_dtype, "Targmax", Targmax) or dtypes.int64)
    if argmax_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'Targmax' has DataType {argmax_type.name} not in list of "
                        "allowed values: int32, int64")
    ksize, strides = _sequences(ksize, strides, 2, "NHWC", "NHWC")
    attrs = pool_attrs("MaxPoolWithArgmax", 4, ksize, strides, padding, "NHWC")
    del attrs["data_format"]
    attrs.update(Targmax=argmax_type, include_batch_in_index=bool(include_batch_in_index))
    with get_default_graph().name_scope(name or "MaxPoolWithArgmax") as scope:
        x = array_ops.convert_to_tensor(input, name="input")
        op = get_default_graph().create_op("MaxPoolWithArgmax", [x], attrs, name=scope)
        return MaxPoolWithArgmaxResult(*op.outputs)


MaxPoolWithArgmaxResult = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])

