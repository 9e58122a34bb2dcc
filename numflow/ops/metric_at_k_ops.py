"""More ``tf.metrics`` (compat.v1): ``root_mean_squared_error``, ``mean_iou`` (a streaming confusion matrix) and the
top-k family: ``precision_at_k`` / ``recall_at_k`` and their ``_at_top_k`` forms over given ids (float64
``true_positive_at_k`` and ``false_positive_at_k`` / ``false_negative_at_k`` counters), and ``average_precision_at_k``
(float64 ``total`` and ``max``), with TensorFlow's names and update ops. Labels are class ids, dense (every entry a
label, -1 included) or a SparseTensor (its set entries), and are read per example as a set, as TensorFlow's set ops
read them."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.linalg_ops import diag_part, matrix_band_part
from numflow.ops.loss_ops import assert_broadcastable, broadcast_weights, div_no_nan
from numflow.ops.loss_ops import size as _size
from numflow.ops.math_composites import confusion_matrix
from numflow.ops.metric_ops import _add_to, _flat, mean_squared_error, metric_variable
from numflow.ops.scan_ops import cumsum
from numflow.ops.selection_ops import where
from numflow.ops.sparse_ops import sparse_tensor_to_dense
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


def _at_k_name(name, k, class_id=None):
    return f"{name}_at_{'k' if k is None else k}" + ("" if class_id is None else f"_class{class_id}")


def _expand_labels(labels, top):
    """TensorFlow's ``_maybe_expand_labels``, with sparse labels made dense: int64 ``labels`` of ``top``'s rank
    (a last dimension of 1 added when they have one dimension less) and a bool mask of the entries holding a
    label (all of a dense tensor; those set of a SparseTensor, whose other entries are padding)."""
    if isinstance(labels, SparseTensorValue):
        labels = SparseTensor.from_value(labels)
    if isinstance(labels, SparseTensor):
        present = math_ops.not_equal(sparse_tensor_to_dense(
            SparseTensor(labels.indices, array_ops.ones_like(labels.values), labels.dense_shape)), 0)
        labels = sparse_tensor_to_dense(labels)
    else:
        labels = convert_to_tensor(labels)
        present = None
    labels = math_ops.cast(labels, dtypes.int64)
    present = array_ops.ones_like(labels, dtype=dtypes.bool) if present is None else present
    labels_rank, top_rank = labels.shape.ndims, top.shape.ndims
    if labels_rank is None or top_rank is None:
        shape = array_ops.concat([array_ops.shape(top, out_type=dtypes.int64)[:-1], [-1]], 0)
        return array_ops.reshape(labels, shape), array_ops.reshape(present, shape)
    if top_rank == labels_rank + 1:
        return array_ops.expand_dims(labels, -1), array_ops.expand_dims(present, -1)
    if top_rank != labels_rank:
        raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape {top.shape}. Predictions "
                         "rank should be the same rank as labels rank or labels rank plus one .")
    return labels, present


def _first_occurrences(ids, present):
    """``present``, less each id already present earlier in its row: the row's entries read as a set."""
    same = math_ops.logical_and(math_ops.equal(array_ops.expand_dims(ids, -1), array_ops.expand_dims(ids, -2)),
                                array_ops.expand_dims(present, -2))  # [..., n, n]
    ones = array_ops.ones_like(same, dtype=dtypes.float32)
    earlier = math_ops.cast(matrix_band_part(ones, -1, 0) - matrix_band_part(ones, 0, 0), dtypes.bool)
    repeated = math_ops.reduce_any(math_ops.logical_and(same, earlier), -1)
    return math_ops.logical_and(present, math_ops.logical_not(repeated))


def _in_row(ids, labels, present):
    """For each of ``ids`` ``[..., k]``: whether it is among its row's present ``labels`` ``[..., n]``."""
    equal = math_ops.equal(array_ops.expand_dims(ids, -1), array_ops.expand_dims(labels, -2))
    return math_ops.reduce_any(math_ops.logical_and(equal, array_ops.expand_dims(present, -2)), -1)


def _top_k_hits(labels, present, top, class_id):
    """Per example, with the ids ``top`` and the present ``labels`` each read as a set (TensorFlow's set ops),
    restricted to ``class_id`` when given: the sizes of ``top & labels``, ``top - labels`` and ``labels - top``,
    as float64."""
    top_present = _first_occurrences(top, array_ops.ones_like(top, dtype=dtypes.bool))
    present = _first_occurrences(labels, present)
    if class_id is not None:
        top_present = math_ops.logical_and(top_present, math_ops.equal(top, class_id))
        present = math_ops.logical_and(present, math_ops.equal(labels, class_id))
    top_in_labels = _in_row(top, labels, present)
    label_in_top = _in_row(labels, top, top_present)
    hits = math_ops.logical_and(top_present, top_in_labels)
    misses = math_ops.logical_and(top_present, math_ops.logical_not(top_in_labels))
    missed = math_ops.logical_and(present, math_ops.logical_not(label_in_top))
    return [math_ops.reduce_sum(math_ops.cast(c, dtypes.float64), -1) for c in (hits, misses, missed)]


