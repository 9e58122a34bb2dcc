"""``tf.keras.metrics``: the accuracies and the stateful ``Mean`` metrics a compiled model reports (``acc``,
``mean_absolute_error``...): a total and a count, added to at each batch and reset by the model, whose
result is read after the batch's additions."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.keras import backend, losses
from numflow.layers import utils
from numflow.ops import array_ops, math_ops
from numflow.variables.variable import Variable


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """The share of ``y_pred > threshold`` equal to ``y_true``, over the last axis."""
    y_pred = math_ops.cast(math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype)), y_pred.dtype)
    return math_ops.reduce_mean(math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx()), axis=-1)


def categorical_accuracy(y_true, y_pred):
    """1.0 where the argmax of ``y_pred`` is that of one-hot ``y_true``."""
    return math_ops.cast(math_ops.equal(math_ops.argmax(y_true, -1), math_ops.argmax(y_pred, -1)), backend.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the argmax of ``y_pred`` is the integer label ``y_true``."""
    if y_true.shape.ndims is not None and y_true.shape.ndims == y_pred.shape.ndims:
        y_true = array_ops.squeeze(y_true, [-1])
    y_pred = math_ops.argmax(y_pred, -1)
    if y_pred.dtype.base_dtype != y_true.dtype.base_dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype.base_dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())


acc = accuracy = categorical_accuracy
mse = MSE = mean_squared_error = losses.mean_squared_error
mae = MAE = mean_absolute_error = losses.mean_absolute_error
mape = MAPE = mean_absolute_percentage_error = losses.mean_absolute_percentage_error
categorical_crossentropy = losses.categorical_crossentropy
sparse_categorical_crossentropy = losses.sparse_categorical_crossentropy
binary_crossentropy = losses.binary_crossentropy

_BY_NAME = {
    "binary_accuracy": binary_accuracy, "categorical_accuracy": categorical_accuracy,
    "sparse_categorical_accuracy": sparse_categorical_accuracy, "mse": mse, "mean_squared_error": mse, "mae": mae,
    "mean_absolute_error": mae, "mape": mape, "mean_absolute_percentage_error": mape,
    "categorical_crossentropy": categorical_crossentropy, "binary_crossentropy": binary_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
}


def get(identifier):
    """The metric function ``identifier`` names, or ``identifier`` itself (a callable)."""
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    raise utils.unknown_object_error("metric function", identifier)


class MeanMetricWrapper:
    """The running mean of ``fn(y_true, y_pred)``: ``total`` and ``count`` variables (in no collection), added
    to by ``update_state``; ``result()`` after the additions."""

    def __init__(self, fn, name):
        self.fn, self.name = fn, name
        with get_default_graph().name_scope(name):
            self.total = self._zero("total")
            self.count = self._zero("count")

    @staticmethod
    def _zero(name):
        made = Variable(lambda: array_ops.zeros([], dtype=dtypes.float32), name=name, trainable=False,
                        collections=[], dtype=dtypes.float32)
        backend.track_variable(made)
        return made

    def __call__(self, y_true, y_pred):
        """The mean after adding this batch's values."""
        from numflow.ops import state_ops
        from numflow.ops.sequence_ops import size

        graph = get_default_graph()
        with graph.name_scope(self.name):
            values = math_ops.cast(self.fn(y_true, y_pred), dtypes.float32)
            add_total = state_ops.assign_add(self.total, math_ops.reduce_sum(values))
            with graph.control_dependencies([add_total]):
                add_count = state_ops.assign_add(self.count, math_ops.cast(size(values), dtypes.float32))
            with graph.control_dependencies([add_count]):
                return math_ops.div_no_nan(self.total.value(), self.count.value())

    @property
    def variables(self):
        return [self.total, self.count]

    def reset_values(self):
        """The ``(variable, value)`` pairs that reset the metric."""
        return [(self.total, np.float32(0)), (self.count, np.float32(0))]
