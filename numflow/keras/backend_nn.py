"""The neural-network functions of ``tf.keras.backend`` (activations, convolutions, pools, paddings, resizes,
batch normalization, dropout), built from TensorFlow's ops as Keras' backend builds them on a CPU: inputs in
``channels_first`` are transposed to channels last around the op, since the CPU kernels want them so.
``backend.py`` re-exports them."""

import itertools

import numpy as np

from numflow.framework import dtypes
from numflow.ops import array_ops, conv_impl, conv_ops, math_ops, nn_activation_ops, nn_norm_ops, nn_ops, pool_ops
from numflow.ops.clip_ops import clip_by_value
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.tile_pad_split_ops import pad, split, tile


def _image_data_format(data_format):
    """``data_format``, the default when None, checked."""
    if data_format is None:
        from numflow.keras.backend import image_data_format

        data_format = image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Unknown data_format: " + str(data_format))
    return data_format


def _padding(padding):
    if padding not in ("same", "valid"):
        raise ValueError("Invalid padding: " + str(padding))
    return padding.upper()


def _to_channels_last(x, data_format):
    """``x`` with its channels last (transposed from ``channels_first``)."""
    if data_format == "channels_first":
        rank = x.shape.ndims
        return array_ops.transpose(x, (0, *range(2, rank), 1))
    return x


def _back_to(x, data_format):
    """The channels-last result ``x`` in ``data_format``."""
    if data_format == "channels_first":
        rank = x.shape.ndims
        return array_ops.transpose(x, (0, rank - 1, *range(1, rank - 1)))
    return x


_LAST_FORMATS = {3: "NWC", 4: "NHWC", 5: "NDHWC"}


# -- activations -------------------------------------------------------------------------------------------
def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)`` with a slope ``alpha`` below ``threshold``, capped at ``max_value``: ``LeakyRelu``,
    ``Relu6`` or ``Relu`` and a clip, as Keras picks them."""
    x = convert_to_tensor(x)
    dtype = x.dtype.base_dtype
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_activation_ops.leaky_relu(x, alpha=alpha)
        negative_part = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * math_ops.cast(math_ops.greater(x, threshold), dtype)
    elif max_value == 6:
        x = nn_ops.relu6(x)
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = clip_by_value(x, constant(0, dtype=dtype), constant(max_value, dtype=dtype))
    if alpha != 0.0:
        x -= constant(alpha, dtype=dtype) * negative_part
    return x


def elu(x, alpha=1.0):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below."""
    from numflow.ops.selection_ops import where_v2

    result = nn_activation_ops.elu(x)
    return result if alpha == 1 else where_v2(x > 0, result, alpha * result)


def softplus(x):
    return nn_activation_ops.softplus(x)


def softsign(x):
    return nn_activation_ops.softsign(x)


def hard_sigmoid(x):
    """``clip(0.2 x + 0.5, 0, 1)``."""
    dtype = x.dtype.base_dtype
    x = math_ops.add(math_ops.multiply(x, constant(0.2, dtype=dtype)), constant(0.5, dtype=dtype))
    return clip_by_value(x, 0.0, 1.0)


def dropout(x, level, noise_shape=None, seed=None):
    """``tf.nn.dropout`` of rate ``level``; without a ``seed``, one drawn from numpy's generator, as Keras does."""
    from numflow.ops.dropout_ops import dropout as drop

    if seed is None:
        seed = np.random.randint(10e6)
    return drop(x, rate=level, noise_shape=noise_shape, seed=seed)


def bias_add(x, bias, data_format=None):
    """``x + bias`` along the channels (``bias`` of rank 1, or of the rank of ``x`` without the batch)."""
    data_format = _image_data_format(data_format)
    bias_shape = tuple(bias.shape.as_list())
    rank = x.shape.ndims
    if len(bias_shape) not in (1, rank - 1):
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}, expect to be 1 or {rank - 1} dimensions")
    if len(bias_shape) == 1:
        return nn_ops.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first" else "NHWC")
    if rank in (3, 4, 5):
        if data_format == "channels_first":
            return x + array_ops.reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1])
        return x + array_ops.reshape(bias, (1,) + bias_shape)
    return nn_ops.bias_add(x, bias)


