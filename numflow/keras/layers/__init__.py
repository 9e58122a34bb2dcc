"""``tf.keras.layers``: Keras' layers in TensorFlow 1.x mode; re-exports only."""

from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.activation import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU
from numflow.keras.layers.attention import AdditiveAttention, Attention, EinsumDense, MultiHeadAttention
from numflow.keras.layers.basic import (
    Activation,
    Add,
    Average,
    Concatenate,
    Dot,
    Embedding,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAveragePooling3D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalAvgPool3D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPool3D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    GlobalMaxPooling3D,
    Lambda,
    Maximum,
    Minimum,
    Multiply,
    Reshape,
    Subtract,
    add,
    average,
    concatenate,
    dot,
    maximum,
    minimum,
    multiply,
    subtract,
)
from numflow.keras.layers.convolutional import (
    Conv1DTranspose,
    Convolution1DTranspose,
    DepthwiseConv1D,
    DepthwiseConv2D,
    LocallyConnected1D,
    LocallyConnected2D,
)
from numflow.keras.layers.dense_features import DenseFeatures
from numflow.keras.layers.input_layer import Input, InputLayer
from numflow.keras.layers.layer_serialization import deserialize, serialize
from numflow.keras.layers.noise import (
    ActivityRegularization,
    AlphaDropout,
    GaussianDropout,
    GaussianNoise,
    SpatialDropout1D,
    SpatialDropout2D,
    SpatialDropout3D,
)
from numflow.keras.layers.normalization import LayerNormalization
from numflow.keras.layers.preprocessing import (
    CategoryEncoding,
    CenterCrop,
    Discretization,
    Hashing,
    Normalization,
    Rescaling,
    Resizing,
)
from numflow.keras.layers.recurrent import GRU, LSTM, RNN, CuDNNGRU, CuDNNLSTM, SimpleRNN
from numflow.keras.layers.recurrent_cells import AbstractRNNCell, GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from numflow.keras.layers.reshaping import (
    Cropping1D,
    Cropping2D,
    Cropping3D,
    Identity,
    Permute,
    RepeatVector,
    UpSampling1D,
    UpSampling2D,
    UpSampling3D,
    ZeroPadding1D,
    ZeroPadding2D,
    ZeroPadding3D,
)
from numflow.keras.layers.wrapped import (
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    BatchNormalization,
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    Convolution1D,
    Convolution2D,
    Convolution2DTranspose,
    Convolution3D,
    Convolution3DTranspose,
    Dense,
    Dropout,
    Flatten,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
    SeparableConv1D,
    SeparableConv2D,
    SeparableConvolution1D,
    SeparableConvolution2D,
)
from numflow.keras.layers.wrappers import Bidirectional, Masking, TimeDistributed, Wrapper
from numflow.layers.input_spec import InputSpec

__all__ = [
    "AbstractRNNCell", "Activation", "ActivityRegularization", "Add", "AdditiveAttention", "AlphaDropout",
    "Attention", "Average", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "AvgPool1D", "AvgPool2D",
    "AvgPool3D", "BatchNormalization", "Bidirectional", "CategoryEncoding", "CenterCrop", "Concatenate", "Conv1D",
    "Conv1DTranspose", "Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DTranspose", "Convolution1D",
    "Convolution1DTranspose", "Convolution2D", "Convolution2DTranspose", "Convolution3D", "Convolution3DTranspose",
    "Cropping1D", "Cropping2D", "Cropping3D", "CuDNNGRU", "CuDNNLSTM", "Dense", "DenseFeatures", "DepthwiseConv1D",
    "DepthwiseConv2D", "Discretization", "Dot", "Dropout", "ELU", "EinsumDense", "Embedding", "Flatten", "GRU",
    "GRUCell", "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D", "GlobalAveragePooling2D",
    "GlobalAveragePooling3D", "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D", "GlobalMaxPool1D",
    "GlobalMaxPool2D", "GlobalMaxPool3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D",
    "Hashing", "Identity", "Input", "InputLayer", "InputSpec", "LSTM", "LSTMCell", "Lambda", "Layer",
    "LayerNormalization", "LeakyReLU", "LocallyConnected1D", "LocallyConnected2D", "Masking", "MaxPool1D",
    "MaxPool2D", "MaxPool3D", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "Maximum", "Minimum",
    "MultiHeadAttention", "Multiply", "Normalization", "PReLU", "Permute", "RNN", "ReLU", "RepeatVector",
    "Rescaling", "Reshape", "Resizing", "SeparableConv1D", "SeparableConv2D", "SeparableConvolution1D",
    "SeparableConvolution2D", "SimpleRNN", "SimpleRNNCell", "Softmax", "SpatialDropout1D", "SpatialDropout2D",
    "SpatialDropout3D", "StackedRNNCells", "Subtract", "ThresholdedReLU", "TimeDistributed", "UpSampling1D",
    "UpSampling2D", "UpSampling3D", "Wrapper", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D", "add", "average",
    "concatenate", "deserialize", "dot", "maximum", "minimum", "multiply", "serialize", "subtract",
]
