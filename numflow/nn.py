"""``tf.nn``: the neural-network functions users call as ``tf.nn.relu``; re-exports only."""

from numflow.ops.math_ops import sigmoid, tanh
from numflow.ops.nn_activation_ops import crelu, elu, leaky_relu, selu, silu, softplus, softsign, swish
from numflow.ops.nn_impl import l2_normalize, sigmoid_cross_entropy_with_logits
from numflow.ops.nn_ops import (
    bias_add,
    conv2d,
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

__all__ = [
    "bias_add", "conv2d", "crelu", "elu", "embedding_lookup", "l2_loss", "l2_normalize", "leaky_relu", "log_softmax",
    "relu", "relu6", "selu", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu", "softmax",
    "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2", "softplus", "softsign",
    "sparse_softmax_cross_entropy_with_logits", "swish", "tanh",
]
