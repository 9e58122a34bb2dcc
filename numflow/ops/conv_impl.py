"""The ``tf.nn`` convolutions and pools built from several ops: ``convolution``, ``atrous_conv2d``,
``depthwise_conv2d``, ``separable_conv2d`` and ``pool``, as TensorFlow builds them.

A dilated convolution or pool is TensorFlow's ``with_space_to_batch``: ``SpaceToBatchND`` moves each
dilation-strided sub-grid of the input into the batch, a plain (VALID) op runs on it, and
``BatchToSpaceND`` puts the results back and crops the extra padding. The numbers equal a dilated
kernel's; the graph (op types and names) is TensorFlow's.
"""

import numpy as np

from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, conv_ops, pool_ops
from numflow.ops import conv_util as cu
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import shape_or_constant, static_value
from numflow.ops.space_batch_ops import batch_to_space_nd, space_to_batch_nd


def _ints(values, name):
    value = static_value(values) if array_ops.is_tensor(values) else np.asarray(values)
    if value is None:
        raise ValueError(f"`{name}` must be known when the graph is built. Received: {name}={values}")
    return np.asarray(value, np.int64).reshape(-1)


def _base_paddings(padding, filter_shape, rate, n, explicit, channels_first):
    """TensorFlow's base paddings of a dilated op: ``[n, 2]`` before the block padding."""
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape=None "
                             f"and padding={padding}")
        extra = (_ints(filter_shape, "filter_shape")[:n] - 1) * rate
        return np.stack([extra // 2, extra - extra // 2], axis=1)
    if padding == "VALID":
        return np.zeros((n, 2), np.int64)
    if padding == "EXPLICIT":
        pairs = np.asarray(explicit, np.int64).reshape(n + 2, 2)
        return pairs[2:] if channels_first else pairs[1:-1]
    raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")


def _block_paddings(x, spatial_dims, base, rate):
    """``(paddings, crops)`` that make each spatial size a multiple of ``rate`` (TensorFlow's
    ``required_space_to_batch_paddings``): numpy when the sizes are known, else ops."""
    dims = x.shape.dim_values if x.shape.ndims is not None else None
    sizes = [dims[i] for i in spatial_dims] if dims is not None else [None]
    if None not in sizes:
        full = np.asarray(sizes) + base[:, 0] + base[:, 1]
        extra = (rate - full % rate) % rate
        return (np.stack([base[:, 0], base[:, 1] + extra], axis=1),
                np.stack([np.zeros_like(extra), extra], axis=1))
    from numflow.ops import math_ops

    shape = array_ops.shape(x)
    size = array_ops.stack([shape[i] for i in spatial_dims])
    start, end = (convert_to_tensor(base[:, k].astype(np.int32)) for k in (0, 1))
    block = convert_to_tensor(rate.astype(np.int32))
    extra = math_ops.floormod(block - math_ops.floormod(size + start + end, block), block)
    return (array_ops.stack([start, end + extra], axis=1),
            array_ops.stack([array_ops.zeros_like(extra), extra], axis=1))


def _adjust(values, fill, spatial_dims):
    """``values`` (one row per spatial dim) with ``fill`` rows for the dims between the batch and them."""
    lead = spatial_dims[0] - 1
    if not lead:
        return values
    if array_ops.is_tensor(values):
        rows = np.full([lead, *values.shape.dim_values[1:]], fill, np.int32)
        return array_ops.concat([rows, values], 0)
    return np.concatenate([np.full([lead, *np.shape(values)[1:]], fill, np.int64), values])


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """``op(input, num_spatial_dims, padding)`` with the dilation ``dilation_rate``, by TensorFlow's
    SpaceToBatchND, VALID ``op``, BatchToSpaceND; just ``op`` when every rate is 1."""
    x = convert_to_tensor(input, name="input")
    rate = _ints(dilation_rate, "dilation_rate")
    n = len(rate)
    first = 2 if cu.channels_first(data_format) else 1
    spatial_dims = list(range(first, first + n)) if spatial_dims is None else list(spatial_dims)
    if np.any(rate < 1):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.all(rate == 1):
        return op(x, n, padding)
    padding, explicit = cu.convert_padding(padding)
    base = _base_paddings(padding, filter_shape, rate, n, explicit, cu.channels_first(data_format))
    paddings, crops = _block_paddings(x, spatial_dims, base, rate)
    block = _adjust(rate, 1, spatial_dims)
    converted = space_to_batch_nd(x, block, _adjust(paddings, 0, spatial_dims))
    result = op(converted, n, "VALID")
    return batch_to_space_nd(result, block, _adjust(crops, 0, spatial_dims))


def _strides_and_rates(n, strides, dilation_rate):
    """TensorFlow's ``_get_strides_and_dilation_rate``: ``n`` values each, checked."""
    if dilation_rate is None:
        dilation_rate = [1] * n
    elif len(dilation_rate) != n:
        raise ValueError(f"`len(dilation_rate)` should be {n}. Received: dilation_rate={dilation_rate} of length "
                         f"{len(dilation_rate)}")
    rate = np.array(dilation_rate, dtype=np.int32)
    if np.any(rate < 1):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}")
    if strides is None:
        strides = [1] * n
    elif len(strides) != n:
        raise ValueError(f"`len(strides)` should be {n}. Received: strides={strides} of length {len(strides)}")
    strides = np.array(strides, dtype=np.int32)
    if np.any(strides < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={strides}")
    if np.any(strides > 1) and np.any(rate > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={strides} and dilation_rate={rate}")
    return strides, rate


def _plain_conv(n, x, w, strides, padding, data_format, dilations, name):
    """The undilated convolution of ``n`` spatial dims: conv1d, conv2d or conv3d with full-length attrs."""
    if n == 1:
        return conv_ops.conv1d(x, w, strides, padding, data_format=data_format, dilations=dilations, name=name)
    if n == 2:
        return conv_ops.conv2d(x, w, strides, padding, data_format=data_format, dilations=dilations, name=name)
    return conv_ops.conv3d(x, w, strides, padding, data_format=data_format or "NDHWC", dilations=dilations,
                           name=name)


def convolution(input, filter=None, padding=None, strides=None, dilation_rate=None, name=None,  # noqa: A002
                data_format=None, filters=None, dilations=None):
    """N-D convolution (N = 1, 2 or 3, from the filter's rank): conv1d, conv2d or conv3d named
    ``convolution``; with a ``dilation_rate`` above 1, the same between SpaceToBatchND and
    BatchToSpaceND, as TensorFlow builds it."""
    w = cu.argument_lookup("filters", filters, "filter", filter)
    dilation_rate = cu.argument_lookup("dilations", dilations, "dilation_rate", dilation_rate)
    if not array_ops.is_tensor(w):
        with get_default_graph().name_scope("convolution_internal"):
            w = convert_to_tensor(w, name="filters")
    if not array_ops.is_tensor(input):
        with get_default_graph().name_scope("convolution_internal"):
            input = convert_to_tensor(input, name="input")  # noqa: A001
    n = w.shape.ndims - 2 if w.shape.ndims else (input.shape.ndims - 2 if input.shape.ndims else None)
    if n is None:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or `filters.shape.rank` "
                         f"must be known. Received: input.shape={input.shape} and filters.shape={w.shape}")
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
    channel = 1 if cu.channels_first(data_format) else n + 1
    full_dilations = cu.get_sequence(dilation_rate, n, channel, "dilations")
    full_strides = cu.get_sequence(strides, n, channel, "strides")
    with get_default_graph().name_scope(name or "convolution") as scope:
        if all(d == 1 for d in full_dilations):
            return _plain_conv(n, input, w, full_strides, padding, data_format, full_dilations, scope)
        strides, rate = _strides_and_rates(n, cu.spatial(full_strides, data_format),
                                           cu.spatial(full_dilations, data_format))
        plain_strides = cu.get_sequence(strides.tolist(), n, channel, "strides")

        def op(converted, _, valid):
            return _plain_conv(n, converted, w, plain_strides, valid, data_format, None, scope)

        return with_space_to_batch(input, rate, padding, op, filter_shape=w.shape.as_list()
                                   if w.shape.is_fully_defined() else array_ops.shape(w), data_format=data_format)


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution with holes: :func:`convolution` with ``dilation_rate=[rate, rate]``."""
    return convolution(value, filters, padding, dilation_rate=np.broadcast_to(rate, (2,)).tolist(), name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of :func:`atrous_conv2d`: a space-to-batch of ``value`` by ``rate``, a
    transposed VALID convolution, and the batch-to-space back, as TensorFlow composes it."""
    from numflow.framework.shapes import TensorShape
    from numflow.ops.space_batch_ops import batch_to_space, space_to_batch

    with get_default_graph().name_scope(name or "atrous_conv2d_transpose"):
        value = convert_to_tensor(value, name="value")
        filters = convert_to_tensor(filters, name="filters")
        if not value.shape.dims[3].is_compatible_with(filters.shape.dims[3]):
            raise ValueError("`value` channel count must be compatible with `filters` input channel count. Received: "
                             f"value.shape={value.shape} with channel count {value.shape.dims[3]} and "
                             f"filters.shape={filters.shape} with input channel count {filters.shape.dims[3]}.")
        if rate < 1:
            raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
        if rate == 1:
            return conv_ops.conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1], padding=padding,
                                    data_format="NHWC")
        if not convert_to_tensor(output_shape, name="output_shape").shape.is_compatible_with(TensorShape([4])):
            raise ValueError(f"`output_shape` must have shape (4,). Received: output_shape={output_shape}")
        output_shape = list(output_shape) if isinstance(output_shape, tuple | np.ndarray) else output_shape
        if padding == "SAME":
            filter_shape = filters.shape.as_list() if filters.shape.is_fully_defined() else array_ops.shape(filters)
            height_up = filter_shape[0] + (filter_shape[0] - 1) * (rate - 1)
            width_up = filter_shape[1] + (filter_shape[1] - 1) * (rate - 1)
            pad_top, pad_left = (height_up - 1) // 2, (width_up - 1) // 2
            pad_bottom, pad_right = height_up - 1 - pad_top, width_up - 1 - pad_left
        elif padding == "VALID":
            pad_top = pad_bottom = pad_left = pad_right = 0
        else:
            raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
        in_height = output_shape[1] + pad_top + pad_bottom
        in_width = output_shape[2] + pad_left + pad_right
        bottom_extra, right_extra = (rate - in_height % rate) % rate, (rate - in_width % rate) % rate
        value = space_to_batch(value, [[0, bottom_extra], [0, right_extra]], block_size=rate)
        input_sizes = [rate * rate * output_shape[0], (in_height + bottom_extra) // rate,
                       (in_width + right_extra) // rate, output_shape[3]]
        value = conv_ops.conv2d_backprop_input(input_sizes, filters, value, strides=[1, 1, 1, 1], padding="VALID",
                                      data_format="NHWC")
        crops = [[pad_top, pad_bottom + bottom_extra], [pad_left, pad_right + right_extra]]
        return batch_to_space(value, crops, block_size=rate)


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None, data_format=None,  # noqa: A002
                     dilations=None):
    """Each input channel convolved with its own filters (``DepthwiseConv2dNative`` named ``depthwise``);
    with a ``rate`` above 1, between SpaceToBatchND and BatchToSpaceND as TensorFlow builds it."""
    rate = cu.argument_lookup("dilations", dilations, "rate", rate) or [1, 1]
    with get_default_graph().name_scope(name or "depthwise") as scope:
        x = convert_to_tensor(input, name="tensor_in")
        w = convert_to_tensor(filter, name="filter_in")

        def op(converted, _, converted_padding):
            return conv_ops.depthwise_conv2d_native(converted, w, strides, converted_padding, data_format or "NHWC",
                                                    name=scope)

        return with_space_to_batch(x, rate, padding, op, filter_shape=shape_or_constant(w), data_format=data_format)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding, rate=None,  # noqa: A002
                     name=None, data_format=None, dilations=None):
    """A depthwise convolution (``separable_conv2d/depthwise``) then a 1x1 ``Conv2D`` mixing its channels
    (``separable_conv2d``), as TensorFlow builds it."""
    rate = cu.argument_lookup("dilations", dilations, "rate", rate) or [1, 1]
    with get_default_graph().name_scope(name or "separable_conv2d") as scope:
        x = convert_to_tensor(input, name="tensor_in")
        depthwise_filter = convert_to_tensor(depthwise_filter, name="depthwise_filter")
        pointwise_filter = convert_to_tensor(pointwise_filter, name="pointwise_filter")
        shape = pointwise_filter.shape.with_rank(4)
        for d in shape.dim_values[:2]:
            if d is not None and d != 1:
                raise ValueError(f"Dimensions {d} and 1 are not compatible")

        def op(converted, _, converted_padding):
            return conv_ops.depthwise_conv2d_native(converted, depthwise_filter, strides, converted_padding,
                                                    data_format or "NHWC", name="depthwise")

        depthwise = with_space_to_batch(x, rate, padding, op, filter_shape=shape_or_constant(depthwise_filter),
                                        data_format=data_format)
        return conv_ops.conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], padding="VALID", data_format=data_format,
                               name=scope)


