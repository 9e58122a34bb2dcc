"""Convolution ops: ``Conv2D``, ``Conv3D``, ``DepthwiseConv2dNative``, their backprops (the transposed
convolutions are ``Conv2DBackpropInput`` / ``Conv3DBackpropInputV2``), and the ``tf.nn`` functions
that build them one op at a time: conv1d, conv2d, conv3d, the transposes, and the backprops.

Op types, inputs and attrs are TensorFlow's (``strides``, ``padding``, ``explicit_paddings``,
``data_format``, ``dilations``, ``use_cudnn_on_gpu``), as are the static shapes and the build-time
errors of their shape functions. The functions composed of several ops (``convolution``,
``atrous_conv2d``, ``depthwise_conv2d``, ``separable_conv2d``, ``pool``) are in ``conv_impl.py``;
gradients in ``conv_grad.py``; kernels in ``numflow_kernels/reference_conv.py`` and ``cpu/conv.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.ops import array_ops
from numflow.ops import conv_util as cu
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, check_same_dtype, shape_from_tensor

CONV_TYPES = FLOATS + (dtypes.int32,)
_RANK = {"Conv2D": 4, "Conv3D": 5, "DepthwiseConv2dNative": 4}


# -- shape inference ------------------------------------------------------------------------------------
def _channels(op, c, ci, co):
    """The output depth of a convolution of ``c`` input channels by a filter of in/out depths ``ci``/``co``."""
    if op.type.startswith("Depthwise"):
        if c is not None and ci is not None and c != ci:
            raise ValueError(f"Dimensions must be equal, but are {c} and {ci}")
        c = c if c is not None else ci
        return None if c is None or co is None else c * co
    if c is not None and ci is not None:
        if ci == 0 or c % ci:
            raise ValueError(f"Depth of input ({c}) is not a multiple of input depth of filter ({ci})")
        if co is not None and co % (c // ci):
            raise ValueError(f"Depth of output ({co}) is not a multiple of the number of groups ({c // ci})")
    return co


def _conv_out(op, x_dims, w_dims):
    """The output shape of the forward convolution ``op`` for input and filter dims (lists, None unknown)."""
    fmt = op._attrs["data_format"]
    n, c = cu.batch_and_channels(x_dims, fmt)
    co = _channels(op, c, *w_dims[-2:])
    return cu.shape(n, cu.window_output(op, x_dims, w_dims[:-2]), co, fmt)


def _conv_infer(op):
    x, w = op.inputs
    rank = _RANK[op.type]
    check_same_dtype(x, w, op.type, "input", "filter")
    check_dtype(x, CONV_TYPES if op.type == "Conv2D" else FLOATS, "input")
    check_rank(x.shape, rank)
    check_rank(w.shape, rank)
    cu.check_window_attrs(op, rank)
    return [(x.dtype, _conv_out(op, cu.dims(x.shape, rank), cu.dims(w.shape, rank)))]


for _type in _RANK:
    declare(_type)(_conv_infer)


def _sizes_shape(sizes, rank, op_type, what):
    check_dtype(sizes, INDEX_TYPES, what)
    check_rank(sizes.shape, 1)
    n = sizes.shape.dim_values[0] if sizes.shape.ndims == 1 else None
    allowed = (rank, rank - 2) if op_type == "Conv2DBackpropInput" else (rank,)
    if n is not None and n not in allowed:
        counts = " values or ".join(str(v) for v in allowed)
        raise ValueError(f"{op_type} requires {what} to contain {counts} values, but got: {n}")
    return shape_from_tensor(sizes)


def _backprop_checks(op, first, dy, first_name):
    """The checks both backprops make of their tensor inputs and attrs; returns the op's rank."""
    rank = 5 if op.type.startswith("Conv3D") else 4
    check_same_dtype(first, dy, op.type, first_name, "out_backprop")
    check_rank(first.shape, rank)
    check_rank(dy.shape, rank)
    cu.check_window_attrs(op, rank)
    return rank


def _backprop_input_infer(op):
    sizes, w, dy = op.inputs
    rank = _backprop_checks(op, w, dy, "filter")
    fmt = op._attrs["data_format"]
    given = _sizes_shape(sizes, rank, op.type, "input_sizes")
    wd, dyd = cu.dims(w.shape, rank), cu.dims(dy.shape, rank)
    out_depth = cu.batch_and_channels(dyd, fmt)[1]
    if not op.type.startswith("Depthwise") and None not in (out_depth, wd[-1]) and out_depth != wd[-1]:
        raise ValueError(f"Dimensions must be equal, but are {out_depth} and {wd[-1]}")
    if given.ndims == rank - 2:  # spatial sizes only: batch from out_backprop, depth from the filter
        given = cu.shape(dyd[0], given.dim_values, wd[-2], fmt)
    elif given.ndims is None:
        given = TensorShape([None] * rank)
    return [(dy.dtype, given)]


