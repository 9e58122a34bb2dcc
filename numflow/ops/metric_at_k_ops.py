"""More ``tf.metrics`` (compat.v1): ``root_mean_squared_error``, ``mean_iou`` (a streaming confusion matrix)
and the top-k metrics ``precision_at_k`` and ``recall_at_k`` (float64 ``true_positive_at_k`` and
``false_positive_at_k``/``false_negative_at_k`` counters), with TensorFlow's names and update ops."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.linalg_ops import diag_part, matrix_band_part
from numflow.ops.math_composites import confusion_matrix
from numflow.ops.metric_ops import _add_to, _flat, mean_squared_error, metric_variable
from numflow.ops.selection_ops import where
from numflow.ops.top_k_ops import top_k
from numflow.variables.scope import variable_scope


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                            name=None):
    """The square root of ``mean_squared_error`` so far; its ``total`` and ``count`` variables live in the
    scope ``root_mean_squared_error``, the two square roots outside it, as in TensorFlow."""
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None, name or "root_mean_squared_error")
    value = math_ops.sqrt(mse)
    _add_to(metrics_collections, value)
    update_op = math_ops.sqrt(update_mse)
    _add_to(updates_collections, update_op)
    return value, update_op


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The mean over classes of ``diag / (row sum + column sum - diag)`` of the confusion matrix so far (the
    classes that never occur left out). ``update_op`` returns the float64 ``total_confusion_matrix``."""
    with variable_scope(name, "mean_iou", (predictions, labels, weights)):
        predictions, labels = convert_to_tensor(predictions), convert_to_tensor(labels)
        predictions.shape.assert_is_compatible_with(labels.shape)
        total_cm = metric_variable([num_classes, num_classes], dtypes.float64, name="total_confusion_matrix")
        predictions = _flat(math_ops.cast(predictions, dtypes.int64))
        labels = _flat(math_ops.cast(labels, dtypes.int64))
        if weights is not None:
            weights = _flat(convert_to_tensor(weights))
        current_cm = confusion_matrix(labels, predictions, num_classes, weights=weights, dtype=dtypes.float64)
        update_op = state_ops.assign_add(total_cm, current_cm)
        rows = math_ops.cast(math_ops.reduce_sum(total_cm, 0), dtypes.float32)
        cols = math_ops.cast(math_ops.reduce_sum(total_cm, 1), dtypes.float32)
        diag = math_ops.cast(diag_part(total_cm), dtypes.float32)
        denominator = rows + cols - diag
        valid = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(denominator, 0), dtypes.float32))
        denominator = where(math_ops.greater(denominator, 0), denominator, array_ops.ones_like(denominator))
        iou = math_ops.divide(diag, denominator)
        value = where(math_ops.greater(valid, 0), math_ops.reduce_sum(iou, name="mean_iou") / valid, 0.0)
        _add_to(metrics_collections, value)
        _add_to(updates_collections, update_op)
        return value, update_op


def _at_k_name(name, k, class_id):
    return f"{name}_at_{k}" + ("" if class_id is None else f"_class{class_id}")


def _top_k_hits(labels, predictions, k, class_id):
    """Per example: the top-k ids found among its labels, the top-k ids not among them, and its labels
    (set semantics: repeated ids once) not in the top k, as float64, restricted to ``class_id`` when given."""
    predictions = convert_to_tensor(predictions)
    labels = math_ops.cast(convert_to_tensor(labels), dtypes.int64)
    if labels.shape.ndims == predictions.shape.ndims - 1:
        labels = array_ops.expand_dims(labels, -1)
    _, top = top_k(predictions, k)
    top = math_ops.cast(top, dtypes.int64)
    equal = math_ops.equal(array_ops.expand_dims(top, -1), array_ops.expand_dims(labels, -2))  # [..., k, labels]
    top_in_labels = math_ops.reduce_any(equal, -1)
    label_in_top = math_ops.reduce_any(equal, -2)
    # A repeated label id counts once: only its first occurrence in the row stands.
    same = math_ops.equal(array_ops.expand_dims(labels, -1), array_ops.expand_dims(labels, -2))
    ones = array_ops.ones_like(same, dtype=dtypes.float32)
    earlier = math_ops.cast(matrix_band_part(ones, -1, 0) - matrix_band_part(ones, 0, 0), dtypes.bool)
    repeated = math_ops.reduce_any(math_ops.logical_and(same, earlier), -1)
    missed = math_ops.logical_and(math_ops.logical_not(label_in_top), math_ops.logical_not(repeated))
    hits, misses = top_in_labels, math_ops.logical_not(top_in_labels)
    if class_id is not None:
        hits = math_ops.logical_and(hits, math_ops.equal(top, class_id))
        misses = math_ops.logical_and(misses, math_ops.equal(top, class_id))
        missed = math_ops.logical_and(missed, math_ops.equal(labels, class_id))
    return [math_ops.reduce_sum(math_ops.cast(c, dtypes.float64), -1) for c in (hits, misses, missed)]


def _streaming_count(per_example, weights, name):
    with get_default_graph().name_scope(name) as scope:
        if weights is not None:
            per_example = math_ops.multiply(per_example, math_ops.cast(weights, dtypes.float64))
        total = math_ops.cast(math_ops.reduce_sum(per_example), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, total, name="update")


def _ratio_at_k(kind, other, labels, predictions, k, class_id, weights, metrics_collections, updates_collections,
                name):
    graph = get_default_graph()
    with graph.name_scope(name or _at_k_name(kind, k, class_id)) as scope:
        hits, misses, missed = _top_k_hits(labels, predictions, k, class_id)
        tp, tp_update = _streaming_count(hits, weights, _at_k_name("true_positive", k, class_id))
        other_counts = misses if other == "false_positive" else missed
        fx, fx_update = _streaming_count(other_counts, weights, _at_k_name(other, k, class_id))
        value = math_ops.divide(tp, math_ops.add(tp, fx), name=scope)
        _add_to(metrics_collections, value)
        update_op = math_ops.divide(tp_update, math_ops.add(tp_update, fx_update), name="update")
        _add_to(updates_collections, update_op)
        return value, update_op


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """The fraction of each example's ``k`` top-scoring classes (of ``predictions``) that are among its
    ``labels`` (class ids, one per example or a row of them), so far; only the class ``class_id`` when given."""
    return _ratio_at_k("precision", "false_positive", labels, predictions, k, class_id, weights,
                       metrics_collections, updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """The fraction of each example's ``labels`` found among its ``k`` top-scoring classes, so far; only the
    class ``class_id`` when given."""
    return _ratio_at_k("recall", "false_negative", labels, predictions, k, class_id, weights,
                       metrics_collections, updates_collections, name)
