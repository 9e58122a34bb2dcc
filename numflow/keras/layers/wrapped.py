"""The Keras layers that are ``tf.layers``' layers with Keras' defaults, names and learning phase: Dense,
Dropout, Flatten, the convolutions and pools, and BatchNormalization (their computation is ``numflow.layers``';
TensorFlow's ``tf.layers`` are these Keras layers' subclasses)."""

import numpy as np

from numflow.keras import activations, backend, constraints, initializers, regularizers
from numflow.keras.engine.base_layer import Layer
from numflow.layers import convolutional, core, normalization, pooling

# The weights' arguments of a layer with a kernel and a bias, in tf-keras' config order.
KERNEL_AND_BIAS_KEYS = ("kernel_initializer", "bias_initializer", "kernel_regularizer", "bias_regularizer",
                        "activity_regularizer", "kernel_constraint", "bias_constraint")


def convolution_config_keys(dilation=True, transpose=False):
    """A convolution's ``_config_keys`` in tf-keras' order (Conv3DTranspose has no ``dilation_rate``)."""
    return ("filters", "kernel_size", "strides", "padding", "data_format", *(("dilation_rate",) if dilation else ()),
            "groups", *(("output_padding",) if transpose else ()), "activation", "use_bias", *KERNEL_AND_BIAS_KEYS)


def keras_arguments(kwargs, initializer_defaults=("kernel", "bias")):
    """``kwargs`` with Keras' defaults (glorot_uniform kernels, zeros biases) and its names resolved."""
    defaults = {"kernel_initializer": "glorot_uniform", "bias_initializer": "zeros"}
    for prefix in initializer_defaults:
        kwargs.setdefault(f"{prefix}_initializer", defaults[f"{prefix}_initializer"])
    for key, value in list(kwargs.items()):
        if key == "activation":
            kwargs[key] = None if value is None else activations.get(value)
        elif key.endswith("_initializer"):
            kwargs[key] = initializers.get(value)
        elif key.endswith("_regularizer"):
            kwargs[key] = regularizers.get(value)
        elif key.endswith("_constraint"):
            kwargs[key] = constraints.get(value)
    kwargs.pop("groups", None)
    return kwargs


class Dense(Layer, core.Dense):
    """``activation(inputs @ kernel + bias)``: ``tf.layers.Dense`` with Keras' names and defaults."""

    supports_masking = True
    _config_keys = ("units", "activation", "use_bias", *KERNEL_AND_BIAS_KEYS)

    def __init__(self, units, **kwargs):
        super().__init__(units, **keras_arguments(kwargs))


class Dropout(Layer, core.Dropout):
    """Zero each element with probability ``rate`` (scaling the others by ``1 / (1 - rate)``) while training:
    ``training`` left out is the Keras learning phase."""

    supports_masking = True
    _config_keys = ("rate", "noise_shape", "seed")

    def call(self, inputs, training=None):
        return super().call(inputs, training=backend.learning_phase() if training is None else training)


class Flatten(Layer, core.Flatten):
    """All but the first dimension in one."""

    _config_keys = ("data_format",)


def _convolution(legacy_class):
    class Convolution(Layer, legacy_class):
        groups = 1
        _config_keys = convolution_config_keys(dilation=legacy_class is not convolutional.Conv3DTranspose,
                                               transpose=issubclass(legacy_class, convolutional._ConvTranspose))

        def __init__(self, filters, kernel_size, *args, **kwargs):
            if issubclass(legacy_class, convolutional._ConvTranspose):
                dilation_rate = kwargs.pop("dilation_rate", 1)
                if any(rate != 1 for rate in np.ravel(dilation_rate)):
                    raise NotImplementedError(f"{legacy_class.__name__}: dilation_rate={dilation_rate} is not "
                                              "supported (only 1).")
            super().__init__(filters, kernel_size, *args, **keras_arguments(kwargs))

    Convolution.__name__ = Convolution.__qualname__ = legacy_class.__name__
    Convolution.__doc__ = legacy_class.__doc__
    return Convolution


Conv1D = _convolution(convolutional.Conv1D)
Conv2D = _convolution(convolutional.Conv2D)
Conv3D = _convolution(convolutional.Conv3D)
Conv2DTranspose = _convolution(convolutional.Conv2DTranspose)
Conv3DTranspose = _convolution(convolutional.Conv3DTranspose)
SeparableConv1D = _convolution(convolutional.SeparableConv1D)
SeparableConv2D = _convolution(convolutional.SeparableConv2D)
Convolution1D, Convolution2D, Convolution2DTranspose = Conv1D, Conv2D, Conv2DTranspose
Convolution3D, Convolution3DTranspose = Conv3D, Conv3DTranspose
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D


def _pooling(legacy_class, default_size):
    class Pooling(Layer, legacy_class):
        _config_keys = ("pool_size", "padding", "strides", "data_format")

        def __init__(self, pool_size=default_size, strides=None, padding="valid", data_format=None, **kwargs):
            super().__init__(pool_size, pool_size if strides is None else strides, padding=padding,
                             data_format=data_format, **kwargs)

    Pooling.__name__ = Pooling.__qualname__ = legacy_class.__name__
    Pooling.__doc__ = f"{legacy_class.__doc__ or ''} Keras' defaults: windows of {default_size}, strides the windows."
    return Pooling


MaxPooling1D = _pooling(pooling.MaxPooling1D, 2)
AveragePooling1D = _pooling(pooling.AveragePooling1D, 2)
MaxPooling2D = _pooling(pooling.MaxPooling2D, (2, 2))
AveragePooling2D = _pooling(pooling.AveragePooling2D, (2, 2))
MaxPooling3D = _pooling(pooling.MaxPooling3D, (2, 2, 2))
AveragePooling3D = _pooling(pooling.AveragePooling3D, (2, 2, 2))
MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D


class BatchNormalization(Layer, normalization.BatchNormalization):
    """Batch normalization (``tf.layers.BatchNormalization``'s computation): ``training`` left out is the
    Keras learning phase; the moving averages' updates are in ``updates``, not ``UPDATE_OPS``."""

    _config_keys = ("axis", "momentum", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer",
                    "moving_mean_initializer", "moving_variance_initializer", "beta_regularizer", "gamma_regularizer",
                    "beta_constraint", "gamma_constraint")

    def __init__(self, *args, **kwargs):
        for prefix, default in (("beta", "zeros"), ("gamma", "ones"), ("moving_mean", "zeros"),
                                ("moving_variance", "ones")):
            kwargs[f"{prefix}_initializer"] = initializers.get(kwargs.get(f"{prefix}_initializer", default))
        for prefix in ("beta", "gamma"):
            kwargs[f"{prefix}_regularizer"] = regularizers.get(kwargs.get(f"{prefix}_regularizer"))
        super().__init__(*args, **kwargs)

    def call(self, inputs, training=None):
        return super().call(inputs, training=backend.learning_phase() if training is None else training)
