"""``tf.metrics`` (compat.v1): streaming metrics over the batches of an evaluation.

Each metric returns ``(value, update_op)``. Its accumulators are local variables (collections
``LOCAL_VARIABLES`` and ``METRIC_VARIABLES``, not trainable, zeroed by
``tf.local_variables_initializer()``) in a variable scope of its name: ``accuracy/total`` and
``accuracy/count``. Running ``update_op`` adds one batch and returns the metric so far; ``value``
reads it without updating. Run them in separate ``Session.run`` calls: in one call their order
is not defined.

>>> import numflow as tf
>>> labels = tf.placeholder(tf.int64, [None])
>>> acc, update = tf.metrics.accuracy(labels, predictions=[1, 2, 3, 4])
>>> sess = tf.Session()
>>> sess.run(tf.local_variables_initializer())
>>> [float(sess.run(update, {labels: batch})) for batch in ([1, 2, 0, 0], [1, 2, 3, 0])]
[0.5, 0.625]
>>> acc.name, float(sess.run(acc))
('accuracy/value:0', 0.625)
"""

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.cond import cond
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.loss_ops import broadcast_weights, div_no_nan, divide_where, remove_squeezable_dimensions, scoped_cast
from numflow.ops.loss_ops import size as _size
from numflow.variables.scope import variable_scope
from numflow.variables.variable import Variable


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A zero-initialized local variable for a metric's state, in LOCAL_VARIABLES and METRIC_VARIABLES."""
    return Variable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                    collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                    validate_shape=validate_shape, name=name)


def _remove_squeezable_dimensions(predictions, labels, weights):
    """Squeeze a trailing 1 from labels or predictions, and fit the rank of ``weights`` to the
    predictions' by squeezing or adding a last dimension (at run time where a rank is unknown)."""
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = remove_squeezable_dimensions(labels, predictions)
        predictions.shape.assert_is_compatible_with(labels.shape)
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    w, p = weights.shape.ndims, predictions.shape.ndims
    if w == 0:
        return predictions, labels, weights
    if w is not None and p is not None:
        if w - p == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif p - w == 1:
            weights = array_ops.expand_dims(weights, [-1])
        return predictions, labels, weights
    return predictions, labels, _fit_weights_rank_at_run_time(weights, predictions)


def _fit_weights_rank_at_run_time(weights, predictions):
    """TensorFlow's conds for ranks unknown when the graph is built: scalar weights stay, weights of one dimension
    more lose their last (unless it is statically not 1), one dimension less gain one."""
    weights_rank = array_ops.rank(weights)
    rank_diff = weights_rank - array_ops.rank(predictions)
    last = weights.shape.dim_values[-1] if weights.shape.ndims else None
    squeezable = weights.shape.ndims is None or last in (None, 1)

    def adjust():
        return cond(math_ops.equal(rank_diff, 1),
                    (lambda: array_ops.squeeze(weights, [-1])) if squeezable else (lambda: weights),
                    lambda: cond(math_ops.equal(rank_diff, -1), lambda: array_ops.expand_dims(weights, [-1]),
                                 lambda: weights))

    return cond(math_ops.equal(weights_rank, 0), lambda: weights, adjust)


def _add_to(collections, value):
    if collections:
        get_default_graph().add_to_collections(collections, value)


