"""``tf.layers``: TensorFlow 1.x's layers, as classes and as functions; re-exports only."""

from numflow.layers.base import Layer
from numflow.layers.convolutional import (
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    SeparableConv1D,
    SeparableConv2D,
    conv1d,
    conv2d,
    conv2d_transpose,
    conv3d,
    conv3d_transpose,
    separable_conv1d,
    separable_conv2d,
)
from numflow.layers.core import Dense, Dropout, Flatten, dense, dropout, flatten
from numflow.layers.input_spec import InputSpec
from numflow.layers.normalization import BatchNormalization, batch_normalization
from numflow.layers.pooling import (
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
    average_pooling1d,
    average_pooling2d,
    average_pooling3d,
    max_pooling1d,
    max_pooling2d,
    max_pooling3d,
)

__all__ = [
    "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "BatchNormalization", "Conv1D", "Conv2D",
    "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Dense", "Dropout", "Flatten", "InputSpec", "Layer", "MaxPooling1D",
    "MaxPooling2D", "MaxPooling3D", "SeparableConv1D", "SeparableConv2D", "average_pooling1d", "average_pooling2d",
    "average_pooling3d", "batch_normalization", "conv1d", "conv2d", "conv2d_transpose", "conv3d", "conv3d_transpose",
    "dense", "dropout", "flatten", "max_pooling1d", "max_pooling2d", "max_pooling3d", "separable_conv1d",
    "separable_conv2d",
]
