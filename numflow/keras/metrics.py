"""``tf.keras.metrics`` in TensorFlow 1.x mode: the metric functions (one value per example: the accuracies,
Keras' losses) and the stateful metric classes, as tf-keras computes them.

The classes (``metrics_base``, ``metrics_confusion``, ``metrics_scores`` and the wrappers here) keep their state
in variables and build ops: see ``metrics_base``'s docstring. ``get`` resolves what ``compile(metrics=...)``
is given: a function's name, a class's name (an instance of it), a config, a function or a Metric.
"""

from numflow.keras import backend, losses, serialization
from numflow.keras.metrics_base import Mean, MeanMetricWrapper, MeanTensor, Metric, Reduce, Sum
from numflow.keras.metrics_confusion import (
    AUC,
    FalseNegatives,
    FalsePositives,
    Precision,
    PrecisionAtRecall,
    Recall,
    RecallAtPrecision,
    SensitivityAtSpecificity,
    SpecificityAtSensitivity,
    TrueNegatives,
    TruePositives,
)
from numflow.keras.metrics_scores import BinaryIoU, F1Score, FBetaScore, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU, R2Score
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor

__all__ = ["AUC", "BinaryIoU", "F1Score", "FBetaScore", "FalseNegatives", "FalsePositives", "IoU", "Mean",
           "MeanIoU", "MeanMetricWrapper", "MeanTensor", "Metric", "OneHotIoU", "OneHotMeanIoU", "Precision",
           "PrecisionAtRecall", "R2Score", "Recall", "RecallAtPrecision", "Reduce", "SensitivityAtSpecificity",
           "SpecificityAtSensitivity", "Sum", "TrueNegatives", "TruePositives"]


