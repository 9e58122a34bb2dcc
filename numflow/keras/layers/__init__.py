"""``tf.keras.layers``: Keras' layers in TensorFlow 1.x mode; re-exports only."""

from numflow.keras.engine.base_layer import Layer
from numflow.keras.layers.basic import (
    Activation,
    Add,
    Average,
    Concatenate,
    Embedding,
    GlobalAveragePooling1D,
    GlobalAveragePooling2D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPooling1D,
    GlobalMaxPooling2D,
    Lambda,
    Maximum,
    Minimum,
    Multiply,
    Reshape,
    Subtract,
    add,
    average,
    concatenate,
    maximum,
    minimum,
    multiply,
    subtract,
)
from numflow.keras.layers.input_layer import Input, InputLayer
from numflow.keras.layers.normalization import LayerNormalization
from numflow.keras.layers.recurrent import GRU, LSTM, RNN, CuDNNGRU, CuDNNLSTM, SimpleRNN
from numflow.keras.layers.recurrent_cells import AbstractRNNCell, GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells
from numflow.keras.layers.wrapped import (
    AveragePooling1D,
    AveragePooling2D,
    AveragePooling3D,
    AvgPool1D,
    AvgPool2D,
    BatchNormalization,
    Conv1D,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    Convolution1D,
    Convolution2D,
    Convolution2DTranspose,
    Dense,
    Dropout,
    Flatten,
    MaxPool1D,
    MaxPool2D,
    MaxPooling1D,
    MaxPooling2D,
    MaxPooling3D,
    SeparableConv1D,
    SeparableConv2D,
)
from numflow.keras.layers.wrappers import Bidirectional, Masking, TimeDistributed, Wrapper
from numflow.layers.input_spec import InputSpec

__all__ = [
    "Activation", "Add", "Average", "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "AvgPool1D",
    "AvgPool2D", "BatchNormalization", "Concatenate", "Conv1D", "Conv2D", "Conv2DTranspose", "Conv3D",
    "Conv3DTranspose", "Convolution1D", "Convolution2D", "Convolution2DTranspose", "Dense", "Dropout", "Embedding",
    "Flatten", "GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAvgPool1D", "GlobalAvgPool2D",
    "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "Input", "InputLayer",
    "InputSpec", "Lambda", "Layer", "LayerNormalization", "MaxPool1D", "MaxPool2D", "MaxPooling1D", "MaxPooling2D",
    "MaxPooling3D", "Maximum", "Minimum", "Multiply", "Reshape", "SeparableConv1D", "SeparableConv2D", "Subtract",
    "AbstractRNNCell", "CuDNNGRU", "CuDNNLSTM", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "SimpleRNN",
    "SimpleRNNCell", "StackedRNNCells", "Bidirectional", "Masking", "TimeDistributed", "Wrapper",
    "add", "average", "concatenate", "maximum", "minimum", "multiply", "subtract",
]
