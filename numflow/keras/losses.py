"""``tf.keras.losses``: Keras' loss functions (one value per example) and classes (reduced over the batch), on
the ops Keras' backend builds (the cross entropies are the backend's)."""

from numflow.keras import backend
from numflow.layers import utils
from numflow.ops import array_ops, math_ops
from numflow.ops.clip_ops import clip_by_value
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.sequence_ops import size


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return math_ops.cast(y_true, y_pred.dtype.base_dtype), y_pred


def mean_squared_error(y_true, y_pred):
    """``mean((y_pred - y_true) ** 2)`` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """``mean(|y_pred - y_true|)`` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(math_ops.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(|y_true - y_pred| / max(|y_true|, epsilon))`` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    diff = math_ops.abs((y_true - y_pred) / math_ops.maximum(math_ops.abs(y_true), backend.epsilon()))
    return 100.0 * math_ops.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean((log(y_pred + 1) - log(y_true + 1)) ** 2)``, both clipped at epsilon, over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    first_log = math_ops.log(math_ops.maximum(y_pred, backend.epsilon()) + 1.0)
    second_log = math_ops.log(math_ops.maximum(y_true, backend.epsilon()) + 1.0)
    return math_ops.reduce_mean(math_ops.squared_difference(first_log, second_log), axis=-1)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """``-sum(y_true * log(y_pred))`` over ``axis`` (``backend.categorical_crossentropy``), the labels smoothed
    towards uniform by ``label_smoothing``."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / classes)
    return backend.categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """The categorical cross entropy of integer labels ``y_true`` (``backend.sparse_categorical_crossentropy``)."""
    return backend.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """The mean over ``axis`` of ``backend.binary_crossentropy``, the labels smoothed towards 0.5 by
    ``label_smoothing``."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return math_ops.reduce_mean(backend.binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0))`` over the last axis, labels 0/1 taken as -1/1."""
    y_true, y_pred = _pair(y_true, y_pred)
    is_binary = math_ops.reduce_all(math_ops.logical_or(math_ops.equal(y_true, 0), math_ops.equal(y_true, 1)))
    from numflow.ops.cond import cond

    y_true = cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)
    return math_ops.reduce_mean(math_ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred))`` over the last axis, both clipped to [epsilon, 1]."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = clip_by_value(y_true, backend.epsilon(), 1)
    y_pred = clip_by_value(y_pred, backend.epsilon(), 1)
    return math_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence


# -- the classes -------------------------------------------------------------------------------------------
class Reduction:
    """How a loss class reduces its per-example values."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"


def reduce_weighted_loss(weighted_losses, reduction):
    """``weighted_losses`` reduced: as they are (NONE), summed (SUM) or their mean (else: the sum divided by the
    number of values, 0 for none)."""
    if reduction == Reduction.NONE:
        return weighted_losses
    total = math_ops.reduce_sum(weighted_losses)
    if reduction == Reduction.SUM:
        return total
    count = math_ops.cast(size(weighted_losses), total.dtype)
    return math_ops.div_no_nan(total, count, name="value")


def match_rank(weights, values):
    """``weights`` with a last axis added or dropped when its rank is one short of or one over ``values``' (per
    sample weights of per step losses), as Keras' ``squeeze_or_expand_dimensions`` does."""
    weights_rank, values_rank = weights.shape.ndims, values.shape.ndims
    if weights_rank is None or values_rank is None or weights_rank == 0:
        return weights
    if weights_rank - values_rank == -1:
        return array_ops.expand_dims(weights, -1)
    if weights_rank - values_rank == 1 and weights.shape[-1] in (1, None):
        return array_ops.squeeze(weights, [-1])
    return weights


class Loss:
    """A loss: ``loss(y_true, y_pred, sample_weight=None)`` is the per-example values of ``call``, weighted and
    reduced by ``reduction`` (the mean over the batch by default), under a name scope of the loss's name."""

    def __init__(self, reduction=Reduction.AUTO, name=None):
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        from numflow.framework.graph import get_default_graph

        graph = get_default_graph()
        with graph.name_scope(self.name or type(self).__name__.lower()):
            losses = self.call(y_true, y_pred)
            with graph.name_scope("weighted_loss"):
                weights = math_ops.cast(1.0 if sample_weight is None else sample_weight, losses.dtype.base_dtype)
                weights = match_rank(weights, losses)
                reduction = Reduction.SUM_OVER_BATCH_SIZE if self.reduction == Reduction.AUTO else self.reduction
                return reduce_weighted_loss(math_ops.multiply(losses, weights), reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}


class LossFunctionWrapper(Loss):
    """A Loss whose ``call`` is ``fn(y_true, y_pred, **kwargs)``."""

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)


def _loss_class(class_name, fn, default_name, doc):
    def __init__(self, reduction=Reduction.AUTO, name=default_name, **kwargs):  # noqa: N807
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **kwargs)

    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc})


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error, "mean_squared_error",
                               "The mean over the batch of :func:`mean_squared_error`.")
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                                "The mean over the batch of :func:`mean_absolute_error`.")
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error",
                                          "The mean over the batch of :func:`mean_absolute_percentage_error`.")
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error",
                                          "The mean over the batch of :func:`mean_squared_logarithmic_error`.")
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy,
                                      "categorical_crossentropy",
                                      "The mean over the batch of :func:`categorical_crossentropy`.")
SparseCategoricalCrossentropy = _loss_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                            "sparse_categorical_crossentropy",
                                            "The mean over the batch of :func:`sparse_categorical_crossentropy`.")
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                                 "The mean over the batch of :func:`binary_crossentropy`.")
Hinge = _loss_class("Hinge", hinge, "hinge", "The mean over the batch of :func:`hinge`.")
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence",
                           "The mean over the batch of :func:`kl_divergence`.")

_BY_NAME = {
    "mean_squared_error": mean_squared_error, "mse": mse, "MSE": mse, "mean_absolute_error": mae, "mae": mae,
    "MAE": mae, "mean_absolute_percentage_error": mape, "mape": mape, "MAPE": mape,
    "mean_squared_logarithmic_error": msle, "msle": msle, "MSLE": msle,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy, "binary_crossentropy": binary_crossentropy,
    "hinge": hinge, "kl_divergence": kl_divergence, "kld": kld, "KLD": kld,
    "kullback_leibler_divergence": kl_divergence,
}


def get(identifier):
    """The loss function ``identifier`` names (``"mse"``), or ``identifier`` itself (a callable)."""
    if identifier is None:
        return None
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    raise utils.unknown_object_error("loss function", identifier)


def serialize(loss):
    return getattr(loss, "__name__", None) or getattr(loss, "name", None)