# -- the functions -----------------------------------------------------------------------------------------
def accuracy(y_true, y_pred):
    """1.0 where ``y_pred`` equals ``y_true`` (cast to its dtype)."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    if y_true.dtype.base_dtype != y_pred.dtype.base_dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype.base_dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())


def binary_matches(y_true, y_pred, threshold=0.5):
    """1.0 where ``y_pred > threshold`` equals ``y_true``."""
    y_pred = convert_to_tensor(y_pred)
    y_pred = math_ops.cast(math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype.base_dtype)),
                           y_pred.dtype.base_dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """The share of ``y_pred > threshold`` equal to ``y_true``, over the last axis."""
    return math_ops.reduce_mean(binary_matches(y_true, y_pred, threshold), axis=-1)


def sparse_categorical_matches(y_true, y_pred):
    """1.0 where the argmax of ``y_pred`` is the integer label ``y_true`` (a last axis of 1 squeezed and put back)."""
    y_pred, y_true = convert_to_tensor(y_pred), convert_to_tensor(y_true)
    reshape_to = None
    if y_true.shape.ndims is not None and y_true.shape.ndims == y_pred.shape.ndims:
        reshape_to = array_ops.shape(y_true)
        y_true = array_ops.squeeze(y_true, [-1])
    y_pred = math_ops.argmax(y_pred, -1)
    if y_pred.dtype.base_dtype != y_true.dtype.base_dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype.base_dtype)
    matches = math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())
    return matches if reshape_to is None else array_ops.reshape(matches, reshape_to)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the argmax of ``y_pred`` is that of one-hot ``y_true``."""
    return sparse_categorical_matches(math_ops.argmax(y_true, -1), y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the argmax of ``y_pred`` is the integer label ``y_true``."""
    matches = sparse_categorical_matches(y_true, y_pred)
    if matches.shape.ndims is not None and matches.shape.ndims > 1 and matches.shape.dim_values[-1] == 1:
        matches = array_ops.squeeze(matches, [-1])
    return matches


def sparse_top_k_categorical_matches(y_true, y_pred, k=5):
    """1.0 where the integer label ``y_true`` is among the ``k`` largest of ``y_pred`` (``tf.math.in_top_k``)."""
    from numflow.ops.top_k_ops import in_top_k

    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    reshape_to = None
    if y_true.shape.ndims is not None and y_pred.shape.ndims is not None:
        if y_pred.shape.ndims > 2:
            y_pred = array_ops.reshape(y_pred, [-1, y_pred.shape.dim_values[-1]])
        if y_true.shape.ndims > 1:
            reshape_to = array_ops.shape(y_true)
            y_true = array_ops.reshape(y_true, [-1])
    matches = math_ops.cast(in_top_k(y_pred, math_ops.cast(y_true, "int32"), k), backend.floatx())
    return matches if reshape_to is None else array_ops.reshape(matches, reshape_to)


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the class of one-hot ``y_true`` is among the ``k`` largest of ``y_pred``."""
    return sparse_top_k_categorical_matches(math_ops.argmax(y_true, -1), y_pred, k)


sparse_top_k_categorical_accuracy = sparse_top_k_categorical_matches


def _cosine_similarity(y_true, y_pred, axis=-1):
    """``sum(l2_normalize(y_true) * l2_normalize(y_pred))`` over ``axis``: 1 for the same direction."""
    return -losses.cosine_similarity(y_true, y_pred, axis=axis)


mse = MSE = mean_squared_error = losses.mean_squared_error
mae = MAE = mean_absolute_error = losses.mean_absolute_error
mape = MAPE = mean_absolute_percentage_error = losses.mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error = losses.mean_squared_logarithmic_error
kld = KLD = kl_divergence = kullback_leibler_divergence = losses.kl_divergence
categorical_crossentropy = losses.categorical_crossentropy
sparse_categorical_crossentropy = losses.sparse_categorical_crossentropy
binary_crossentropy = losses.binary_crossentropy
binary_focal_crossentropy = losses.binary_focal_crossentropy
categorical_focal_crossentropy = losses.categorical_focal_crossentropy
hinge, squared_hinge, categorical_hinge = losses.hinge, losses.squared_hinge, losses.categorical_hinge
poisson, log_cosh, logcosh = losses.poisson, losses.log_cosh, losses.log_cosh
cosine = cosine_proximity = losses.cosine_similarity  # tf-keras' aliases: the loss, negative


# -- the mean of a function ------------------------------------------------------------------------------
def _mean_class(class_name, fn, default_name, **defaults):
    def __init__(self, name=default_name, dtype=None, **kwargs):  # noqa: N807
        MeanMetricWrapper.__init__(self, fn, name, dtype=dtype, **{**defaults, **kwargs})

    doc = f"The running mean of :func:`{fn.__name__}`."
    return type(class_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


def _top_k(y_true, y_pred, k):
    return sparse_top_k_categorical_matches(math_ops.argmax(y_true, -1), y_pred, k)


Accuracy = _mean_class("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _mean_class("BinaryAccuracy", binary_matches, "binary_accuracy", threshold=0.5)
CategoricalAccuracy = _mean_class("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy")
SparseCategoricalAccuracy = _mean_class("SparseCategoricalAccuracy", sparse_categorical_matches,
                                        "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _mean_class("TopKCategoricalAccuracy", _top_k, "top_k_categorical_accuracy", k=5)
SparseTopKCategoricalAccuracy = _mean_class("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_matches,
                                            "sparse_top_k_categorical_accuracy", k=5)
MeanSquaredError = _mean_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _mean_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _mean_class("MeanAbsolutePercentageError", mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _mean_class("MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error")
CosineSimilarity = _mean_class("CosineSimilarity", _cosine_similarity, "cosine_similarity", axis=-1)
LogCoshError = _mean_class("LogCoshError", log_cosh, "logcosh")
Hinge = _mean_class("Hinge", hinge, "hinge")
SquaredHinge = _mean_class("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _mean_class("CategoricalHinge", categorical_hinge, "categorical_hinge")
Poisson = _mean_class("Poisson", poisson, "poisson")
KLDivergence = _mean_class("KLDivergence", kl_divergence, "kullback_leibler_divergence")
BinaryCrossentropy = _mean_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy", from_logits=False,
                                 label_smoothing=0)
CategoricalCrossentropy = _mean_class("CategoricalCrossentropy", categorical_crossentropy,
                                      "categorical_crossentropy", from_logits=False, label_smoothing=0, axis=-1)
SparseCategoricalCrossentropy = _mean_class("SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
                                            "sparse_categorical_crossentropy", from_logits=False, axis=-1)


class RootMeanSquaredError(Mean):
    """``sqrt(mean((y_pred - y_true) ** 2))`` over all the values given."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = math_ops.cast(y_true, self._dtype), math_ops.cast(y_pred, self._dtype)
        y_pred, y_true = losses.squeeze_or_expand_dimensions(y_pred, y_true)
        return super().update_state(math_ops.squared_difference(y_pred, y_true), sample_weight=sample_weight)

    def result(self):
        return math_ops.sqrt(math_ops.div_no_nan(self.total.value(), self.count.value()))


class MeanRelativeError(Mean):
    """The mean of ``|y_true - y_pred| / normalizer`` (0 where the normalizer is)."""

    def __init__(self, normalizer, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.normalizer = math_ops.cast(normalizer, self._dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        from numflow.ops.loss_ops import remove_squeezable_dimensions

        y_true, y_pred = math_ops.cast(y_true, self._dtype), math_ops.cast(y_pred, self._dtype)
        y_pred, y_true = losses.squeeze_or_expand_dimensions(y_pred, y_true)
        y_pred, self.normalizer = remove_squeezable_dimensions(y_pred, self.normalizer)
        y_pred.shape.assert_is_compatible_with(y_true.shape)
        relative_errors = math_ops.div_no_nan(math_ops.abs(y_true - y_pred), self.normalizer)
        return super().update_state(relative_errors, sample_weight=sample_weight)

    def get_config(self):
        return {**super().get_config(), "normalizer": backend.eval(self.normalizer).tolist()}


# -- by name -----------------------------------------------------------------------------------------------
_CLASSES = (Metric, Reduce, Sum, Mean, MeanMetricWrapper, MeanTensor, Accuracy, BinaryAccuracy, CategoricalAccuracy,
            SparseCategoricalAccuracy, TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, MeanSquaredError,
            MeanAbsoluteError, MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity,
            LogCoshError, Hinge, SquaredHinge, CategoricalHinge, Poisson, KLDivergence, BinaryCrossentropy,
            CategoricalCrossentropy, SparseCategoricalCrossentropy, RootMeanSquaredError, MeanRelativeError,
            TruePositives, TrueNegatives, FalsePositives, FalseNegatives, Precision, Recall, AUC,
            SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision, IoU, BinaryIoU,
            MeanIoU, OneHotIoU, OneHotMeanIoU, FBetaScore, F1Score, R2Score)
_FUNCTIONS = (accuracy, binary_accuracy, categorical_accuracy, sparse_categorical_accuracy, top_k_categorical_accuracy,
              sparse_top_k_categorical_accuracy, mean_squared_error, mean_absolute_error,
              mean_absolute_percentage_error, mean_squared_logarithmic_error, kl_divergence, categorical_crossentropy,
              sparse_categorical_crossentropy, binary_crossentropy, binary_focal_crossentropy,
              categorical_focal_crossentropy, hinge, squared_hinge, categorical_hinge, poisson, log_cosh)
_BY_NAME = {
    **{cls.__name__: cls for cls in _CLASSES}, **{fn.__name__: fn for fn in _FUNCTIONS},
    "mse": mse, "MSE": mse, "mae": mae, "MAE": mae, "mape": mape, "MAPE": mape, "msle": msle, "MSLE": msle,
    "kld": kld, "KLD": kld, "kullback_leibler_divergence": kl_divergence, "logcosh": log_cosh, "cosine": cosine,
    "cosine_proximity": cosine,
}


def serialize(metric):
    """A Metric as ``{"class_name", "config"}``; a function by its name."""
    return serialization.serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """The metric ``config`` describes: a function's name, a class's name (an instance), or a config."""
    return serialization.deserialize_keras_object(config, _BY_NAME, "metric function", custom_objects)


def get(identifier):
    """The metric ``identifier`` names or describes (see :func:`deserialize`), or ``identifier`` itself (a
    callable)."""
    if isinstance(identifier, dict | str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
