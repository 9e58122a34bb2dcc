"""The convolution layers of ``tf.layers`` (Conv1D/2D/3D, SeparableConv1D/2D, Conv2DTranspose, Conv3DTranspose)
and their functional forms, built as TensorFlow 1.x builds them: ``conv2d/Conv2D`` and ``conv2d/BiasAdd`` on
``conv2d/kernel`` and ``conv2d/bias``, a separable convolution's ``depthwise_kernel`` and
``pointwise_kernel``, a transposed convolution's output shape computed from the input's (``conv2d_transpose/stack``)
and, for ``channels_first``, its input moved to channels-last and back as TensorFlow does on a CPU."""

from numflow.framework.shapes import TensorShape, dimension_value
from numflow.layers import utils
from numflow.layers.base import Layer, apply_functional
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops, init_ops
from numflow.ops.conv_impl import convolution
from numflow.ops.conv_impl import separable_conv2d as nn_separable_conv2d
from numflow.ops.conv_ops import conv2d_transpose as nn_conv2d_transpose
from numflow.ops.conv_ops import conv3d_transpose as nn_conv3d_transpose
from numflow.ops.nn_ops import bias_add
from numflow.ops.tile_pad_split_ops import pad

_ZEROS = init_ops.zeros_initializer()


class _Conv(Layer):
    """An N-D convolution layer (N = ``rank``): ``activation(conv(inputs, kernel) + bias)``; the base of the
    convolution layers. ``kernel`` is ``kernel_size + (input channels, filters)``."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.rank = rank
        with utils.naming_layer(self):
            filters = int(filters) if isinstance(filters, float) else filters
            if filters is not None and filters <= 0:
                raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                                 f"Received filters={filters}.")
            self.filters = filters
            self.kernel_size = utils.normalize_tuple(kernel_size, rank, "kernel_size")
            self.strides = utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
            self.padding = utils.normalize_padding(padding)
            self.data_format = utils.normalize_data_format(data_format)
            self.dilation_rate = utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
            self._validate_init()
        utils.set_kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                                  bias_regularizer, kernel_constraint, bias_constraint)
        self.input_spec = InputSpec(min_ndim=rank + 2)
        self._tf_data_format = utils.convert_data_format(self.data_format, rank + 2)

    def _validate_init(self):
        if not all(self.kernel_size):
            raise ValueError(f"The argument `kernel_size` cannot contain 0(s). Received: {self.kernel_size}")
        if not all(self.strides):
            raise ValueError(f"The argument `strides` cannot contains 0(s). Received: {self.strides}")
        if self.padding == "causal" and not isinstance(self, Conv1D | SeparableConv1D):
            raise ValueError("Causal padding is only supported for `Conv1D`and `SeparableConv1D`.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                             f"strides={self.strides} and dilation_rate={self.dilation_rate}")

    def _channel_axis(self):
        return -1 - self.rank if self.data_format == "channels_first" else -1

    def _input_channels(self, input_shape, what=""):
        axis = self._channel_axis()
        channels = dimension_value(input_shape[axis])
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs{what} should be defined. The input_shape received "
                             f"is {input_shape}, where axis {axis} (0-based) is the channel dimension, which found to "
                             "be `None`.")
        return channels

    def _add_bias(self, shape):
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=(self.filters,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        trainable=True, dtype=self.dtype)

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        channels = self._input_channels(input_shape)
        self.compute_output_shape(input_shape)
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (channels, self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True, dtype=self.dtype)
        self._add_bias((self.filters,))
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={self._channel_axis(): channels})

    def _op_padding(self):
        return "VALID" if self.padding == "causal" else self.padding.upper()

    def call(self, inputs):
        input_shape = inputs.shape
        if self.padding == "causal":
            inputs = pad(inputs, self._causal_padding(inputs))
        outputs = convolution(inputs, self.kernel, strides=list(self.strides), padding=self._op_padding(),
                              dilations=list(self.dilation_rate), data_format=self._tf_data_format,
                              name=type(self).__name__)
        if self.use_bias:
            if self.rank == 1 and self.data_format == "channels_first":
                outputs += array_ops.reshape(self.bias, (1, self.filters, 1))
            else:
                outputs = bias_add(outputs, self.bias, data_format=self._tf_data_format)
        if input_shape.ndims:
            outputs.set_shape(self.compute_output_shape(input_shape))
        return outputs if self.activation is None else self.activation(outputs)

    def _spatial_output_shape(self, spatial):
        return [utils.conv_output_length(length, self.kernel_size[i], padding=self.padding, stride=self.strides[i],
                                         dilation=self.dilation_rate[i]) for i, length in enumerate(spatial)]

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        batch_rank = len(dims) - self.rank - 1
        if self.data_format == "channels_last":
            out = dims[:batch_rank] + self._spatial_output_shape(dims[batch_rank:-1]) + [self.filters]
        else:
            out = dims[:batch_rank] + [self.filters] + self._spatial_output_shape(dims[batch_rank + 1:])
        if any(d is not None and d < 0 for d in out):
            raise ValueError(f"One of the dimensions in the output is <= 0 due to downsampling in {self.name}. "
                             f"Consider increasing the input size. Received input shape {dims} which would produce "
                             "output shape with a zero or negative value in a dimension.")
        return TensorShape(out)

    def _causal_padding(self, inputs):
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        batch_rank = 1 if inputs.shape.ndims is None else inputs.shape.ndims - 2
        if self.data_format == "channels_last":
            return [[0, 0]] * batch_rank + [[left, 0], [0, 0]]
        return [[0, 0]] * batch_rank + [[0, 0], [left, 0]]


class Conv1D(_Conv):
    """1-D convolution (temporal): inputs ``[batch, width, channels]`` (``channels_last``); ``padding``
    may also be ``"causal"``."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)


