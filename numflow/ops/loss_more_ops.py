"""More of TensorFlow 1's losses: ``tf.losses.cosine_distance`` and ``mean_pairwise_squared_error``,
``tf.nn.log_poisson_loss`` and ``tf.nn.safe_embedding_lookup_sparse``, composed of ops as TensorFlow composes
them (the names and static shapes are TensorFlow's)."""

import math

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.shapes import dimension_value, unknown_shape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.embedding_ops import embedding_lookup_sparse
from numflow.ops.loss_ops import (
    Reduction,
    _check_given,
    add_loss,
    assert_broadcastable,
    broadcast_weights,
    compute_weighted_loss,
    scoped_cast,
)
from numflow.ops.selection_ops import gather, where
from numflow.ops.sparse_math_ops import sparse_reshape
from numflow.ops.sparse_struct_ops import sparse_fill_empty_rows, sparse_retain
from numflow.ops.tile_pad_split_ops import tile
from numflow.variables.partitioned import PartitionedVariable


def cosine_distance(labels, predictions, axis=None, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                    reduction=Reduction.SUM_BY_NONZERO_WEIGHTS, dim=None):
    """``1 - sum(labels * predictions, axis)`` of unit-normalized ``labels`` and ``predictions``, weighted
    and reduced as :func:`compute_weighted_loss`."""
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    if axis is None:
        raise ValueError("You must specify argument `axis`.")
    _check_given(labels=labels, predictions=predictions)
    with get_default_graph().name_scope(scope or "cosine_distance_loss") as scope:
        predictions = scoped_cast(predictions, dtypes.float32)
        labels = scoped_cast(labels, dtypes.float32)
        predictions.shape.assert_is_compatible_with(labels.shape)
        radial_diffs = math_ops.multiply(predictions, labels)
        losses = 1 - math_ops.reduce_sum(radial_diffs, axis=(axis,), keepdims=True)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def _num_present_per_batch(losses, weights):
    with get_default_graph().name_scope("num_present") as scope:
        weights = scoped_cast(weights, dtypes.float32)
        present = where(math_ops.equal(weights, 0.0), array_ops.zeros_like(weights), array_ops.ones_like(weights))
        present = broadcast_weights(present, losses)
        return math_ops.reduce_sum(present, axis=list(range(1, losses.shape.ndims)), keepdims=True, name=scope)


def mean_pairwise_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES):
    """The mean of ``((p_i - p_j) - (l_i - l_j))**2`` over the pairs of elements of each batch item, weighted
    per item by ``weights``; for a known rank of ``predictions``."""
    _check_given(labels=labels, predictions=predictions)
    with get_default_graph().name_scope(scope or "mean_pairwise_squared_error"):
        weights = scoped_cast(weights, dtypes.float32)
        labels = scoped_cast(labels, dtypes.float32)
        assert_broadcastable(weights, labels)
        predictions = scoped_cast(predictions, dtypes.float32)
        predictions.shape.assert_is_compatible_with(labels.shape)
        diffs = math_ops.subtract(predictions, labels)
        if diffs.shape.ndims is None:
            raise ValueError("mean_pairwise_squared_error needs predictions of known rank.")
        axis = list(range(1, diffs.shape.ndims))
        sum_squares_diff_per_batch = math_ops.reduce_sum(math_ops.square(diffs), axis=axis, keepdims=True)
        num_present_per_batch = _num_present_per_batch(diffs, weights)
        term1 = 2.0 * math_ops.div_no_nan(sum_squares_diff_per_batch,
                                          math_ops.maximum(num_present_per_batch - 1, 0), name="value")
        sum_diff = math_ops.reduce_sum(diffs, axis=axis, keepdims=True)
        term2 = 2.0 * math_ops.div_no_nan(
            math_ops.square(sum_diff),
            math_ops.maximum(math_ops.multiply(num_present_per_batch, num_present_per_batch - 1), 0), name="value")
        weighted_losses = math_ops.multiply(term1 - term2, weights)
        loss = math_ops.reduce_sum(weighted_losses)
        mean_loss = where(math_ops.reduce_sum(num_present_per_batch) > 0, loss, array_ops.zeros_like(loss),
                          name="value")
        add_loss(mean_loss, loss_collection)
        return mean_loss


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """The negative log-likelihood of ``targets`` under a Poisson of log-rate ``log_input``:
    ``exp(log_input) - log_input * targets``, plus Stirling's approximation of ``log(targets!)`` (above 1)
    with ``compute_full_loss``."""
    with get_default_graph().name_scope(name or "log_poisson_loss"):
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets")
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError(f"`log_input` and `targets` must have the same shape, received ({log_input.shape} vs "
                             f"{targets.shape}).")
        result = math_ops.exp(log_input) - log_input * targets
        if compute_full_loss:
            point_five = constant(0.5, dtype=targets.dtype)
            two_pi = constant(2 * math.pi, dtype=targets.dtype)
            stirling_approx = (targets * math_ops.log(targets)) - targets + (point_five * math_ops.log(
                two_pi * targets))
            zeros = array_ops.zeros_like(targets, dtype=targets.dtype)
            ones = array_ops.ones_like(targets, dtype=targets.dtype)
            cond = math_ops.logical_and(targets >= zeros, targets <= ones)
            result += where(cond, zeros, stirling_approx)
        return result


