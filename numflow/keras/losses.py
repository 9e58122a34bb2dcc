"""``tf.keras.losses``: Keras' loss functions (one value per example) and classes (reduced over the batch), on
the ops Keras' backend builds (the cross entropies are the backend's)."""

import numpy as np

from numflow.keras import backend, serialization
from numflow.ops import array_ops, math_ops
from numflow.ops.clip_ops import clip_by_value
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.sequence_ops import size


def squeeze_or_expand_dimensions(y_pred, y_true=None, sample_weight=None):
    """``(y_pred, y_true)``, or with ``sample_weight`` the three, their static ranks lined up as Keras lines them
    up: a last dimension of 1 squeezed from ``y_pred`` or ``y_true`` when their ranks differ by one (unless
    ``y_true`` holds labels of ``y_pred``'s classes), ``sample_weight`` squeezed or expanded to ``y_pred``'s
    rank (a scalar kept)."""
    from numflow.ops.loss_ops import remove_squeezable_dimensions

    y_pred_rank = y_pred.shape.ndims
    if y_true is not None:
        y_true_rank = y_true.shape.ndims
        if y_true_rank is not None and y_pred_rank is not None and (
                y_pred_rank - y_true_rank != 1 or y_pred.shape.dim_values[-1] == 1):
            y_true, y_pred = remove_squeezable_dimensions(y_true, y_pred)
    if sample_weight is None:
        return y_pred, y_true
    weights_rank = sample_weight.shape.ndims
    if weights_rank is not None and weights_rank and y_pred_rank is not None:
        if weights_rank - y_pred_rank == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
        elif y_pred_rank - weights_rank == 1:
            sample_weight = array_ops.expand_dims(sample_weight, -1)
    return y_pred, y_true, sample_weight


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


