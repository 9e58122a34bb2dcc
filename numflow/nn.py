"""``tf.nn``: the neural-network functions users call as ``tf.nn.relu``; re-exports only."""

from numflow import rnn_cell
from numflow.ops.candidate_sampling_ops import (
    all_candidate_sampler,
    compute_accidental_hits,
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from numflow.ops.conv_impl import (
    atrous_conv2d,
    atrous_conv2d_transpose,
    convolution,
    depthwise_conv2d,
    pool,
    separable_conv2d,
    with_space_to_batch,
)
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
from numflow.ops.ctc_ops import (
    collapse_repeated,
    ctc_beam_search_decoder,
    ctc_greedy_decoder,
    ctc_loss,
    ctc_unique_labels,
)
from numflow.ops.dropout_ops import dropout
from numflow.ops.embedding_ops import embedding_lookup, embedding_lookup_sparse, safe_embedding_lookup_sparse
from numflow.ops.fractional_pool_ops import fractional_avg_pool, fractional_max_pool
from numflow.ops.loss_more_ops import log_poisson_loss
from numflow.ops.math_ops import sigmoid, tanh
from numflow.ops.morphology_ops import dilation2d, erosion2d
from numflow.ops.nn_activation_ops import crelu, elu, leaky_relu, selu, silu, softplus, softsign, swish
from numflow.ops.nn_impl import (
    l2_normalize,
    relu_layer,
    sigmoid_cross_entropy_with_logits,
    weighted_cross_entropy_with_logits,
    xw_plus_b,
    zero_fraction,
)
from numflow.ops.nn_norm_ops import (
    batch_norm_with_global_normalization,
    batch_normalization,
    fused_batch_norm,
    local_response_normalization,
    lrn,
    moments,
    normalize_moments,
    sufficient_statistics,
    weighted_moments,
)
from numflow.ops.nn_ops import (
    bias_add,
    l2_loss,
    log_softmax,
    relu,
    relu6,
    softmax,
    softmax_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits_v2,
    sparse_softmax_cross_entropy_with_logits,
)
from numflow.ops.nn_sampled_losses import nce_loss, sampled_softmax_loss
from numflow.ops.patch_ops import depth_to_space, space_to_depth
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
from numflow.ops.rnn import bidirectional_dynamic_rnn, dynamic_rnn, raw_rnn, static_bidirectional_rnn, static_rnn
from numflow.ops.space_batch_ops import space_to_batch
from numflow.ops.top_k_ops import in_top_k, top_k

avg_pool2d = avg_pool  # TensorFlow 1.x's compat.v1 spells avg_pool both ways
depthwise_conv2d_backprop_filter = depthwise_conv2d_native_backprop_filter
depthwise_conv2d_backprop_input = depthwise_conv2d_native_backprop_input

__all__ = [
    "all_candidate_sampler", "atrous_conv2d", "atrous_conv2d_transpose", "avg_pool", "avg_pool1d", "avg_pool2d",
    "avg_pool3d", "avg_pool_v2", "batch_norm_with_global_normalization", "batch_normalization", "bias_add",
    "bidirectional_dynamic_rnn", "compute_accidental_hits", "conv1d", "conv1d_transpose", "conv2d",
    "conv2d_backprop_filter", "conv2d_backprop_input", "conv2d_transpose", "conv3d", "conv3d_backprop_filter_v2",
    "conv3d_transpose", "conv_transpose", "convolution", "crelu", "ctc_beam_search_decoder", "ctc_greedy_decoder",
    "ctc_loss", "ctc_unique_labels", "collapse_repeated", "depth_to_space", "depthwise_conv2d",
    "depthwise_conv2d_backprop_filter",
    "depthwise_conv2d_backprop_input", "depthwise_conv2d_native", "depthwise_conv2d_native_backprop_filter",
    "depthwise_conv2d_native_backprop_input", "dilation2d", "dropout", "dynamic_rnn", "elu", "embedding_lookup",
    "embedding_lookup_sparse", "erosion2d", "fixed_unigram_candidate_sampler", "fractional_avg_pool",
    "fractional_max_pool", "fused_batch_norm", "in_top_k", "l2_loss",
    "l2_normalize", "leaky_relu", "learned_unigram_candidate_sampler", "local_response_normalization",
    "log_poisson_loss", "log_softmax", "log_uniform_candidate_sampler", "lrn", "max_pool", "max_pool1d",
    "max_pool2d", "max_pool3d", "max_pool_v2", "max_pool_with_argmax", "moments", "nce_loss", "normalize_moments",
    "pool", "raw_rnn", "relu", "relu6", "relu_layer", "rnn_cell", "safe_embedding_lookup_sparse",
    "sampled_softmax_loss", "selu", "separable_conv2d", "sigmoid", "sigmoid_cross_entropy_with_logits", "silu",
    "softmax", "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2", "softplus", "softsign",
    "space_to_batch", "space_to_depth", "sparse_softmax_cross_entropy_with_logits", "static_bidirectional_rnn",
    "static_rnn", "sufficient_statistics", "swish", "tanh", "top_k", "uniform_candidate_sampler",
    "weighted_cross_entropy_with_logits", "weighted_moments", "with_space_to_batch", "xw_plus_b", "zero_fraction",
]