def _streaming_mean(values, weights, shape, metrics_collections, updates_collections):
    """``total / count`` of ``values`` (weighted) in two float32 variables of ``shape``: ``[]`` sums every
    batch to a scalar, ``values.shape`` keeps each element's own mean (``mean_tensor``)."""
    elementwise = shape is not None
    suffix = "_tensor" if elementwise else ""
    total = metric_variable(shape if elementwise else [], dtypes.float32, name="total" + suffix)
    count = metric_variable(shape if elementwise else [], dtypes.float32, name="count" + suffix)
    num_values = array_ops.ones_like(values) if elementwise else scoped_cast(_size(values), dtypes.float32)
    if weights is not None:
        values, _, weights = _remove_squeezable_dimensions(values, None, weights)
        weights = broadcast_weights(scoped_cast(weights, dtypes.float32), values)
        values = math_ops.multiply(values, weights)
        num_values = math_ops.multiply(num_values, weights) if elementwise else math_ops.reduce_sum(weights)
    update_total = state_ops.assign_add(total, values if elementwise else math_ops.reduce_sum(values))
    with get_default_graph().control_dependencies([values]):
        update_count = state_ops.assign_add(count, num_values)
    value = div_no_nan(total, math_ops.maximum(count, 0), name="value")
    _add_to(metrics_collections, value)
    update_op = div_no_nan(update_total, math_ops.maximum(update_count, 0), name="update_op")
    _add_to(updates_collections, update_op)
    return value, update_op


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of ``values`` over every batch so far: ``total / count``."""
    with variable_scope(name, "mean", (values, weights)):
        values = scoped_cast(values, dtypes.float32)
        return _streaming_mean(values, weights, None, metrics_collections, updates_collections)


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of each element of ``values`` over every batch so far, of ``values``' static shape
    (which must be fully known): ``total_tensor / count_tensor``, 0 where the count is 0.

    >>> import numflow as tf
    >>> values = tf.placeholder(tf.float32, [2])
    >>> avg, update = tf.metrics.mean_tensor(values)
    >>> sess = tf.Session()
    >>> sess.run(tf.local_variables_initializer())
    >>> [sess.run(update, {values: v}).tolist() for v in ([1.0, 2.0], [3.0, 6.0])]
    [[1.0, 2.0], [2.0, 4.0]]
    """
    with variable_scope(name, "mean", (values, weights)):
        values = scoped_cast(values, dtypes.float32)
        return _streaming_mean(values, weights, values.shape, metrics_collections, updates_collections)


def percentage_below(values, threshold, weights=None, metrics_collections=None, updates_collections=None,
                     name=None):
    """The (weighted) fraction of ``values`` below ``threshold`` over every batch so far."""
    is_below = scoped_cast(math_ops.less(values, threshold), dtypes.float32)
    return mean(is_below, weights, metrics_collections, updates_collections, name or "percentage_below_threshold")


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) fraction of ``predictions`` equal to ``labels``; predictions take the labels' dtype."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
        predictions = scoped_cast(predictions, labels.dtype)
    is_correct = scoped_cast(math_ops.equal(predictions, labels), dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                       name=None):
    """The (weighted) mean of ``(labels - predictions) ** 2`` over every batch so far."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    squared_error = math_ops.squared_difference(labels, predictions)
    return mean(squared_error, weights, metrics_collections, updates_collections, name or "mean_squared_error")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
                        name=None):
    """The (weighted) mean of ``|predictions - labels|`` over every batch so far."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    absolute_errors = math_ops.abs(predictions - labels)
    return mean(absolute_errors, weights, metrics_collections, updates_collections, name or "mean_absolute_error")


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The (weighted) mean of ``|labels - predictions| / normalizer`` (0 where ``normalizer`` is 0) so far."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    predictions, normalizer = remove_squeezable_dimensions(predictions, normalizer)
    predictions.shape.assert_is_compatible_with(normalizer.shape)
    relative_errors = array_ops.where(math_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
                                      math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(relative_errors, weights, metrics_collections, updates_collections, name or "mean_relative_error")


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None, updates_collections=None,
                         name=None):
    """``1 -`` the (weighted) mean over every batch so far of the dot products of ``labels`` and ``predictions``
    (unit vectors along axis ``dim``); the two subtractions are named ``Sub`` outside the metric's scope."""
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    radial_diffs = math_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim], keepdims=True)
    mean_distance, update_op = mean(radial_diffs, weights, None, None, name or "mean_cosine_distance")
    mean_distance = math_ops.subtract(1.0, mean_distance)
    update_op = math_ops.subtract(1.0, update_op)
    _add_to(metrics_collections, mean_distance)
    _add_to(updates_collections, update_op)
    return mean_distance, update_op


