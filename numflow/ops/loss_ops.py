"""``tf.losses`` (compat.v1): weighted losses, their reductions, and the LOSSES collection.

A loss opens a name scope of its own name (``mean_squared_error/``), computes one loss per element
in float32, and hands it to :func:`compute_weighted_loss`, which multiplies by ``weights``, reduces
by ``reduction`` (for the default, ``sum / number of nonzero weights``, named ``.../value``), casts
back to the losses' dtype and adds the result to ``loss_collection``.

``weights`` is a scalar or has the losses' rank, each dimension 1 or the losses' own. As in
TensorFlow, a violation known from static shapes raises ValueError when the graph is built; one
known only at run time is not checked (TF adds an ``Assert``), so numpy broadcasting applies there.
"""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, Tensor, get_default_graph
from numflow.ops import array_ops, math_ops, nn_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.nn_impl import sigmoid_cross_entropy_with_logits


class Reduction:
    """How :func:`compute_weighted_loss` reduces the weighted losses."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls):
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS,
                cls.SUM_BY_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}. Key should be one of {cls.all()}.")


# -- helpers shared with the metrics ------------------------------------------------------------
def scoped_cast(x, dtype):
    """``x`` as ``dtype``, named as TF's ``math_ops.cast``: a tensor of that dtype is returned as is;
    otherwise a ``Cast`` scope is opened (holding ``Cast/x`` for a Python value), as in TF."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, Tensor) and x.dtype.base_dtype == dtype:
        return x
    with get_default_graph().name_scope("Cast") as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.base_dtype != dtype:
            x = math_ops.cast(x, dtype, name=scope)
        return x


def div_no_nan(x, y, name="div_no_nan"):
    """``x / y``, or 0 where ``y`` is 0 (TF's ``DivNoNan``, composed: ``x * m / (y + 1 - m)``, m = ``y != 0``).

    Where ``y`` is 0 an infinite or NaN ``x`` gives NaN here, 0 in TF.
    """
    with get_default_graph().name_scope(name) as scope:
        x, y = convert_to_tensor(x, name="x"), convert_to_tensor(y, name="y")
        return divide_where(x, y, math_ops.not_equal(y, 0), scope)


def divide_where(x, y, present, name):
    """``x / y`` where ``present``, else 0; ``y`` becomes 1 where absent, so no NaN is made there."""
    with get_default_graph().name_scope(name) as scope:
        m = math_ops.cast(present, y.dtype.base_dtype)
        return math_ops.truediv(x * m, y * m + (1 - m), name=scope)


def size(x, name="Size"):
    """The number of elements of ``x`` as an int32 scalar: a constant when the shape is known."""
    n = x.shape.num_elements()
    if n is not None:
        return constant(n, dtype=dtypes.int32, name=name)
    return math_ops.reduce_prod(array_ops.shape(x), name=name)


def assert_broadcastable(weights, values):
    """Raise TF's ValueError when static shapes show ``weights`` cannot be broadcast to ``values``."""
    w, v = weights.shape, values.shape
    if w.ndims is None or v.ndims is None or w.ndims == 0:
        return
    prefix = "weights can not be broadcast to values."
    received = f"Received weights={weights}, values={values}"
    if w.ndims != v.ndims:
        raise ValueError(f"{prefix} values.rank={v.ndims}. weights.rank={w.ndims}. values.shape={v}. "
                         f"weights.shape={w}. {received}")
    if w.is_fully_defined() and v.is_fully_defined():
        for i, (a, b) in enumerate(zip(w.as_list(), v.as_list())):
            if a not in (1, b):
                raise ValueError(f"{prefix} Mismatch at dim {i}. values.shape={np.array(v.as_list())}, "
                                 f"weights.shape={np.array(w.as_list())}. {received}")


def broadcast_weights(weights, values):
    """``weights`` broadcast to the shape of ``values`` (returned as is when the shapes already agree)."""
    with get_default_graph().name_scope("broadcast_weights") as scope:
        values = convert_to_tensor(values, name="values")
        weights = convert_to_tensor(weights, dtype=values.dtype.base_dtype, name="weights")
        w, v = weights.shape, values.shape
        if w.is_fully_defined() and v.is_fully_defined() and w.is_compatible_with(v):
            return weights
        assert_broadcastable(weights, values)
        return math_ops.multiply(weights, array_ops.ones_like(values), name=scope)


