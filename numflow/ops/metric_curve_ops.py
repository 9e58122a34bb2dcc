"""``tf.metrics.auc`` (compat.v1): the area under the ROC or precision-recall curve, streamed through confusion
counts at fixed thresholds, as TensorFlow 1 builds it.

Four local variables of ``[num_thresholds]`` counts (``auc/true_positives``, ``false_negatives``,
``true_negatives``, ``false_positives``) gather, for each threshold ``t``, the (weighted) number of predictions
``> t`` or not against positive or negative labels. The thresholds are ``-1e-7``, ``i / (num_thresholds - 1)`` for
``i`` in ``1 .. num_thresholds - 2``, and ``1 + 1e-7``. The area is summed over consecutive thresholds by the
trapezoidal rule (or ``minoring`` / ``majoring`` rectangles, or the precision-recall ``careful_interpolation``).
"""

import logging

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, check_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.loss_ops import broadcast_weights
from numflow.ops.metric_ops import _add_to, _remove_squeezable_dimensions, metric_variable
from numflow.variables.scope import variable_scope

_KINDS = ("tp", "fn", "tn", "fp")
_VARIABLE_NAMES = {"tp": "true_positives", "fn": "false_negatives", "tn": "true_negatives", "fp": "false_positives"}


def thresholds_in_unit_interval(num_thresholds, top=1.0 + 1e-7):
    """``num_thresholds`` thresholds from just below 0 to ``top``, evenly spaced between: ``-1e-7``,
    ``i / (num_thresholds - 1)`` for ``i`` in ``1 .. num_thresholds - 2``, and ``top``."""
    inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    return [0.0 - 1e-7] + inner + [top]


def _confusion_at_thresholds(labels, predictions, thresholds, weights, includes=_KINDS):
    """The count variables of the ``includes`` (of :data:`_KINDS`, made in that order) at each threshold, and the
    ops adding one batch to them."""
    graph = get_default_graph()
    predictions = convert_to_tensor(predictions, name="predictions")
    in_range = [check_ops.assert_greater_equal(predictions, math_ops.cast(0.0, predictions.dtype),
                                               message="predictions must be in [0, 1]"),
                check_ops.assert_less_equal(predictions, math_ops.cast(1.0, predictions.dtype),
                                            message="predictions must be in [0, 1]")]
    with graph.control_dependencies(in_range):
        predictions, labels, weights = _remove_squeezable_dimensions(
            math_ops.cast(predictions, dtypes.float32), math_ops.cast(labels, dtypes.bool), weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, dtypes.bool), [1, -1])
    num_predictions = predictions_2d.shape.dim_values[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = array_ops.tile(array_ops.expand_dims(array_ops.constant(thresholds), [1]),
                                  array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]),
                                   thresh_tiled)
    pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    label_is_neg = math_ops.logical_not(label_is_pos)
    weights_tiled = None
    if weights is not None:
        weights = broadcast_weights(math_ops.cast(weights, dtypes.float32), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        thresh_tiled.shape.assert_is_compatible_with(weights_tiled.shape)
    conditions = {"tp": (label_is_pos, pred_is_pos), "fn": (label_is_pos, pred_is_neg),
                  "tn": (label_is_neg, pred_is_neg), "fp": (label_is_neg, pred_is_pos)}
    values, update_ops = {}, {}
    for kind in (k for k in _KINDS if k in includes):
        variable = metric_variable([num_thresholds], dtypes.float32, name=_VARIABLE_NAMES[kind])
        hits = math_ops.cast(math_ops.logical_and(*conditions[kind]), dtypes.float32)
        if weights_tiled is not None:
            hits *= weights_tiled
        update_ops[kind] = state_ops.assign_add(variable, math_ops.reduce_sum(hits, 1))
        values[kind] = variable
    return values, update_ops


def _interpolate_pr_auc(tp, fp, fn, n):
    dtp = tp[:n - 1] - tp[1:]
    p = tp + fp
    prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0), name="prec_slope")
    intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
    safe_p_ratio = array_ops.where(
        math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
        math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0), name="recall_relative_ratio"),
        array_ops.ones_like(p[1:]))
    return math_ops.reduce_sum(
        math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                            math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment"),
        name="interpolate_pr_auc")


def _area(counts, n, curve, summation_method, name):
    tp, fn, tn, fp = (counts[k] for k in _KINDS)
    epsilon = 1.0e-6
    if curve == "PR" and summation_method == "careful_interpolation":
        return _interpolate_pr_auc(tp, fp, fn, n)
    if curve == "PR" and summation_method == "trapezoidal":
        logging.getLogger("tensorflow").warning(
            'Trapezoidal rule is known to produce incorrect PR-AUCs; please switch to "careful_interpolation" '
            "instead.")
    rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
    if curve == "ROC":
        x, y = math_ops.divide(fp, fp + tn + epsilon), rec
    else:
        x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
    if summation_method in ("trapezoidal", "careful_interpolation"):
        heights = (y[:n - 1] + y[1:]) / 2.0
    elif summation_method == "minoring":
        heights = math_ops.minimum(y[:n - 1], y[1:])
    elif summation_method == "majoring":
        heights = math_ops.maximum(y[:n - 1], y[1:])
    else:
        raise ValueError(f"Invalid summation_method: {summation_method} summation_method should be 'trapezoidal', "
                         "'careful_interpolation', 'minoring', or 'majoring'.")
    return math_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights), name=name)


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None, updates_collections=None,
        curve="ROC", name=None, summation_method="trapezoidal", thresholds=None):
    """The area under the ROC (or ``curve="PR"``) curve over every batch so far, as ``(value, update_op)``.

    Parameters
    ----------
    labels : Tensor
        Cast to bool: the positives.
    predictions : Tensor
        Scores in [0, 1] (checked when the update runs), ``labels``' shape.
    weights : Tensor, optional
        Broadcastable to ``predictions``.
    num_thresholds : int
        How many thresholds divide [0, 1] (ignored when ``thresholds`` is given).
    metrics_collections, updates_collections : list of str, optional
        Collections the value and the update op are added to.
    curve : {"ROC", "PR"}
    name : str, optional
        The variable scope (default ``auc``).
    summation_method : {"trapezoidal", "careful_interpolation", "minoring", "majoring"}
    thresholds : list of float, optional
        The inner thresholds, sorted here.
    """
    with variable_scope(name, "auc", (labels, predictions, weights)):
        if curve not in ("ROC", "PR"):
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        if thresholds is not None:
            kepsilon = 1e-7  # floating-point slack around the ends of [0, 1]
            thresholds = [0.0 - kepsilon] + sorted(thresholds) + [1.0 + kepsilon]
            num_thresholds = len(thresholds)
        else:
            thresholds = thresholds_in_unit_interval(num_thresholds)
        values, update_ops = _confusion_at_thresholds(labels, predictions, thresholds, weights)
        value = _area(values, num_thresholds, curve, summation_method, "value")
        _add_to(metrics_collections, value)
        update_op = _area(update_ops, num_thresholds, curve, summation_method, "update_op")
        _add_to(updates_collections, update_op)
        return value, update_op