class Conv2D(_Conv):
    """2-D convolution (spatial): inputs ``[batch, height, width, channels]`` (``channels_last``)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)


class Conv3D(_Conv):
    """3-D convolution: inputs ``[batch, depth, height, width, channels]`` (``channels_last``)."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1, 1), activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=_ZEROS, kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(3, filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)


class _SeparableConv(_Conv):
    """A depthwise convolution (``depthwise_kernel``: ``kernel_size + (channels, depth_multiplier)``) then a
    pointwise one mixing its channels (``pointwise_kernel``: ``1 x ... x (channels * depth_multiplier, filters)``)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=_ZEROS, depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(rank, filters, kernel_size, strides, padding, data_format, dilation_rate, activation,
                         use_bias, None, bias_initializer, None, bias_regularizer, activity_regularizer, None,
                         bias_constraint, trainable, name, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = utils.get_initializer(depthwise_initializer)
        self.pointwise_initializer = utils.get_initializer(pointwise_initializer)
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        channels = self._input_channels(input_shape)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis(): channels})
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint, trainable=True, dtype=self.dtype)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=(1,) * self.rank + (self.depth_multiplier * channels, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint, trainable=True, dtype=self.dtype)
        self._add_bias((self.filters,))

    def _separable(self, inputs, depthwise_kernel, pointwise_kernel, strides, rates):
        outputs = nn_separable_conv2d(inputs, depthwise_kernel, pointwise_kernel, strides=strides,
                                      padding=self._op_padding(), dilations=rates,
                                      data_format=utils.convert_data_format(self.data_format, 4))
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=utils.convert_data_format(self.data_format, 4))
        return outputs


class SeparableConv1D(_SeparableConv):
    """Depthwise separable 1-D convolution: a :class:`SeparableConv2D` of height 1."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=_ZEROS, depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(1, filters, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         activation, use_bias, depthwise_initializer, pointwise_initializer, bias_initializer,
                         depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, pointwise_constraint, bias_constraint, trainable, name, **kwargs)

    def call(self, inputs):
        if self.padding == "causal":
            inputs = pad(inputs, self._causal_padding(inputs))
        last = self.data_format == "channels_last"
        strides = (1,) + self.strides * 2 + (1,) if last else (1, 1) + self.strides * 2
        axis = 1 if last else 2
        inputs = array_ops.expand_dims(inputs, axis)
        depthwise_kernel = array_ops.expand_dims(self.depthwise_kernel, 0)
        pointwise_kernel = array_ops.expand_dims(self.pointwise_kernel, 0)
        outputs = self._separable(inputs, depthwise_kernel, pointwise_kernel, strides, (1,) + self.dilation_rate)
        outputs = array_ops.squeeze(outputs, [axis])
        return outputs if self.activation is None else self.activation(outputs)