def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0):
    """``(labels, predictions)`` with a last dimension of size 1 squeezed from the one whose rank
    exceeds the expected ``rank(predictions) - rank(labels)`` by one (static ranks only)."""
    with get_default_graph().name_scope("remove_squeezable_dimensions"):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        p, lab = predictions.shape, labels.shape
        if p.ndims is not None and lab.ndims is not None:
            diff = p.ndims - lab.ndims
            if diff == expected_rank_diff + 1 and p.dim_values[-1] in (None, 1):
                predictions = array_ops.squeeze(predictions, [-1])
            elif diff == expected_rank_diff - 1 and lab.dim_values[-1] in (None, 1):
                labels = array_ops.squeeze(labels, [-1])
        return labels, predictions


# -- reduction ----------------------------------------------------------------------------------
def _num_elements(losses):
    with get_default_graph().name_scope("num_elements") as scope:
        return math_ops.cast(size(losses, name=scope), losses.dtype)


def _num_present(losses, weights):
    """The number of elements of ``losses`` whose (broadcast) weight is nonzero."""
    with get_default_graph().name_scope("num_present") as scope:
        present = math_ops.cast(math_ops.not_equal(weights, 0.0), dtypes.float32)
        return math_ops.reduce_sum(broadcast_weights(present, losses), name=scope)