def _streaming_count(per_example, weights, name):
    with get_default_graph().name_scope(name) as scope:
        if weights is not None:
            weights = convert_to_tensor(weights)
            assert_broadcastable(weights, per_example)
            per_example = math_ops.multiply(per_example, math_ops.cast(weights, dtypes.float64))
        total = math_ops.cast(math_ops.reduce_sum(per_example), dtypes.float64)
        var = metric_variable([], dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, total, name="update")


def _ratio_at_top_k(kind, other, labels, predictions_idx, k, class_id, weights, metrics_collections,
                    updates_collections, name):
    """``tp / (tp + other)`` so far over the top-k ids ``predictions_idx``: precision (``other`` the ids not
    among the labels) or recall (the labels not among the ids), in float64 counters."""
    with get_default_graph().name_scope(name or _at_k_name(kind, k, class_id)) as scope:
        top = math_ops.cast(convert_to_tensor(predictions_idx), dtypes.int64)
        labels, present = _expand_labels(labels, top)
        hits, misses, missed = _top_k_hits(labels, present, top, class_id)
        tp, tp_update = _streaming_count(hits, weights, _at_k_name("true_positive", k, class_id))
        other_counts = misses if other == "false_positive" else missed
        fx, fx_update = _streaming_count(other_counts, weights, _at_k_name(other, k, class_id))
        value = math_ops.divide(tp, math_ops.add(tp, fx), name=scope)
        _add_to(metrics_collections, value)
        update_op = math_ops.divide(tp_update, math_ops.add(tp_update, fx_update), name="update")
        _add_to(updates_collections, update_op)
        return value, update_op


def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The fraction of each example's ids ``predictions_idx`` ``[..., k]`` that are among its ``labels`` (class
    ids ``[..., num_labels]`` or ``[...]``, a Tensor or a SparseTensor), over every batch so far; only the class
    ``class_id`` when given. ``k`` names the scope (``precision_at_k`` without it).

    >>> import numflow as tf
    >>> labels = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([2, 0, 1], tf.int64), [2, 2])
    >>> value, update = tf.metrics.precision_at_top_k(labels, [[2, 1], [3, 0]], k=2)
    >>> sess = tf.Session()
    >>> sess.run(tf.local_variables_initializer())
    >>> float(sess.run(update)), value.name
    (0.5, 'precision_at_2:0')
    """
    return _ratio_at_top_k("precision", "false_positive", labels, predictions_idx, k, class_id, weights,
                           metrics_collections, updates_collections, name)


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None, metrics_collections=None,
                    updates_collections=None, name=None):
    """The fraction of each example's ``labels`` (a Tensor or a SparseTensor of class ids) found among its ids
    ``predictions_idx`` ``[..., k]``, over every batch so far; only the class ``class_id`` when given."""
    return _ratio_at_top_k("recall", "false_negative", labels, predictions_idx, k, class_id, weights,
                           metrics_collections, updates_collections, name)


def _top_k_metric(at_top_k, kind, labels, predictions, k, class_id, weights, metrics_collections,
                  updates_collections, name):
    with get_default_graph().name_scope(name or _at_k_name(kind, k, class_id)) as scope:
        _, top = top_k(predictions, k)
        return at_top_k(labels, top, k, class_id, weights, metrics_collections, updates_collections, scope)


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """:func:`precision_at_top_k` of the ``k`` top-scoring classes of ``predictions`` ``[..., num_classes]``."""
    return _top_k_metric(precision_at_top_k, "precision", labels, predictions, k, class_id, weights,
                         metrics_collections, updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """:func:`recall_at_top_k` of the ``k`` top-scoring classes of ``predictions`` ``[..., num_classes]``."""
    return _top_k_metric(recall_at_top_k, "recall", labels, predictions, k, class_id, weights,
                         metrics_collections, updates_collections, name)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                          updates_collections=None, name=None):
    """TensorFlow's deprecated name of :func:`precision_at_k`."""
    return precision_at_k(labels, predictions, k, class_id, weights, metrics_collections, updates_collections,
                          name)