# -- convolutions and pools --------------------------------------------------------------------------------
def _convolution(x, kernel, strides, padding, data_format, dilation_rate):
    data_format = _image_data_format(data_format)
    x = _to_channels_last(x, data_format)
    x = conv_impl.convolution(x, kernel, padding=_padding(padding), strides=strides, dilation_rate=dilation_rate,
                              data_format=_LAST_FORMATS[x.shape.ndims])
    return _back_to(x, data_format)


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution (``padding`` ``"causal"``: padded on the left only)."""
    if padding == "causal":
        x = temporal_padding(x, (dilation_rate * (kernel.shape.as_list()[0] - 1), 0))
        padding = "valid"
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None, dilation_rate=(1, 1, 1)):
    return _convolution(x, kernel, strides, padding, data_format, dilation_rate)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """The transpose of ``conv2d`` to ``output_shape`` (in ``data_format``; a None batch is ``x``'s)."""
    data_format = _image_data_format(data_format)
    x = _to_channels_last(x, data_format)
    if data_format == "channels_first":
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if output_shape[0] is None:
        output_shape = (array_ops.shape(x)[0], *tuple(output_shape[1:]))
    if isinstance(output_shape, tuple | list):
        output_shape = array_ops.stack(list(output_shape))
    if tuple(dilation_rate) == (1, 1):
        x = conv_ops.conv2d_transpose(x, kernel, output_shape, (1, *strides, 1), padding=_padding(padding),
                                      data_format="NHWC")
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be equal to each other. "
                             f"Received: dilation_rate={dilation_rate}")
        x = conv_impl.atrous_conv2d_transpose(x, kernel, output_shape, rate=dilation_rate[0],
                                              padding=_padding(padding))
    return _back_to(x, data_format)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """Each channel convolved with its own ``depth_multiplier`` filters."""
    data_format = _image_data_format(data_format)
    x = _to_channels_last(x, data_format)
    x = conv_impl.depthwise_conv2d(x, depthwise_kernel, strides=(1, *strides, 1), padding=_padding(padding),
                                   rate=dilation_rate, data_format="NHWC")
    return _back_to(x, data_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """A depthwise convolution followed by a 1x1 one."""
    data_format = _image_data_format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x = _to_channels_last(x, data_format)
    x = conv_impl.separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, *tuple(strides), 1),
                                   padding=_padding(padding), rate=dilation_rate, data_format="NHWC")
    return _back_to(x, data_format)


def _pool(x, pool_size, strides, padding, data_format, pool_mode, ops):
    data_format = _image_data_format(data_format)
    if pool_mode not in ops:
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    x = _to_channels_last(x, data_format)
    x = ops[pool_mode](x, (1, *tuple(pool_size), 1), (1, *tuple(strides), 1), padding=_padding(padding),
                       data_format=_LAST_FORMATS[x.shape.ndims])
    return _back_to(x, data_format)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """2-D max (``pool_mode="max"``) or average (``"avg"``) pooling."""
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode,
                 {"max": pool_ops.max_pool, "avg": pool_ops.avg_pool})


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """3-D max (``pool_mode="max"``) or average (``"avg"``) pooling."""
    return _pool(x, pool_size, strides, padding, data_format, pool_mode,
                 {"max": pool_ops.max_pool3d, "avg": pool_ops.avg_pool3d})