def _maybe_convert_labels(y_true):
    """Labels 0/1 taken as -1/1 (others as they are), decided at run time as Keras does."""
    from numflow.ops.cond import cond

    is_binary = math_ops.reduce_all(math_ops.logical_or(math_ops.equal(y_true, 0), math_ops.equal(y_true, 1)))
    return cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0))`` over the last axis, labels 0/1 taken as -1/1."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return math_ops.reduce_mean(math_ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0) ** 2)`` over the last axis, labels 0/1 taken as -1/1."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return math_ops.reduce_mean(math_ops.square(math_ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    pos = math_ops.reduce_sum(y_true * y_pred, axis=-1)
    neg = math_ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return math_ops.maximum(neg - pos + 1.0, math_ops.cast(0.0, y_pred.dtype.base_dtype))


def huber(y_true, y_pred, delta=1.0):
    """The mean over the last axis of ``error ** 2 / 2`` where ``|error| <= delta``, else
    ``delta * |error| - delta ** 2 / 2``."""
    from numflow.ops.array_ops import where

    y_pred = math_ops.cast(y_pred, backend.floatx())
    y_true = math_ops.cast(y_true, backend.floatx())
    delta = math_ops.cast(delta, backend.floatx())
    error = math_ops.subtract(y_pred, y_true)
    abs_error = math_ops.abs(error)
    half = convert_to_tensor(0.5, dtype=abs_error.dtype.base_dtype)
    return math_ops.reduce_mean(where(abs_error <= delta, half * math_ops.square(error),
                                      delta * abs_error - half * math_ops.square(delta)), axis=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)))`` over the last axis, as ``x + softplus(-2x) - log(2)``."""
    from numflow.ops.nn_activation_ops import softplus

    y_true, y_pred = _pair(y_true, y_pred)
    error = y_pred - y_true
    log_2 = math_ops.cast(math_ops.log(2.0), error.dtype.base_dtype)
    return math_ops.reduce_mean(error + softplus(-2.0 * error) - log_2, axis=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + epsilon))`` over the last axis."""
    y_true, y_pred = _pair(y_true, y_pred)
    return math_ops.reduce_mean(y_pred - y_true * math_ops.log(y_pred + backend.epsilon()), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred))`` over ``axis``: -1 for the same direction."""
    from numflow.ops.nn_impl import l2_normalize

    return -math_ops.reduce_sum(l2_normalize(y_true, axis=axis) * l2_normalize(y_pred, axis=axis), axis=axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                              label_smoothing=0.0, axis=-1):
    """The mean over ``axis`` of ``backend.binary_focal_crossentropy``, the labels smoothed towards 0.5."""
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return math_ops.reduce_mean(backend.binary_focal_crossentropy(
        y_true, y_pred, apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
        from_logits=from_logits), axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                                   axis=-1):
    """``backend.categorical_focal_crossentropy``, the labels smoothed towards uniform."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / classes)
    return backend.categorical_focal_crossentropy(y_true, y_pred, alpha=alpha, gamma=gamma, from_logits=from_logits,
                                                  axis=axis)


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
logcosh = log_cosh
huber_loss = huber
cosine = cosine_proximity = cosine_similarity
bce = BCE = binary_crossentropy


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
                losses, _, weights = squeeze_or_expand_dimensions(losses, None, weights)
                reduction = Reduction.SUM_OVER_BATCH_SIZE if self.reduction == Reduction.AUTO else self.reduction
                return reduce_weighted_loss(math_ops.multiply(losses, weights), reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss whose ``call`` is ``fn(y_true, y_pred, **kwargs)``."""

    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if not isinstance(y_true, np.ndarray | list | tuple | float | int):
            y_pred, y_true = squeeze_or_expand_dimensions(convert_to_tensor(y_pred), convert_to_tensor(y_true))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), "fn": self.fn.__name__, **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        fn_name = config.pop("fn", None)
        if cls is LossFunctionWrapper:
            return cls(get(fn_name), **config)
        return cls(**config)


def _loss_class(class_name, fn, default_name, doc, **defaults):
    def __init__(self, reduction=Reduction.AUTO, name=default_name, **kwargs):  # noqa: N807
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **{**defaults, **kwargs})

    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc})


def _mean_of(fn):
    return f"The mean over the batch of :func:`{fn.__name__}`."


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error, "mean_squared_error",
                               _mean_of(mean_squared_error))
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                                _mean_of(mean_absolute_error))
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error", _mean_of(mean_absolute_percentage_error))
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error", _mean_of(mean_squared_logarithmic_error))
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy, "categorical_crossentropy",
                                      _mean_of(categorical_crossentropy))
SparseCategoricalCrossentropy = _loss_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                            "sparse_categorical_crossentropy",
                                            _mean_of(sparse_categorical_crossentropy))
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                                 _mean_of(binary_crossentropy))
Hinge = _loss_class("Hinge", hinge, "hinge", _mean_of(hinge))
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge", _mean_of(squared_hinge))
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge", _mean_of(categorical_hinge))
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence", _mean_of(kl_divergence))
Huber = _loss_class("Huber", huber, "huber_loss", _mean_of(huber), delta=1.0)
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh", _mean_of(log_cosh))
Poisson = _loss_class("Poisson", poisson, "poisson", _mean_of(poisson))
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity", _mean_of(cosine_similarity),
                               axis=-1)
BinaryFocalCrossentropy = _loss_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    _mean_of(binary_focal_crossentropy), apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
    label_smoothing=0.0, axis=-1)
CategoricalFocalCrossentropy = _loss_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy, "categorical_focal_crossentropy",
    _mean_of(categorical_focal_crossentropy), alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)

_FUNCTIONS = (mean_squared_error, mean_absolute_error, mean_absolute_percentage_error, mean_squared_logarithmic_error,
              categorical_crossentropy, sparse_categorical_crossentropy, binary_crossentropy, hinge, squared_hinge,
              categorical_hinge, kl_divergence, huber, log_cosh, poisson, cosine_similarity,
              binary_focal_crossentropy, categorical_focal_crossentropy)
_CLASSES = (MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
            CategoricalCrossentropy, SparseCategoricalCrossentropy, BinaryCrossentropy, Hinge, SquaredHinge,
            CategoricalHinge, KLDivergence, Huber, LogCosh, Poisson, CosineSimilarity, BinaryFocalCrossentropy,
            CategoricalFocalCrossentropy)
_BY_NAME = {
    **{fn.__name__: fn for fn in _FUNCTIONS}, **{cls.__name__: cls for cls in _CLASSES},
    "mse": mse, "MSE": mse, "mae": mae, "MAE": mae, "mape": mape, "MAPE": mape, "msle": msle, "MSLE": msle,
    "kld": kld, "KLD": kld, "kullback_leibler_divergence": kl_divergence, "logcosh": log_cosh,
    "huber_loss": huber, "cosine": cosine_similarity, "cosine_proximity": cosine_similarity, "bce": bce, "BCE": bce,
}


def deserialize(name, custom_objects=None):
    """The loss ``name`` names: a function (``"mse"``), an instance of a class named (``"Huber"``), or the loss a
    config made by :func:`serialize` describes."""
    return serialization.deserialize_keras_object(name, _BY_NAME, "loss function", custom_objects)


def get(identifier):
    """The loss function ``identifier`` names (``"mse"``), a loss class's instance (``"Huber"``, a config), or
    ``identifier`` itself (a callable)."""
    if identifier is None:
        return None
    if callable(identifier):
        return identifier
    if isinstance(identifier, str | dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


def serialize(loss):
    """A Loss as ``{"class_name", "config"}`` (as tf-keras writes it in TensorFlow 1.x mode); a function as its
    name."""
    return serialization.serialize_keras_object(loss)
