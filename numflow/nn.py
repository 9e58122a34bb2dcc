"""``tf.nn``: the neural-network functions users call as ``tf.nn.relu``; re-exports only."""

from numflow import rnn_cell
from numflow.ops.math_ops import sigmoid, tanh
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
from numflow.ops.rnn import (
    bidirectional_dynamic_rnn,
    dynamic_rnn,
    raw_rnn,
    static_bidirectional_rnn,
    static_rnn,
)

__all__ = [
    "bias_add", "conv2d", "embedding_lookup", "l2_loss", "l2_normalize", "log_softmax", "relu", "relu6", "sigmoid",
    "sigmoid_cross_entropy_with_logits", "softmax",
    "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
    "sparse_softmax_cross_entropy_with_logits", "tanh",
    "bidirectional_dynamic_rnn", "dynamic_rnn", "raw_rnn", "rnn_cell", "static_bidirectional_rnn", "static_rnn",
]