def _backprop_filter_infer(op):
    x, sizes, dy = op.inputs
    rank = _backprop_checks(op, x, dy, "input")
    given = _sizes_shape(sizes, rank, op.type, "filter_sizes")
    return [(dy.dtype, given if given.ndims is not None else TensorShape([None] * rank))]


for _type in ("Conv2DBackpropInput", "Conv3DBackpropInputV2", "DepthwiseConv2dNativeBackpropInput"):
    declare(_type)(_backprop_input_infer)
for _type in ("Conv2DBackpropFilter", "Conv3DBackpropFilterV2", "DepthwiseConv2dNativeBackpropFilter"):
    declare(_type)(_backprop_filter_infer)


# -- building the ops ------------------------------------------------------------------------------------
def conv_attrs(op_type, rank, strides, padding, data_format, dilations, explicit=True):
    """The attrs of a convolution op, ``strides`` and ``dilations`` already ``rank`` values (TF's gen_nn_ops)."""
    data_format = cu.FORMATS[rank][0] if data_format is None else data_format
    cu.check_choice(data_format, cu.FORMATS[rank], "data_format", op_type)
    padding, explicit_paddings = cu.convert_padding(padding, rank) if explicit else (padding, [])
    cu.check_choice(padding, ("SAME", "VALID", "EXPLICIT") if explicit else ("SAME", "VALID"), "padding", op_type)
    if rank == 5:  # the 3-D ops' definitions set a minimum length; the 2-D ops' shape functions check it
        for name, values in (("strides", strides), ("dilations", dilations)):
            if len(values) < rank:
                raise ValueError(f"Attr '{name}' of '{op_type}' Op passed list of length {len(values)} less than "
                                 f"minimum {rank}.")
    attrs = {"strides": [int(s) for s in strides], "padding": padding, "data_format": data_format,
             "dilations": [int(d) for d in dilations]}
    if explicit:
        attrs["explicit_paddings"] = explicit_paddings
    if op_type.startswith("Conv2D"):
        attrs["use_cudnn_on_gpu"] = True
    return attrs


def gen_op(op_type, inputs, attrs, name):
    """Add ``op_type`` as TensorFlow's generated wrappers do: in scope ``name`` (default the op type), with
    ``inputs`` (``(value, name)`` pairs) converted there; the first float input sets the others' dtype."""
    with get_default_graph().name_scope(name or op_type) as scope:
        tensors, dtype = [], None
        for value, input_name in inputs:
            is_sizes = input_name.endswith("_sizes")
            t = convert_to_tensor(value, dtype=None if is_sizes or array_ops.is_tensor(value) else dtype,
                                  name=input_name, preferred_dtype=dtypes.int32 if is_sizes else None)
            if not is_sizes and dtype is None:
                dtype = t.dtype.base_dtype
            tensors.append(t)
        if inputs[0][1].endswith("_sizes"):
            attrs = with_type(attrs, dtype)
        return _out(op_type, tensors, attrs, name=scope)[0]


def with_type(attrs, dtype):
    """``attrs`` with TensorFlow's ``T``: a backprop's first input is a shape, not of the op's type."""
    return {**attrs, "T": dtype}


def _format(data_format, default):
    return default if data_format is None else data_format


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=None, name=None, filters=None):
    """2-D convolution of a 4-D ``input`` with ``filter`` [height, width, in, out] (op ``Conv2D``).

    ``padding`` is "SAME" (output size ``ceil(in / stride)``), "VALID" (``ceil((in - (k - 1) *
    dilation) / stride)``) or a list of [before, after] pairs per dimension. ``strides`` and
    ``dilations`` are an int or 1, 2 or 4 values.

    >>> import numflow as tf
    >>> x = tf.placeholder(tf.float32, [None, 10, 10, 32])
    >>> tf.nn.conv2d(x, tf.ones([5, 5, 32, 32]), strides=[1, 1, 1, 1], padding="SAME").shape.as_list()
    [None, 10, 10, 32]
    """
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    fmt = _format(data_format, "NHWC")
    channel = 1 if cu.channels_first(fmt) else 3
    attrs = conv_attrs("Conv2D", 4, cu.get_sequence(strides, 2, channel, "strides"), padding, fmt,
                       cu.get_sequence(dilations, 2, channel, "dilations"))
    attrs["use_cudnn_on_gpu"] = bool(use_cudnn_on_gpu)
    return gen_op("Conv2D", [(input, "input"), (filter, "filter")], attrs, name)


