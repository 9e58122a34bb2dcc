"""``tf.metrics`` (compat.v1) at given thresholds: the confusion counts, precision and recall at each threshold, and
``sensitivity_at_specificity`` / ``specificity_at_sensitivity``, all over the ``[num_thresholds]`` counters of
:func:`~numflow.ops.metric_curve_ops._confusion_at_thresholds`, with TensorFlow's names.

>>> import numflow as tf
>>> value, update = tf.metrics.precision_at_thresholds([True, False, True], [0.9, 0.6, 0.3], [0.5, 0.8])
>>> sess = tf.Session()
>>> sess.run(tf.local_variables_initializer())
>>> [round(float(p), 4) for p in sess.run(update)], value.name
([0.5, 1.0], 'precision_at_thresholds/precision_value:0')
"""

from numflow.framework import dtypes
from numflow.ops import array_ops, math_ops
from numflow.ops.metric_curve_ops import _VARIABLE_NAMES, _confusion_at_thresholds, thresholds_in_unit_interval
from numflow.ops.metric_ops import _add_to
from numflow.ops.scan_ops import cumsum
from numflow.variables.scope import variable_scope

_KEPSILON = 1e-7  # TensorFlow's slack in the ratios and around the ends of [0, 1]


def _count_at_thresholds(kind, labels, predictions, thresholds, weights, metrics_collections, updates_collections,
                         name):
    with variable_scope(name, _VARIABLE_NAMES[kind], (predictions, labels, weights)):
        values, update_ops = _confusion_at_thresholds(labels, predictions, thresholds, weights, includes=(kind,))
        value = array_ops.identity(values[kind])
        _add_to(metrics_collections, value)
        _add_to(updates_collections, update_ops[kind])
        return value, update_ops[kind]


def _make_count_at_thresholds(kind, doc):
    def fn(labels, predictions, thresholds, weights=None, metrics_collections=None, updates_collections=None,
           name=None):
        return _count_at_thresholds(kind, labels, predictions, thresholds, weights, metrics_collections,
                                    updates_collections, name)

    fn.__name__ = f"{_VARIABLE_NAMES[kind]}_at_thresholds"
    fn.__doc__ = (f"The (weighted) number of {doc} so far, one per threshold of ``thresholds`` (a prediction above "
                  "it is positive); predictions must lie in [0, 1], labels are cast to bool.")
    return fn


true_positives_at_thresholds = _make_count_at_thresholds("tp", "true labels predicted true")
false_positives_at_thresholds = _make_count_at_thresholds("fp", "false labels predicted true")
true_negatives_at_thresholds = _make_count_at_thresholds("tn", "false labels predicted false")
false_negatives_at_thresholds = _make_count_at_thresholds("fn", "true labels predicted false")


def _ratio_at_thresholds(default_name, other, labels, predictions, thresholds, weights, metrics_collections,
                         updates_collections, name):
    """``tp / (1e-7 + tp + other)`` at each threshold so far: precision (``other`` fp) or recall (fn)."""
    with variable_scope(name, f"{default_name}_at_thresholds", (predictions, labels, weights)):
        values, update_ops = _confusion_at_thresholds(labels, predictions, thresholds, weights,
                                                      includes=("tp", other))

        def ratio(counts, name):
            return math_ops.divide(counts["tp"], _KEPSILON + counts["tp"] + counts[other],
                                   name=f"{default_name}_{name}")

        value = ratio(values, "value")
        _add_to(metrics_collections, value)
        update_op = ratio(update_ops, "update_op")
        _add_to(updates_collections, update_op)
        return value, update_op


def precision_at_thresholds(labels, predictions, thresholds, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The precision so far at each threshold of ``thresholds``: ``tp / (1e-7 + tp + fp)``."""
    return _ratio_at_thresholds("precision", "fp", labels, predictions, thresholds, weights, metrics_collections,
                                updates_collections, name)


def recall_at_thresholds(labels, predictions, thresholds, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """The recall so far at each threshold of ``thresholds``: ``tp / (1e-7 + tp + fn)``."""
    return _ratio_at_thresholds("recall", "fn", labels, predictions, thresholds, weights, metrics_collections,
                                updates_collections, name)


def _check_rate(argument, rate, verb):
    if rate < 0 or rate > 1:
        raise ValueError(f"`{argument}` must be in the range [0, 1]. Currently, `{argument}` {verb} {rate}.")


def _rate(counts, hits, misses, index, name):
    return math_ops.divide(counts[hits][index], counts[hits][index] + counts[misses][index] + _KEPSILON, name)


def _rate_at_rate(default_name, pick_index, labels, predictions, weights, num_thresholds, top, metrics_collections,
                  updates_collections, name):
    """One rate read at the threshold that ``pick_index(counts)`` chooses, from the full confusion counts."""
    with variable_scope(name, default_name, (predictions, labels, weights)):
        thresholds = thresholds_in_unit_interval(num_thresholds, top)
        values, update_ops = _confusion_at_thresholds(labels, predictions, thresholds, weights)
        value = pick_index(values, "value")
        _add_to(metrics_collections, value)
        update_op = pick_index(update_ops, "update_op")
        _add_to(updates_collections, update_op)
        return value, update_op


def sensitivity_at_specificity(labels, predictions, specificity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The recall so far at the threshold whose specificity ``tn / (tn + fp)`` is nearest ``specificity`` (the
    lowest such threshold), over ``num_thresholds`` thresholds spanning [0, 1]."""
    _check_rate("specificity", specificity, "got")

    def pick(counts, name):
        specificities = math_ops.divide(counts["tn"], counts["tn"] + counts["fp"] + _KEPSILON)
        index = math_ops.cast(math_ops.argmin(math_ops.abs(specificities - specificity), 0), dtypes.int32)
        return _rate(counts, "tp", "fn", index, name)

    return _rate_at_rate("sensitivity_at_specificity", pick, labels, predictions, weights, num_thresholds,
                         1.0 + _KEPSILON, metrics_collections, updates_collections, name)


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The specificity so far at the threshold whose recall ``tp / (tp + fn)`` is nearest ``sensitivity`` (the
    highest such threshold), over ``num_thresholds`` thresholds spanning [0, 1) as TensorFlow spaces them."""
    _check_rate("sensitivity", sensitivity, "is")

    def pick(counts, name):
        distance = math_ops.abs(math_ops.divide(counts["tp"], counts["tp"] + counts["fn"] + _KEPSILON) - sensitivity)
        at_min = math_ops.cast(math_ops.equal(distance, math_ops.reduce_min(distance)), dtypes.int64)
        index = math_ops.cast(math_ops.argmax(cumsum(at_min), 0), dtypes.int32)
        return _rate(counts, "tn", "fp", index, name)

    return _rate_at_rate("specificity_at_sensitivity", pick, labels, predictions, weights, num_thresholds,
                         1.0 - _KEPSILON, metrics_collections, updates_collections, name)
