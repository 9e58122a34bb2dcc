"""More of TensorFlow 1's losses: ``tf.losses.cosine_distance`` and ``mean_pairwise_squared_error``,
``tf.nn.log_poisson_loss``, composed of ops as TensorFlow composes
them (the names and static shapes are TensorFlow's)."""

import math

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.loss_ops import (
    Reduction,
    _check_given,
    add_loss,
    assert_broadcastable,
    broadcast_weights,
    compute_weighted_loss,
    scoped_cast,
)
from numflow.ops.selection_ops import where


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