def _prune_invalid_ids(sparse_ids, sparse_weights):
    is_id_valid = math_ops.greater_equal(sparse_ids.values, 0)
    if sparse_weights is not None:
        is_id_valid = math_ops.logical_and(is_id_valid, array_ops.ones_like(sparse_weights.values,
                                                                             dtype=dtypes.bool))
    sparse_ids = sparse_retain(sparse_ids, is_id_valid)
    if sparse_weights is not None:
        sparse_weights = sparse_retain(sparse_weights, is_id_valid)
    return sparse_ids, sparse_weights


def _prune_invalid_weights(sparse_ids, sparse_weights):
    if sparse_weights is not None:
        is_weights_valid = math_ops.greater(sparse_weights.values, 0)
        sparse_ids = sparse_retain(sparse_ids, is_weights_valid)
        sparse_weights = sparse_retain(sparse_weights, is_weights_valid)
    return sparse_ids, sparse_weights


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """:func:`embedding_lookup_sparse` that tolerates what real inputs hold: ids below 0 (and, unless
    summing, weights of at most 0) are dropped, a row without ids gets ``default_id``'s embedding (zeros
    when None), and ids of rank above 2 keep their leading dimensions in the result."""
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if isinstance(embedding_weights, PartitionedVariable):
        embedding_weights = list(embedding_weights)
    if not isinstance(embedding_weights, list):
        embedding_weights = [embedding_weights]
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with get_default_graph().name_scope(name or "embedding_lookup") as scope:
        original_shape = sparse_ids.dense_shape
        original_rank_dim = dimension_value(original_shape.shape[0])
        if original_rank_dim is None:
            raise ValueError("safe_embedding_lookup_sparse needs sparse_ids of known rank.")
        sparse_ids = sparse_reshape(sparse_ids, [
            math_ops.reduce_prod(array_ops.slice(original_shape, [0], [original_rank_dim - 1])),
            gather(original_shape, original_rank_dim - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
        sparse_ids, sparse_weights = _prune_invalid_ids(sparse_ids, sparse_weights)
        if combiner != "sum":
            sparse_ids, sparse_weights = _prune_invalid_weights(sparse_ids, sparse_weights)
        sparse_ids, is_row_empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope, max_norm=max_norm,
                                         allow_fast_lookup=allow_fast_lookup)
        if default_id is None:
            is_row_empty = tile(array_ops.reshape(is_row_empty, [-1, 1]),
                                array_ops.stack([1, array_ops.shape(result)[1]]))
            result = where(is_row_empty, array_ops.zeros_like(result), result, name=scope)
        final_result = array_ops.reshape(result, array_ops.concat([
            array_ops.slice(math_ops.cast(original_shape, dtypes.int32), [0], [original_rank_dim - 1]),
            array_ops.slice(array_ops.shape(result), [1], [-1])], 0))
        final_result.set_shape(unknown_shape(original_rank_dim - 1).concatenate(result.shape[1:]))
        return final_result
