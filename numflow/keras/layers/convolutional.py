"""Keras' convolution layers with no ``tf.layers`` twin: DepthwiseConv1D/2D (each channel convolved with its own
``depth_multiplier`` filters), Conv1DTranspose and LocallyConnected1D/2D (unshared weights), with Keras' names,
defaults and ops."""

import numpy as np

from numflow.framework.shapes import TensorShape
from numflow.keras import activations, backend, initializers, regularizers
from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.wrapped import convolution_config_keys, keras_arguments
from numflow.layers import convolutional, utils
from numflow.layers.input_spec import InputSpec
from numflow.ops import array_ops
from numflow.ops.conv_impl import depthwise_conv2d
from numflow.ops.conv_ops import conv1d_transpose
from numflow.ops.nn_ops import bias_add


class _DepthwiseConv(Layer, convolutional._Conv):
    """The depthwise convolution of ``rank`` spatial dims: ``depthwise_kernel`` is ``kernel_size + (channels,
    depth_multiplier)``, ``bias`` ``(channels * depth_multiplier,)``."""

    def __init__(self, rank, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        arguments = keras_arguments({"activation": activation, "bias_initializer": bias_initializer,
                                     "bias_regularizer": bias_regularizer,
                                     "activity_regularizer": activity_regularizer}, initializer_defaults=())
        super().__init__(rank, None, kernel_size, strides, padding, data_format or backend.image_data_format(),
                         dilation_rate, use_bias=use_bias, bias_constraint=bias_constraint, **arguments, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.depthwise_constraint = depthwise_constraint

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims != self.rank + 2:
            raise ValueError(f"Inputs to `DepthwiseConv` should have rank {self.rank + 2}. Received "
                             f"input_shape={input_shape}.")
        channels = self._input_channels(input_shape, " to `DepthwiseConv`")
        self.depthwise_kernel = self.add_weight(shape=self.kernel_size + (channels, self.depth_multiplier),
                                                initializer=self.depthwise_initializer, name="depthwise_kernel",
                                                regularizer=self.depthwise_regularizer,
                                                constraint=self.depthwise_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(shape=(channels * self.depth_multiplier,), initializer=self.bias_initializer,
                                        name="bias", regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={self._channel_axis(): channels})
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        channels = dims[self._channel_axis()]
        filters = None if channels is None else channels * self.depth_multiplier
        if self.data_format == "channels_first":
            return TensorShape([dims[0], filters, *self._spatial_output_shape(dims[2:])])
        return TensorShape([dims[0], *self._spatial_output_shape(dims[1:-1]), filters])


class DepthwiseConv1D(_DepthwiseConv):
    """Depthwise 1-D convolution, as a 2-D one of a height of 1."""

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=1, **kwargs):
        super().__init__(1, kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, **kwargs)

    def call(self, inputs):
        if self.data_format == "channels_last":
            strides, spatial_start = (1, *(self.strides * 2), 1), 1
        else:
            strides, spatial_start = (1, 1, *(self.strides * 2)), 2
        data_format = utils.convert_data_format(self.data_format, 4)
        inputs = array_ops.expand_dims(inputs, spatial_start)
        kernel = array_ops.expand_dims(self.depthwise_kernel, axis=0)
        outputs = depthwise_conv2d(inputs, kernel, strides=strides, padding=self.padding.upper(),
                                   dilations=(1, *self.dilation_rate), data_format=data_format)
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=data_format)
        outputs = array_ops.squeeze(outputs, [spatial_start])
        return outputs if self.activation is None else self.activation(outputs)


class DepthwiseConv2D(_DepthwiseConv):
    """Depthwise 2-D convolution: each input channel convolved with its own ``depth_multiplier`` filters."""

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), **kwargs):
        super().__init__(2, kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, **kwargs)

    def call(self, inputs):
        outputs = backend.depthwise_conv2d(inputs, self.depthwise_kernel, strides=self.strides, padding=self.padding,
                                           dilation_rate=self.dilation_rate, data_format=self.data_format)
        if self.use_bias:
            outputs = backend.bias_add(outputs, self.bias, data_format=self.data_format)
        return outputs if self.activation is None else self.activation(outputs)


