"""``tf.nn``: the neural-network functions users call as ``tf.nn.relu``; re-exports only."""

from numflow.ops.conv_impl import atrous_conv2d, convolution, depthwise_conv2d, pool, separable_conv2d
from numflow.ops.conv_ops import (
    conv1d,
    conv1d_transpose,
    conv2d,
    conv2d_backprop_filter,
    conv2d_backprop_input,
    conv2d_transpose,
    conv3d,
    conv3d_backprop_filter_v2,
    conv3d_transpose,
    conv_transpose,
    depthwise_conv2d_native,
    depthwise_conv2d_native_backprop_filter,
    depthwise_conv2d_native_backprop_input,
)
from numflow.ops.dropout_ops import dropout
from numflow.ops.math_ops import sigmoid, tanh
from numflow.ops.nn_impl import l2_normalize, sigmoid_cross_entropy_with_logits
from numflow.ops.nn_ops import (
    bias_add,
    embedding_lookup,
    l2_loss,
    log_softmax,
    relu,
    relu6,
    softmax,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
    sparse_softmax_cross_entropy_with_logits,
)
from numflow.ops.pool_ops import (
    avg_pool,
    avg_pool1d,
    avg_pool3d,
    avg_pool_v2,
    max_pool,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    max_pool_v2,
    max_pool_with_argmax,
)

avg_pool2d = avg_pool  # TensorFlow 1.x's compat.v1 spells avg_pool both ways
depthwise_conv2d_backprop_filter = depthwise_conv2d_native_backprop_filter
depthwise_conv2d_backprop_input = depthwise_conv2d_native_backprop_input

__all__ = [
    "atrous_conv2d", "avg_pool", "avg_pool1d", "avg_pool2d", "avg_pool3d", "avg_pool_v2", "bias_add", "conv1d",
    "conv1d_transpose", "conv2d", "conv2d_backprop_filter", "conv2d_backprop_input", "conv2d_transpose", "conv3d",
    "conv3d_backprop_filter_v2", "conv3d_transpose", "conv_transpose", "convolution", "depthwise_conv2d",
    "depthwise_conv2d_backprop_filter", "depthwise_conv2d_backprop_input", "depthwise_conv2d_native",
    "depthwise_conv2d_native_backprop_filter", "depthwise_conv2d_native_backprop_input", "dropout",
    "embedding_lookup", "l2_loss", "l2_normalize", "log_softmax", "max_pool", "max_pool1d", "max_pool2d",
    "max_pool3d", "max_pool_v2", "max_pool_with_argmax", "pool", "relu", "relu6", "separable_conv2d", "sigmoid",
    "sigmoid_cross_entropy_with_logits", "softmax", "softmax_cross_entropy_with_logits",
    "softmax_cross_entropy_with_logits_v2", "sparse_softmax_cross_entropy_with_logits", "tanh",
]