def conv3d(input, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=(1, 1, 1, 1, 1), name=None, filters=None):
    """3-D convolution of a 5-D ``input`` with ``filter`` [depth, height, width, in, out] (op ``Conv3D``).

    ``strides`` and ``dilations`` are 5 values; ``padding`` is "SAME" or "VALID".
    """
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    attrs = conv_attrs("Conv3D", 5, list(strides or []), padding, _format(data_format, "NDHWC"),
                       list(dilations or [1] * 5), explicit=False)
    return gen_op("Conv3D", [(input, "input"), (filter, "filter")], attrs, name)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None, padding=None,  # noqa: A002
                          use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None,
                          filters=None):
    """The gradient of ``conv2d`` with respect to its input, of shape ``input_sizes`` (op ``Conv2DBackpropInput``)."""
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    return gen_op("Conv2DBackpropInput", [(input_sizes, "input_sizes"), (filter, "filter"),
                                          (out_backprop, "out_backprop")],
                  conv_attrs("Conv2DBackpropInput", 4, strides, padding, data_format, dilations), name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of ``conv2d`` with respect to its filter, of shape ``filter_sizes``
    (op ``Conv2DBackpropFilter``)."""
    return gen_op("Conv2DBackpropFilter", [(input, "input"), (filter_sizes, "filter_sizes"),
                                           (out_backprop, "out_backprop")],
                  conv_attrs("Conv2DBackpropFilter", 4, strides, padding, data_format, dilations), name)


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=(1, 1, 1, 1, 1), name=None):
    """The gradient of ``conv3d`` with respect to its filter (op ``Conv3DBackpropFilterV2``)."""
    return gen_op("Conv3DBackpropFilterV2", [(input, "input"), (filter_sizes, "filter_sizes"),
                                             (out_backprop, "out_backprop")],
                  conv_attrs("Conv3DBackpropFilterV2", 5, strides, padding, data_format, dilations, False), name)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """The transpose of ``conv2d`` (op ``Conv2DBackpropInput``, named ``conv2d_transpose``): ``value``
    [batch, height, width, out] spread through ``filter`` [height, width, in, out] to ``output_shape``.

    >>> import numflow as tf
    >>> x = tf.placeholder(tf.float32, [2, 7, 7, 8])
    >>> tf.nn.conv2d_transpose(x, tf.ones([3, 3, 4, 8]), [2, 14, 14, 4], [1, 2, 2, 1]).shape.as_list()
    [2, 14, 14, 4]
    """
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    value = cu.argument_lookup("input", input, "value", value)
    with get_default_graph().name_scope(name or "conv2d_transpose") as scope:
        fmt = _format(data_format, "NHWC")
        channel = 1 if cu.channels_first(fmt) else 3
        attrs = conv_attrs("Conv2DBackpropInput", 4, cu.get_sequence(strides, 2, channel, "strides"), padding, fmt,
                           cu.get_sequence(dilations, 2, channel, "dilations"))
        return gen_op("Conv2DBackpropInput", [(output_shape, "input_sizes"), (filter, "filter"),
                                              (value, "out_backprop")], attrs, scope)


def conv3d_transpose(value, filter=None, output_shape=None, strides=None, padding="SAME",  # noqa: A002
                     data_format="NDHWC", name=None, input=None, filters=None, dilations=None):  # noqa: A002
    """The transpose of ``conv3d`` (op ``Conv3DBackpropInputV2``, named ``conv3d_transpose``)."""
    filter = cu.argument_lookup("filters", filters, "filter", filter)  # noqa: A001
    value = cu.argument_lookup("input", input, "value", value)
    with get_default_graph().name_scope(name or "conv3d_transpose") as scope:
        fmt = _format(data_format, "NDHWC")
        channel = 1 if cu.channels_first(fmt) else 4
        attrs = conv_attrs("Conv3DBackpropInputV2", 5, cu.get_sequence(strides, 3, channel, "strides"), padding,
                           fmt, cu.get_sequence(dilations, 3, channel, "dilations"), explicit=False)
        attrs["Tshape"] = dtypes.int32
        return gen_op("Conv3DBackpropInputV2", [(output_shape, "input_sizes"), (filter, "filter"),
                                                (value, "out_backprop")], attrs, scope)


def _one_d(data_format):
    """conv1d's layout: ``(2-D data format, the axis the added height takes)``."""
    if data_format in (None, "NHWC", "NWC"):
        return "NHWC", 1
    if data_format in ("NCHW", "NCW"):
        return "NCHW", 2
    raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None, data_format=None,
           name=None, input=None, dilations=None):  # noqa: A002
    """1-D convolution of a 3-D ``value`` [batch, width, in] with ``filters`` [width, in, out], as a ``Conv2D``
    of height 1 between ``ExpandDims`` and ``Squeeze``, as TensorFlow builds it."""
    value = cu.argument_lookup("input", input, "value", value)
    with get_default_graph().name_scope(name or "conv1d") as scope:
        fmt, axis = _one_d(data_format)
        channel = 1 if fmt == "NCHW" else 2
        strides = [1, *cu.get_sequence(stride, 1, channel, "stride")]
        dilations = [1, *cu.get_sequence(dilations, 1, channel, "dilations")]
        x = array_ops.expand_dims(value, axis - 4)
        w = array_ops.expand_dims(filters, 0)
        attrs = conv_attrs("Conv2D", 4, strides, padding, fmt, dilations)
        out = gen_op("Conv2D", [(x, "input"), (w, "filter")], attrs, scope)
        return array_ops.squeeze(out, [axis - 4])


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",  # noqa: A002
                     dilations=None, name=None):
    """The transpose of ``conv1d``: a ``Conv2DBackpropInput`` of height 1, as TensorFlow builds it."""
    with get_default_graph().name_scope(name or "conv1d_transpose") as scope:
        fmt, axis = _one_d(data_format or "NWC")
        channel = 1 if fmt == "NCHW" else 2
        strides = [1, *cu.get_sequence(strides, 1, channel, "stride")]
        dilations = [1, *cu.get_sequence(dilations, 1, channel, "dilations")]
        x = array_ops.expand_dims(input, axis)
        w = array_ops.expand_dims(filters, 0)
        shape = output_shape if array_ops.is_tensor(output_shape) else list(output_shape)
        sizes = array_ops.concat([shape[:axis], [1], shape[axis:]], 0)
        attrs = conv_attrs("Conv2DBackpropInput", 4, strides, padding, fmt, dilations)
        out = gen_op("Conv2DBackpropInput", [(sizes, "input_sizes"), (w, "filter"), (x, "out_backprop")], attrs,
                     scope)
        return array_ops.squeeze(out, axis)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """The transpose of ``convolution``: conv1d_transpose, conv2d_transpose or conv3d_transpose by the
    length of ``output_shape``."""
    n = dimension_value(output_shape.shape[0]) if array_ops.is_tensor(output_shape) else len(output_shape)
    if n not in (3, 4, 5):
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} of "
                         f"length {n}.")
    if n == 3:
        return conv1d_transpose(input, filters, output_shape, strides, padding, data_format or "NWC", dilations, name)
    build = conv2d_transpose if n == 4 else conv3d_transpose
    return build(input, filters, output_shape, strides, padding, data_format or ("NHWC" if n == 4 else "NDHWC"),
                 name, dilations=dilations)