_POOLS = {("MAX", 1): pool_ops.max_pool, ("MAX", 2): pool_ops.max_pool, ("MAX", 3): pool_ops.max_pool3d,
          ("AVG", 1): pool_ops.avg_pool, ("AVG", 2): pool_ops.avg_pool, ("AVG", 3): pool_ops.avg_pool3d}


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None, name=None,  # noqa: A002
         data_format=None, dilations=None):
    """Max or average pooling (``pooling_type`` "MAX" or "AVG") over 1, 2 or 3 spatial dimensions,
    in a name scope ``max_pool`` or ``avg_pool``; dilated through SpaceToBatchND, as TensorFlow builds it."""
    dilation_rate = cu.argument_lookup("dilations", dilations, "dilation_rate", dilation_rate)
    with get_default_graph().name_scope(name or f"{pooling_type.lower()}_pool") as scope:
        x = convert_to_tensor(input, name="input")
        n = len(window_shape)
        if not 1 <= n <= 3:
            raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of "
                             f"length {n}")
        x.shape.with_rank(n + 2)
        strides, rate = _strides_and_rates(n, strides, dilation_rate)
        if padding == "SAME" and np.any(rate > 1):
            raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                             f"padding={padding} and dilation_rate={rate}")
        if np.any(strides > np.asarray(window_shape)):
            raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                             f"implementations. Received: strides={strides} and window_shape={window_shape}")
        if (pooling_type, n) not in _POOLS:
            raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
        channels_first = cu.channels_first(data_format)
        window = ([1, 1] if channels_first else [1]) + list(window_shape) + ([] if channels_first else [1])
        steps = ([1, 1] if channels_first else [1]) + strides.tolist() + ([] if channels_first else [1])
        spatial_dims = list(range(2, n + 2) if channels_first else range(1, n + 1))
        kwargs = {}
        if n == 1:
            if data_format not in (None, "NWC", "NCW"):
                raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
            kwargs["data_format"] = "NCHW" if data_format == "NCW" else "NHWC"
            window, steps = [1, *window], [1, *steps]
        elif data_format is not None:
            kwargs["data_format"] = data_format

        def op(converted, _, converted_padding):
            if n == 1:
                converted = array_ops.expand_dims(converted, spatial_dims[0])
            result = _POOLS[(pooling_type, n)](converted, window, steps, converted_padding, name=scope, **kwargs)
            return array_ops.squeeze(result, [spatial_dims[0]]) if n == 1 else result

        return with_space_to_batch(x, rate, padding, op, filter_shape=list(window_shape), spatial_dims=spatial_dims,
                                   data_format=data_format)