def local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """The locally connected product: each output position's patch (flattened) times its own kernel slice."""
    from numflow.keras.backend_math import concatenate, reshape
    from numflow.keras.backend_ops import batch_dot

    data_format = _image_data_format(data_format)
    kernel_shape = tuple(kernel.shape.as_list())
    feature_dim, channels_out = kernel_shape[1], kernel_shape[-1]
    ndims = len(output_shape)
    spatial = list(range(ndims))
    patches = []
    for position in itertools.product(*(range(n) for n in output_shape)):
        window = [slice(position[d] * strides[d], position[d] * strides[d] + kernel_size[d]) for d in spatial]
        index = (slice(None), slice(None), *window) if data_format == "channels_first" else (slice(None), *window)
        patches.append(reshape(inputs[index], (1, -1, feature_dim)))
    output = batch_dot(concatenate(patches, axis=0), kernel)
    output = reshape(output, (*tuple(output_shape), -1, channels_out))
    perm = [ndims, ndims + 1, *spatial] if data_format == "channels_first" else [ndims, *spatial, ndims + 1]
    return array_ops.transpose(output, perm)


def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
    return local_conv(inputs, kernel, kernel_size, strides, (kernel.shape.as_list()[0],), data_format)


def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    return local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format)


# -- batch normalization -----------------------------------------------------------------------------------
def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """``gamma * (x - mean) / sqrt(var + epsilon) + beta``: one inference ``FusedBatchNormV3`` for images
    normalized along their channels, else ``tf.nn.batch_normalization``."""
    if x.shape.ndims == 4:
        data_format = {1: "NCHW", -3: "NCHW", 3: "NHWC", -1: "NHWC"}.get(axis)
        if data_format == "NHWC":
            mean, var = _flat(mean), _flat(var)
            beta = array_ops.zeros_like(mean) if beta is None else _flat(beta)
            gamma = array_ops.ones_like(mean) if gamma is None else _flat(gamma)
        y, _, _ = nn_norm_ops.fused_batch_norm(x, gamma, beta, epsilon=epsilon, mean=mean, variance=var,
                                               data_format=data_format, is_training=False)
        return y
    return nn_norm_ops.batch_normalization(x, mean, var, beta, gamma, epsilon)


def _flat(v):
    return v if v.shape.ndims <= 1 else array_ops.reshape(v, [-1])


def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """``(normalized, mean, variance)`` of ``x`` with the moments over ``reduction_axes``."""
    rank = x.shape.ndims
    axes = list(reduction_axes)
    if rank == 4 and axes == [0, 1, 2]:
        channels = x.shape.as_list()[3]
        gamma = constant(1.0, dtype=x.dtype, shape=[channels]) if gamma is None else gamma
        beta = constant(0.0, dtype=x.dtype, shape=[channels]) if beta is None else beta
        return nn_norm_ops.fused_batch_norm(x, gamma, beta, epsilon=epsilon, data_format="NHWC")
    mean, variance = nn_norm_ops.moments(x, axes, None, None, False)
    if sorted(axes) == list(range(rank))[:-1]:
        return nn_norm_ops.batch_normalization(x, mean, variance, beta, gamma, epsilon), mean, variance
    dims = array_ops.shape(x)
    target = array_ops.stack([1 if axis in axes else dims[axis] for axis in range(rank)])
    broadcast = [None if v is None else array_ops.reshape(v, target) for v in (mean, variance, beta, gamma)]
    return nn_norm_ops.batch_normalization(x, *broadcast, epsilon), mean, variance


def moving_average_update(x, value, momentum):
    """The zero-debiased ``tf.train.assign_moving_average`` of variable ``x`` towards ``value``."""
    from numflow.train.moving_averages import assign_moving_average

    return assign_moving_average(x, value, momentum, zero_debias=True)


# -- paddings, resizes and repeats -------------------------------------------------------------------------
def temporal_padding(x, padding=(1, 1)):
    """Zeros before and after the steps (axis 1) of a 3-D tensor."""
    if len(padding) != 2:
        raise ValueError(f"`padding` must be a pair of integers. Received: padding={padding}")
    return pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def _spatial_padding(x, padding, data_format, rank):
    if len(padding) != rank or any(len(p) != 2 for p in padding):
        raise ValueError(f"`padding` must be {rank} pairs of integers. Received: padding={padding}")
    data_format = _image_data_format(data_format)
    pattern = [list(p) for p in padding]
    pattern = [[0, 0], [0, 0], *pattern] if data_format == "channels_first" else [[0, 0], *pattern, [0, 0]]
    return pad(x, pattern)


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zeros around the rows and columns of a 4-D tensor."""
    return _spatial_padding(x, padding, data_format, 2)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zeros around the three spatial axes of a 5-D tensor."""
    return _spatial_padding(x, padding, data_format, 3)