class Conv1DTranspose(Layer, convolutional._ConvTranspose):
    """Transposed 1-D convolution: the gradient of a ``Conv1D`` with respect to its input."""

    groups = 1
    _config_keys = convolution_config_keys(transpose=True)

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None, data_format=None,
                 dilation_rate=1, **kwargs):
        arguments = keras_arguments(kwargs)
        names = ("activation", "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer",
                 "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint")
        defaults = {"use_bias": True}
        values = [arguments.pop(name, defaults.get(name)) for name in names]
        super().__init__(1, filters, kernel_size, strides, padding, data_format or backend.image_data_format(),
                         *values, arguments.pop("trainable", True), arguments.pop("name", None),
                         output_padding=output_padding, **arguments)
        self.dilation_rate = utils.normalize_tuple(dilation_rate, 1, "dilation_rate")

    def _output_lengths(self, lengths):
        pads = self.output_padding or (None,)
        return [utils.deconv_output_length(lengths[0], self.kernel_size[0], padding=self.padding,
                                           output_padding=pads[0], stride=self.strides[0],
                                           dilation=self.dilation_rate[0])]

    def call(self, inputs):
        shape = array_ops.shape(inputs)
        length = shape[2 if self.data_format == "channels_first" else 1]
        output_shape = array_ops.stack(self._output_shape(shape[0], [length]))
        data_format = utils.convert_data_format(self.data_format, 3)
        outputs = conv1d_transpose(inputs, self.kernel, output_shape, strides=self.strides,
                                   padding=self.padding.upper(), data_format=data_format,
                                   dilations=self.dilation_rate)
        if inputs.shape.ndims:
            outputs.set_shape(self.compute_output_shape(inputs.shape))
        if self.use_bias:
            outputs = bias_add(outputs, self.bias, data_format=data_format)
        return outputs if self.activation is None else self.activation(outputs)
Convolution1DTranspose = Conv1DTranspose


class _LocallyConnected(Layer):
    """A convolution whose weights differ at each output position (Keras' ``implementation=1``: one
    ``batch_dot`` of the flattened patches): ``kernel`` is ``(positions, patch size, filters)``, ``bias``
    ``output spatial shape + (filters,)``."""

    rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, activation=None,
                 use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 implementation=1, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.filters = filters
        self.kernel_size = utils.normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = utils.normalize_tuple(strides, self.rank, "strides", allow_zero=True)
        self.padding = utils.normalize_padding(padding)
        name = type(self).__name__
        if self.padding != "valid" and implementation == 1:
            raise ValueError(f'Invalid border mode for {name} (only "valid" is supported if implementation is 1): '
                             f"{padding}")
        if implementation != 1:
            raise NotImplementedError(f"{name}: only implementation=1 is implemented; got {implementation}")
        self.data_format = utils.normalize_data_format(data_format or backend.image_data_format())
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.implementation = implementation
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def _split(self, dims):
        """``(spatial dims, channels)`` of an input shape."""
        if self.data_format == "channels_first":
            return dims[2:], dims[1]
        return dims[1:-1], dims[-1]

    def _output_spatial(self, spatial):
        return tuple(utils.conv_output_length(length, self.kernel_size[i], self.padding, self.strides[i])
                     for i, length in enumerate(spatial))

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        spatial, channels = self._split(dims)
        if channels is None or None in spatial:
            raise ValueError(f"The spatial dimensions and the channels of the inputs to a {type(self).__name__} "
                             f"layer should be fully-defined, but layer received the inputs shape {dims}")
        self.output_spatial = self._output_spatial(spatial)
        if min(self.output_spatial) <= 0:
            raise ValueError(f"One of the dimensions in the output is <= 0 due to downsampling in {self.name}. "
                             f"Consider increasing the input size. Received input shape {dims} which would produce "
                             "output shape with a zero or negative value in a dimension.")
        positions = int(np.prod(self.output_spatial))
        self.kernel_shape = (positions, int(np.prod(self.kernel_size)) * channels, self.filters)
        self.kernel = self.add_weight(shape=self.kernel_shape, initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            shape = self.output_spatial + (self.filters,) if self.rank == 2 else (positions, self.filters)
            self.bias = self.add_weight(shape=shape, initializer=self.bias_initializer, name="bias",
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={axis: channels})
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        spatial = self._output_spatial(self._split(dims)[0])
        if self.data_format == "channels_first":
            return TensorShape([dims[0], self.filters, *spatial])
        return TensorShape([dims[0], *spatial, self.filters])

    def call(self, inputs):
        from numflow.keras.backend_nn import local_conv

        output = local_conv(inputs, self.kernel, self.kernel_size, self.strides, self.output_spatial, self.data_format)
        if self.use_bias:
            output = backend.bias_add(output, self.bias, data_format=self.data_format)
        return self.activation(output)


class LocallyConnected1D(_LocallyConnected):
    """1-D convolution with unshared weights: ``[batch, steps, channels]`` to ``[batch, new steps, filters]``."""


class LocallyConnected2D(_LocallyConnected):
    """2-D convolution with unshared weights."""

    rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides, **kwargs)