# -- depthwise ----------------------------------------------------------------------------------------------
def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=(1, 1, 1, 1), name=None):
    """Each input channel convolved with its own ``multiplier`` filters, ``filter`` being [height, width,
    in, multiplier]; the output has ``in * multiplier`` channels (op ``DepthwiseConv2dNative``)."""
    attrs = conv_attrs("DepthwiseConv2dNative", 4, strides, padding, data_format, dilations)
    return gen_op("DepthwiseConv2dNative", [(input, "input"), (filter, "filter")], attrs, name)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
                                           data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of ``depthwise_conv2d_native`` with respect to its input."""
    attrs = conv_attrs("DepthwiseConv2dNativeBackpropInput", 4, strides, padding, data_format, dilations)
    return gen_op("DepthwiseConv2dNativeBackpropInput", [(input_sizes, "input_sizes"), (filter, "filter"),
                                                         (out_backprop, "out_backprop")], attrs, name)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                                            data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of ``depthwise_conv2d_native`` with respect to its filter."""
    attrs = conv_attrs("DepthwiseConv2dNativeBackpropFilter", 4, strides, padding, data_format, dilations)
    return gen_op("DepthwiseConv2dNativeBackpropFilter", [(input, "input"), (filter_sizes, "filter_sizes"),
                                                          (out_backprop, "out_backprop")], attrs, name)