_RESIZE_METHODS = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5", "mitchellcubic", "nearest")


def resize_image_v2(images, size, interpolation):
    """TensorFlow 2's ``tf.image.resize`` of 3-D or 4-D ``images`` (half-pixel centres, never skipped; float32
    unless nearest)."""
    from numflow.framework.graph import get_default_graph
    from numflow.ops import image_resize_ops

    methods = {"bilinear": image_resize_ops.resize_bilinear, "nearest": image_resize_ops.resize_nearest_neighbor,
               "bicubic": image_resize_ops.resize_bicubic}
    if interpolation not in methods:
        raise NotImplementedError(f"interpolation {interpolation!r} is not implemented; use one of {sorted(methods)}")
    with get_default_graph().name_scope("resize"):
        images = convert_to_tensor(images, name="images")
        is_batch = images.shape.ndims != 3
        if not is_batch:
            images = array_ops.expand_dims(images, 0)
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        resized = methods[interpolation](images, size, half_pixel_centers=True)
        if interpolation != "nearest" and resized.dtype.base_dtype != dtypes.float32:
            resized = math_ops.cast(resized, dtypes.float32)
        return resized if is_batch else array_ops.squeeze(resized, axis=[0])


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """The rows and columns of 4-D ``x`` scaled by integer factors (``tf.image.resize`` by ``interpolation``)."""
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    rows = 2 if data_format == "channels_first" else 1
    new_shape = x.shape[rows:rows + 2]
    if new_shape.is_fully_defined():
        new_shape = constant(new_shape.as_list(), dtype="int32")
    else:
        new_shape = array_ops.shape(x)[rows:rows + 2]
    new_shape *= constant(np.array([height_factor, width_factor], dtype="int32"))
    if interpolation not in _RESIZE_METHODS:
        raise ValueError('`interpolation` argument should be one of: "' + '", "'.join(_RESIZE_METHODS)
                         + f'". Received: "{interpolation}".')
    if data_format == "channels_first":
        x = array_ops.transpose(x, [0, 2, 3, 1])
    x = resize_image_v2(x, new_shape, interpolation)
    return array_ops.transpose(x, [0, 3, 1, 2]) if data_format == "channels_first" else x


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """The three spatial axes of 5-D ``x`` scaled by integer factors, each element repeated."""
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Invalid data_format: " + str(data_format))
    first = 2 if data_format == "channels_first" else 1
    for offset, factor in enumerate((depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis=first + offset)
    return x


def repeat_elements(x, rep, axis):
    """Each slice of ``x`` along ``axis`` repeated ``rep`` times (``np.repeat``): split and concatenated when
    the axis is known, else tiled and reshaped."""
    from numflow.keras.backend_math import concatenate

    static = x.shape.as_list()
    if static[axis] is not None:
        splits = split(x, static[axis], axis=axis)
        return concatenate([s for s in splits for _ in range(rep)], axis)
    auxiliary = axis + 1
    dims = array_ops.shape(x)
    repeated = array_ops.expand_dims(x, axis=auxiliary)
    reps = np.ones(len(static) + 1, dtype=np.int32)
    reps[auxiliary] = rep
    repeated = tile(repeated, reps)
    reps = np.delete(reps, auxiliary)
    reps[axis] = rep
    repeated = array_ops.reshape(repeated, dims * constant(reps))
    repeated.set_shape(static)
    return repeated


def repeat(x, n):
    """2-D ``x`` repeated ``n`` times along a new axis 1."""
    if x.shape.ndims != 2:
        raise ValueError(f"`repeat` takes a 2-D tensor. Received: shape={x.shape}")
    return tile(array_ops.expand_dims(x, 1), array_ops.stack([1, n, 1]))