class SeparableConv2D(_SeparableConv):
    """Depthwise separable 2-D convolution: each input channel convolved on its own (``depth_multiplier``
    times), then a 1x1 convolution mixing the results."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
                 pointwise_initializer=None, bias_initializer=_ZEROS, depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                 **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                         activation, use_bias, depthwise_initializer, pointwise_initializer, bias_initializer,
                         depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer,
                         depthwise_constraint, pointwise_constraint, bias_constraint, trainable, name, **kwargs)

    def call(self, inputs):
        strides = (1,) + self.strides + (1,) if self.data_format == "channels_last" else (1, 1) + self.strides
        outputs = self._separable(inputs, self.depthwise_kernel, self.pointwise_kernel, strides, self.dilation_rate)
        return outputs if self.activation is None else self.activation(outputs)


class _ConvTranspose(_Conv):
    """A transposed convolution (N = ``rank``, 2 or 3): ``kernel`` is ``kernel_size + (filters, input channels)``;
    ``output_padding`` (a keyword) adds to each output length, below the stride."""

    def __init__(self, rank, filters, kernel_size, strides, padding, data_format, activation, use_bias,
                 kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, activity_regularizer,
                 kernel_constraint, bias_constraint, trainable, name, output_padding=None, **kwargs):
        super().__init__(rank, filters, kernel_size, strides, padding, data_format, 1, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)
        self.output_padding = output_padding
        if output_padding is not None:
            with utils.naming_layer(self):
                self.output_padding = utils.normalize_tuple(output_padding, rank, "output_padding", allow_zero=True)
                for stride, out_pad in zip(self.strides, self.output_padding):
                    if out_pad >= stride:
                        raise ValueError(f"Strides must be greater than output padding. Received "
                                         f"strides={self.strides}, output_padding={self.output_padding}.")

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims != self.rank + 2:
            raise ValueError(f"Inputs should have rank {self.rank + 2}. Received input_shape={input_shape}.")
        channels = self._input_channels(input_shape, f" to `{type(self).__name__}`")
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={self._channel_axis(): channels})
        self.kernel = self.add_weight("kernel", shape=self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, trainable=True, dtype=self.dtype)
        self._add_bias((self.filters,))

    def _output_lengths(self, lengths):
        pads = self.output_padding or (None,) * self.rank
        return [utils.deconv_output_length(length, self.kernel_size[i], padding=self.padding,
                                           output_padding=pads[i], stride=self.strides[i])
                for i, length in enumerate(lengths)]

    def _output_shape(self, batch, lengths):
        if self.data_format == "channels_first":
            return (batch, self.filters, *self._output_lengths(lengths))
        return (batch, *self._output_lengths(lengths), self.filters)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        spatial = dims[2:] if self.data_format == "channels_first" else dims[1:-1]
        return TensorShape(list(self._output_shape(dims[0], spatial)))

    def _finish(self, inputs, outputs):
        if inputs.shape.ndims:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=utils.convert_data_format(self.data_format, 4))
        return outputs if self.activation is None else self.activation(outputs)


class Conv2DTranspose(_ConvTranspose):
    """Transposed 2-D convolution (a deconvolution): the gradient of a :class:`Conv2D` with respect to its
    input, mapping ``[batch, height, width, channels]`` to ``[batch, height * stride..., filters]``."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(2, filters, kernel_size, strides, padding, data_format, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)

    def call(self, inputs):
        shape = array_ops.shape(inputs)
        batch = shape[0]
        axes = (2, 3) if self.data_format == "channels_first" else (1, 2)
        known = inputs.shape.as_list() if inputs.shape.ndims is not None else [None] * 4
        lengths = [known[a] if known[a] is not None else shape[a] for a in axes]
        output_shape = array_ops.stack(self._output_shape(batch, lengths))
        x, strides = inputs, (1, *self.strides, 1)
        if self.data_format == "channels_first":  # to channels-last and back, as TensorFlow does on a CPU
            x = array_ops.transpose(x, (0, 2, 3, 1))
            output_shape = array_ops.stack([output_shape[0], output_shape[2], output_shape[3], output_shape[1]])
        outputs = nn_conv2d_transpose(x, self.kernel, output_shape, strides, padding=self.padding.upper(),
                                      data_format="NHWC")
        if self.data_format == "channels_first":
            outputs = array_ops.transpose(outputs, (0, 3, 1, 2))
        return self._finish(inputs, outputs)