def compute_weighted_loss(losses, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                          reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``losses * weights`` reduced by ``reduction``, in the losses' dtype, added to ``loss_collection``.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     loss = tf.losses.compute_weighted_loss([1.0, 2.0, 6.0], weights=[1.0, 0.0, 2.0])
    ...     loss.name, float(tf.Session().run(loss))
    ('weighted_loss/value:0', 6.5)
    """
    Reduction.validate(reduction)
    with get_default_graph().name_scope(scope or "weighted_loss"):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype.base_dtype
        if not isinstance(weights, numbers.Real):
            weights = convert_to_tensor(weights)
            assert_broadcastable(weights, losses)
        losses = scoped_cast(losses, dtypes.float32)
        weights = scoped_cast(weights, dtypes.float32)
        loss = math_ops.multiply(losses, weights)
        if reduction != Reduction.NONE:
            loss = math_ops.reduce_sum(loss)
            if reduction == Reduction.MEAN:
                loss = div_no_nan(loss, math_ops.reduce_sum(array_ops.ones_like(losses) * weights), name="value")
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = div_no_nan(loss, _num_present(losses, weights), name="value")
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = div_no_nan(loss, _num_elements(losses), name="value")
        loss = scoped_cast(loss, input_dtype)
        add_loss(loss, loss_collection)
        return loss


# -- the losses ---------------------------------------------------------------------------------
def _check_given(**args):
    for name, value in args.items():
        if value is None:
            raise ValueError(f"Argument `{name}` must not be None.")


def _elementwise_loss(default_name, scope, first, second, per_element, weights, loss_collection, reduction):
    """Cast ``first`` (predictions or logits) then ``second`` (labels) to float32, check their shapes
    agree, and weight and reduce ``per_element(first, second)``."""
    with get_default_graph().name_scope(scope or default_name) as scope:
        first = scoped_cast(first, dtypes.float32)
        second = scoped_cast(second, dtypes.float32)
        first.shape.assert_is_compatible_with(second.shape)
        losses = per_element(first, second)
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def absolute_difference(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                        reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``|predictions - labels|``, weighted and reduced."""
    _check_given(labels=labels, predictions=predictions)
    return _elementwise_loss("absolute_difference", scope, predictions, labels,
                             lambda p, lab: math_ops.abs(math_ops.subtract(p, lab)),
                             weights, loss_collection, reduction)


def mean_squared_error(labels, predictions, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                       reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``(predictions - labels) ** 2``, weighted and reduced.

    >>> import numflow as tf
    >>> with tf.Graph().as_default():
    ...     loss = tf.losses.mean_squared_error([[0.0, 1.0]], [[1.0, 3.0]])
    ...     loss.name, float(tf.Session().run(loss)), tf.losses.get_losses() == [loss]
    ('mean_squared_error/value:0', 2.5, True)
    """
    _check_given(labels=labels, predictions=predictions)
    return _elementwise_loss("mean_squared_error", scope, predictions, labels, math_ops.squared_difference,
                             weights, loss_collection, reduction)


def hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``max(0, 1 - y * logits)`` with ``y = 2 * labels - 1``: labels are 0 or 1."""
    _check_given(labels=labels, logits=logits)

    def per_element(logits, labels):
        all_ones = array_ops.ones_like(labels)
        signs = math_ops.subtract(2 * labels, all_ones)
        return nn_ops.relu(math_ops.subtract(all_ones, math_ops.multiply(signs, logits)))

    return _elementwise_loss("hinge_loss", scope, logits, labels, per_element, weights, loss_collection, reduction)


def huber_loss(labels, predictions, weights=1.0, delta=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
               reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``0.5 * e ** 2`` where ``|e| <= delta``, else ``0.5 * delta ** 2 + delta * (|e| - delta)``."""
    _check_given(labels=labels, predictions=predictions)

    def per_element(predictions, labels):
        abs_error = math_ops.abs(math_ops.subtract(predictions, labels))
        quadratic = math_ops.minimum(abs_error, delta)
        linear = math_ops.subtract(abs_error, quadratic)
        half = convert_to_tensor(0.5, dtype=quadratic.dtype.base_dtype)
        return math_ops.add(math_ops.multiply(half, math_ops.multiply(quadratic, quadratic)),
                            math_ops.multiply(delta, linear))

    return _elementwise_loss("huber_loss", scope, predictions, labels, per_element, weights, loss_collection,
                             reduction)


def log_loss(labels, predictions, weights=1.0, epsilon=1e-7, scope=None, loss_collection=GraphKeys.LOSSES,
             reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``-labels * log(predictions + epsilon) - (1 - labels) * log(1 - predictions + epsilon)``."""
    _check_given(labels=labels, predictions=predictions)

    def per_element(predictions, labels):
        return (-math_ops.multiply(labels, math_ops.log(predictions + epsilon))
                - math_ops.multiply(1 - labels, math_ops.log(1 - predictions + epsilon)))

    return _elementwise_loss("log_loss", scope, predictions, labels, per_element, weights, loss_collection,
                             reduction)


def sigmoid_cross_entropy(multi_class_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.nn.sigmoid_cross_entropy_with_logits``, weighted and reduced; labels in [0, 1].

    ``label_smoothing`` moves the labels toward 1/2: ``labels * (1 - s) + 0.5 * s``.
    """
    _check_given(multi_class_labels=multi_class_labels, logits=logits)
    with get_default_graph().name_scope(scope or "sigmoid_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = scoped_cast(multi_class_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(labels.shape)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def softmax_cross_entropy(onehot_labels, logits, weights=1.0, label_smoothing=0, scope=None,
                          loss_collection=GraphKeys.LOSSES, reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.nn.softmax_cross_entropy_with_logits_v2`` per row, weighted and reduced.

    ``label_smoothing`` s mixes the labels with the uniform distribution over the C classes:
    ``labels * (1 - s) + s / C``. No gradient flows into the labels.
    """
    _check_given(onehot_labels=onehot_labels, logits=logits)
    with get_default_graph().name_scope(scope or "softmax_cross_entropy_loss") as scope:
        logits = convert_to_tensor(logits)
        labels = scoped_cast(onehot_labels, logits.dtype)
        logits.shape.assert_is_compatible_with(labels.shape)
        if label_smoothing > 0:
            num_classes = math_ops.cast(array_ops.shape(labels)[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / num_classes
        labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
        losses = nn_ops.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


def sparse_softmax_cross_entropy(labels, logits, weights=1.0, scope=None, loss_collection=GraphKeys.LOSSES,
                                 reduction=Reduction.SUM_BY_NONZERO_WEIGHTS):
    """``tf.nn.sparse_softmax_cross_entropy_with_logits`` per row, weighted and reduced.

    ``labels`` (class indices) of shape [batch, 1] and ``weights`` of shape [batch, 1] are squeezed
    to [batch] first.
    """
    _check_given(labels=labels, logits=logits)
    with get_default_graph().name_scope(scope or "sparse_softmax_cross_entropy_loss") as scope:
        labels, logits = remove_squeezable_dimensions(labels, logits, expected_rank_diff=1)
        weights = convert_to_tensor(weights)
        if labels.shape.ndims is not None and weights.shape.ndims == labels.shape.ndims + 1:
            weights = array_ops.squeeze(weights, [-1])
        losses = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, scope, loss_collection, reduction=reduction)


# -- the collection -----------------------------------------------------------------------------
def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Add ``loss`` to ``loss_collection`` (nothing when it is None or empty)."""
    if loss_collection:
        get_default_graph().add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """The losses in ``loss_collection`` whose names start with the regex ``scope``."""
    return get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """The losses that ``get_variable(regularizer=...)`` added, filtered by ``scope``."""
    return get_default_graph().get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses, or a constant 0.0 when there are none."""
    losses = get_regularization_losses(scope)
    if losses:
        return math_ops.add_n(losses, name=name)
    return constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the losses (and, by default, of the regularization losses); ValueError when none."""
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope=scope)
    return math_ops.add_n(losses, name=name)