def _flat(tensor):
    """``tensor`` reshaped to a vector when its static rank is above 1."""
    return array_ops.reshape(tensor, [-1]) if tensor.shape.ndims is None or tensor.shape.ndims > 1 else tensor


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """The mean over the ``num_classes`` classes of each class's (weighted) accuracy so far (0 for a class not
    seen yet). ``update_op`` returns the ``[num_classes]`` accuracies per class; the scope is ``mean_accuracy``.

    >>> import numflow as tf
    >>> value, update = tf.metrics.mean_per_class_accuracy([0, 0, 1, 1], [0, 1, 1, 1], num_classes=2)
    >>> sess = tf.Session()
    >>> sess.run(tf.local_variables_initializer())
    >>> sess.run(update).tolist(), float(sess.run(value)), value.name
    ([0.5, 1.0], 0.75, 'mean_accuracy/mean_accuracy:0')
    """
    with variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = _flat(scoped_cast(labels, dtypes.int64))
        predictions = _flat(convert_to_tensor(predictions))
        predictions.shape.assert_is_compatible_with(labels.shape)
        # TensorFlow's names: ``total`` counts the examples of each class, ``count`` the correct ones.
        total = metric_variable([num_classes], dtypes.float32, name="total")
        count = metric_variable([num_classes], dtypes.float32, name="count")
        ones = array_ops.ones(array_ops.reshape(_size(labels), [1]), dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = scoped_cast(predictions, labels.dtype)
        is_correct = scoped_cast(math_ops.equal(predictions, labels), dtypes.float32)
        if weights is not None:
            weights = scoped_cast(_flat(convert_to_tensor(weights)), dtypes.float32)
            is_correct *= weights
            ones *= weights
        update_total = state_ops.scatter_add(total, labels, ones)
        update_count = state_ops.scatter_add(count, labels, is_correct)
        per_class = div_no_nan(count, math_ops.maximum(total, 0))
        value = math_ops.reduce_mean(per_class, name="mean_accuracy")
        _add_to(metrics_collections, value)
        update_op = div_no_nan(update_count, math_ops.maximum(update_total, 0), name="update_op")
        _add_to(updates_collections, update_op)
        return value, update_op


# -- counts of a condition ----------------------------------------------------------------------
def _count_condition(values, weights, metrics_collections, updates_collections):
    """The (weighted) number of true ``values`` so far, in a ``count`` variable."""
    count = metric_variable([], dtypes.float32, name="count")
    values = math_ops.cast(values, dtypes.float32)
    if weights is not None:
        weights = convert_to_tensor(weights)
        rank, w = values.shape.ndims, weights.shape
        if rank is not None and w.ndims is not None and w.ndims not in (0, rank):
            raise ValueError(f"Tensor {weights.name} must have rank in {(0, rank)}.  Received rank {w.ndims}, "
                             f"shape {w}")
        values = math_ops.multiply(values, scoped_cast(weights, dtypes.float32))
    value = array_ops.identity(count)
    _add_to(metrics_collections, value)
    update_op = state_ops.assign_add(count, math_ops.reduce_sum(values))
    _add_to(updates_collections, update_op)
    return value, update_op


def _bool_inputs(labels, predictions, weights):
    predictions, labels, weights = _remove_squeezable_dimensions(
        math_ops.cast(predictions, dtypes.bool), math_ops.cast(labels, dtypes.bool), weights)
    return labels, predictions, weights


def _make_count(default_name, label_value, prediction_value, doc):
    def fn(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
        with variable_scope(name, default_name, (predictions, labels, weights)):
            labels, predictions, weights = _bool_inputs(labels, predictions, weights)
            condition = math_ops.logical_and(math_ops.equal(labels, label_value),
                                             math_ops.equal(predictions, prediction_value))
            return _count_condition(condition, weights, metrics_collections, updates_collections)

    fn.__name__ = default_name
    fn.__doc__ = f"The (weighted) number of {doc} so far; inputs are cast to bool."
    return fn


true_positives = _make_count("true_positives", True, True, "true labels predicted true")
false_positives = _make_count("false_positives", False, True, "false labels predicted true")
true_negatives = _make_count("true_negatives", False, False, "false labels predicted false")
false_negatives = _make_count("false_negatives", True, False, "true labels predicted false")


def _ratio(default_name, other_count, labels, predictions, weights, metrics_collections, updates_collections,
           name):
    """``tp / (tp + other)`` so far, 0 while ``tp + other`` is not positive (precision and recall)."""
    with variable_scope(name, default_name, (predictions, labels, weights)):
        labels, predictions, weights = _bool_inputs(labels, predictions, weights)
        tp, tp_update = true_positives(labels, predictions, weights)
        other, other_update = other_count(labels, predictions, weights)

        def ratio(tp, other, name):
            total = tp + other
            return divide_where(tp, total, math_ops.greater(total, 0), name=name)

        value = ratio(tp, other, "value")
        _add_to(metrics_collections, value)
        update_op = ratio(tp_update, other_update, "update_op")
        _add_to(updates_collections, update_op)
        return value, update_op


def precision(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """``true_positives / (true_positives + false_positives)`` over every batch so far."""
    return _ratio("precision", false_positives, labels, predictions, weights, metrics_collections,
                  updates_collections, name)


def recall(labels, predictions, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """``true_positives / (true_positives + false_negatives)`` over every batch so far."""
    return _ratio("recall", false_negatives, labels, predictions, weights, metrics_collections,
                  updates_collections, name)