def _clean_out_of_range(labels, num_classes):
    """``labels`` (a Tensor or a SparseTensor) with the ids ``>= num_classes`` made -1, as TensorFlow cleans them
    when its ``Max`` of the labels reaches ``num_classes``."""
    if isinstance(labels, SparseTensorValue):
        labels = SparseTensor.from_value(labels)
    values = labels.values if isinstance(labels, SparseTensor) else math_ops.cast(labels, dtypes.int64)
    out_of_range = math_ops.logical_and(math_ops.greater_equal(math_ops.reduce_max(values), num_classes),
                                        math_ops.greater_equal(values, num_classes))
    values = array_ops.where_v2(out_of_range, -1 * array_ops.ones_like(values), values)
    return SparseTensor(labels.indices, values, labels.dense_shape) if isinstance(labels, SparseTensor) else values


def _average_precision(labels, top):
    """Per example: the mean over its relevant ids of the precision of ``top`` up to each hit, each hit's precision
    summed and divided by ``min(number of labels, k)`` (labels ``>= 0`` of a dense tensor, with repeats; the
    distinct values of a SparseTensor), in float64."""
    with get_default_graph().name_scope("average_precision") as scope:
        k = top.shape.dim_values[-1]
        sparse = isinstance(labels, SparseTensor)
        labels, present = _expand_labels(labels, top)
        relevant = math_ops.cast(_in_row(top, labels, present), dtypes.float64)
        tp_per_k = cumsum(relevant, axis=-1, name="tp_per_k")
        retrieved_per_k = cumsum(array_ops.ones_like(relevant), axis=-1, name="retrieved_per_k")
        precision_per_k = math_ops.divide(tp_per_k, retrieved_per_k, name="precision_per_k")
        precision_sum = math_ops.reduce_sum(math_ops.multiply(precision_per_k, relevant), axis=(-1,),
                                            name="precision_sum")
        counted = _first_occurrences(labels, present) if sparse else math_ops.greater_equal(labels, 0)
        num_labels = math_ops.reduce_sum(math_ops.cast(counted, dtypes.int64), axis=-1)
        num_relevant = math_ops.cast(math_ops.minimum(num_labels, k), dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant, name=scope)


def _streaming_average_precision(labels, top, weights, metrics_collections, updates_collections, scope):
    graph = get_default_graph()
    average_precision = _average_precision(labels, top)
    if weights is not None:
        weights = broadcast_weights(math_ops.cast(weights, dtypes.float64), average_precision)
        average_precision = math_ops.multiply(average_precision, weights)
    with graph.name_scope("max") as max_scope:
        max_var = metric_variable([], dtypes.float64, name=max_scope)
        if weights is None:
            batch_max = math_ops.cast(_size(average_precision, name="batch_max"), dtypes.float64)
        else:
            batch_max = math_ops.reduce_sum(weights, name="batch_max")
        max_update = state_ops.assign_add(max_var, batch_max, name="update")
    with graph.name_scope("total") as total_scope:
        total_var = metric_variable([], dtypes.float64, name=total_scope)
        total_update = state_ops.assign_add(total_var, math_ops.reduce_sum(average_precision, name="batch_total"),
                                            name="update")
    value = div_no_nan(total_var, max_var, name="mean")
    _add_to(metrics_collections, value)
    update_op = div_no_nan(total_update, max_update, name=scope)
    _add_to(updates_collections, update_op)
    return value, update_op


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None, updates_collections=None,
                           name=None):
    """The mean average precision of the ``k`` top-scoring classes of ``predictions`` ``[..., num_classes]``
    against ``labels`` (a Tensor or a SparseTensor of class ids; ids ``>= num_classes`` are not relevant), over
    the (weighted) examples so far: the ``total`` and ``max`` (the examples' weight) float64 variables.

    >>> import numflow as tf
    >>> value, update = tf.metrics.average_precision_at_k([[0, 2]], [[0.1, 0.7, 0.2]], k=2)
    >>> sess = tf.Session()
    >>> sess.run(tf.local_variables_initializer())
    >>> float(sess.run(update)), value.name  # hit at rank 2 of 2 relevant: (1 / 2) / 2
    (0.25, 'average_precision_at_2/mean:0')
    """
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with get_default_graph().name_scope(name or _at_k_name("average_precision", k)) as scope:
        predictions = convert_to_tensor(predictions)
        _, top = top_k(predictions, k)
        labels = _clean_out_of_range(labels, math_ops.cast(array_ops.shape(predictions)[-1], dtypes.int64))
        return _streaming_average_precision(labels, math_ops.cast(top, dtypes.int64), weights, metrics_collections,
                                            updates_collections, scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """TensorFlow's deprecated name of :func:`average_precision_at_k`."""
    return average_precision_at_k(labels, predictions, k, weights, metrics_collections, updates_collections, name)