class Conv3DTranspose(_ConvTranspose):
    """Transposed 3-D convolution: the gradient of a :class:`Conv3D` with respect to its input."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(3, filters, kernel_size, strides, padding, data_format, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)

    def call(self, inputs):
        shape = array_ops.shape(inputs)
        first = self.data_format == "channels_first"
        lengths = [shape[a] for a in ((2, 3, 4) if first else (1, 2, 3))]
        output_shape = array_ops.stack(self._output_shape(shape[0], lengths))
        strides = (1, 1, *self.strides) if first else (1, *self.strides, 1)
        outputs = nn_conv3d_transpose(inputs, self.kernel, output_shape, strides,
                                      data_format=utils.convert_data_format(self.data_format, 5),
                                      padding=self.padding.upper())
        return self._finish(inputs, outputs)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last", dilation_rate=1,
           activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
           trainable=True, name=None, reuse=None):
    """A :class:`Conv1D` layer applied to ``inputs`` (``[batch, width, channels]``); ``name`` is its variable
    scope, ``reuse`` shares an earlier layer's variables."""
    return apply_functional(Conv1D, locals())


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """A :class:`Conv2D` layer applied to ``inputs``: ``activation(conv2d(inputs, kernel) + bias)``.

    Parameters
    ----------
    inputs : Tensor
        ``[batch, height, width, channels]`` (``channels_last``) or ``[batch, channels, height, width]``.
    filters : int
        The output channels.
    kernel_size, strides, dilation_rate : int or tuple of 2 ints
    padding : ``"valid"`` or ``"same"`` (either case)
    name : str, optional
        The variable scope (``name/kernel``); default ``conv2d``, made unique.
    reuse : bool or AUTO_REUSE, optional
        Share the variables of an earlier layer of the same scope.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     y = tf.layers.conv2d(tf.zeros([2, 8, 8, 3]), 4, 3, padding="same", activation=tf.nn.relu)
    ...     y.name, y.shape.as_list()
    ('conv2d/Relu:0', [2, 8, 8, 4])
    """
    return apply_functional(Conv2D, locals())


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1, 1), activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
           kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """A :class:`Conv3D` layer applied to ``inputs`` (``[batch, depth, height, width, channels]``)."""
    return apply_functional(Conv3D, locals())


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                     dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=_ZEROS, depthwise_regularizer=None,
                     pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, trainable=True,
                     name=None, reuse=None):
    """A :class:`SeparableConv1D` layer applied to ``inputs``."""
    return apply_functional(SeparableConv1D, locals())


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                     dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                     depthwise_initializer=None, pointwise_initializer=None, bias_initializer=_ZEROS,
                     depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                     activity_regularizer=None, depthwise_constraint=None, pointwise_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """A :class:`SeparableConv2D` layer applied to ``inputs``."""
    return apply_functional(SeparableConv2D, locals())


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """A :class:`Conv2DTranspose` layer applied to ``inputs`` (a deconvolution)."""
    return apply_functional(Conv2DTranspose, locals())


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid", data_format="channels_last",
                     activation=None, use_bias=True, kernel_initializer=None, bias_initializer=_ZEROS,
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                     bias_constraint=None, trainable=True, name=None, reuse=None):
    """A :class:`Conv3DTranspose` layer applied to ``inputs``."""
    return apply_functional(Conv3DTranspose, locals())
