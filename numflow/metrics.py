"""``tf.metrics``: the compat.v1 streaming metrics, each a ``(value, update_op)`` pair; re-exports only."""

from numflow.ops.metric_at_k_ops import mean_iou, precision_at_k, recall_at_k, root_mean_squared_error
from numflow.ops.metric_curve_ops import auc
from numflow.ops.metric_ops import (
    accuracy,
    false_negatives,
    false_positives,
    mean,
    mean_absolute_error,
    mean_cosine_distance,
    mean_per_class_accuracy,
    mean_relative_error,
    mean_squared_error,
    mean_tensor,
    percentage_below,
    precision,
    recall,
    true_negatives,
    true_positives,
)

__all__ = [
    "accuracy", "auc", "false_negatives", "false_positives", "mean", "mean_absolute_error", "mean_iou",
    "mean_cosine_distance", "mean_per_class_accuracy", "mean_relative_error", "mean_squared_error", "mean_tensor",
    "percentage_below", "precision", "precision_at_k", "recall", "recall_at_k", "root_mean_squared_error",
    "true_negatives", "true_positives",
]
