"""The stateful metrics of ``tf.keras.metrics`` in TensorFlow 1.x mode: ``Metric`` and the reductions (``Sum``,
``Mean``, ``MeanMetricWrapper``, ``MeanTensor``) the others build on.

A metric keeps its state in variables made, as tf-keras makes them, outside any name scope and in no
collection (``total:0``, ``count:0``, ``true_positives_1:0``...), initialized by the Keras session.
``update_state`` builds the op that adds a batch to them, ``result()`` the tensor of the value (an
``Identity``), ``metric(...)`` both (the value after the update); ``reset_state()`` zeroes the variables in the
Keras session at once.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.keras import backend
from numflow.keras.losses import squeeze_or_expand_dimensions
from numflow.layers.base import to_snake_case, unique_layer_name
from numflow.ops import array_ops, math_ops, state_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.sequence_ops import size
from numflow.variables.variable import Variable


class Metric:
    """The base of the metrics: ``update_state(...)`` (an op), ``result()`` (a tensor), ``reset_state()``.

    Parameters
    ----------
    name : str, optional
        Default: the class name in snake case, made unique in the graph as layers' names are (``auc``,
        ``auc_1``).
    dtype : DType, optional
        The variables' dtype, ``floatx`` by default.
    """

    def __new__(cls, *args, **kwargs):
        made = super().__new__(cls)
        bound_result = made.result

        def result():
            value = bound_result()
            return value if isinstance(value, dict) else array_ops.identity(value)

        made.result = result  # the value read through an Identity, as tf-keras' result wrapper reads it
        return made

    def __init__(self, name=None, dtype=None, **kwargs):
        del kwargs
        self._name = name or unique_layer_name(to_snake_case(type(self).__name__), zero_based=True)
        self._dtype = dtypes.as_dtype(dtype or backend.floatx()).base_dtype
        self._variables = []
        self.stateful = True

    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype.name)

    @property
    def variables(self):
        return list(self._variables)

    weights = non_trainable_weights = variables
    trainable_weights = property(lambda self: [])

    def add_weight(self, name, shape=(), initializer="zeros", dtype=None):
        """A variable of zeros named ``name`` at the graph's root, in no collection, initialized by the Keras
        session."""
        from numflow.ops.custom_gradient_ops import init_scope

        if initializer != "zeros":
            raise NotImplementedError(f"numflow's metrics make zero-initialized weights, not {initializer!r}.")
        dtype = dtypes.as_dtype(dtype or self._dtype).base_dtype
        shape = [int(d) for d in shape]
        with init_scope(), get_default_graph().name_scope(None):
            made = Variable(lambda: array_ops.zeros(shape, dtype=dtype), name=name, trainable=False, collections=[],
                            dtype=dtype)
        backend.track_variable(made)
        self._variables.append(made)
        return made

    def __call__(self, *args, **kwargs):
        """The result after adding this batch (``update_state(*args, **kwargs)``)."""
        update = self.update_state(*args, **kwargs)
        with get_default_graph().control_dependencies([update] if update is not None else []):
            return self.result()

    def update_state(self, *args, **kwargs):
        raise NotImplementedError("Must be implemented in subclasses.")

    def result(self):
        raise NotImplementedError("Must be implemented in subclasses.")

    def reset_values(self):
        """The ``(variable, zeros)`` pairs that reset the metric."""
        return [(v, np.zeros(v.shape.as_list(), v.dtype.base_dtype.as_numpy_dtype)) for v in self.variables]

    def reset_state(self):
        """Zero the variables, in the Keras session, now."""
        backend.batch_set_value(self.reset_values())

    reset_states = reset_state

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


class Reduce(Metric):
    """The ``reduction`` ("sum", "weighted_mean", "sum_over_batch_size") of the values given to ``update_state``:
    their (weighted) sum in ``total``, and for a mean the number of values (or sum of weights) in ``count``."""

    def __init__(self, reduction, name, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.reduction = reduction
        self.total = self.add_weight("total")
        if reduction in ("sum_over_batch_size", "weighted_mean"):
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        graph = get_default_graph()
        values = math_ops.cast(values, self._dtype)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = squeeze_or_expand_dimensions(values, sample_weight=sample_weight)
            sample_weight, values = _broadcast_or_reduce(sample_weight, values, self.reduction)
            values = math_ops.multiply(values, sample_weight)
        value_sum = math_ops.reduce_sum(values)
        with graph.control_dependencies([value_sum]):
            update_total = state_ops.assign_add(self.total, value_sum)
        if self.reduction == "sum":
            return update_total.op
        if self.reduction == "weighted_mean" and sample_weight is not None:
            num_values = math_ops.reduce_sum(sample_weight)
        else:
            num_values = math_ops.cast(size(values), self._dtype)
        with graph.control_dependencies([update_total]):
            return state_ops.assign_add(self.count, num_values).op

    def result(self):
        if self.reduction == "sum":
            return array_ops.identity(self.total.value())
        return math_ops.div_no_nan(self.total.value(), self.count.value())


def _broadcast_or_reduce(sample_weight, values, reduction):
    """``(sample_weight, values)``: the weights broadcast to the values, or where they cannot be, the values
    summed (or averaged) over the dimensions the weights lack, as tf-keras does."""
    from numflow.ops.loss_ops import broadcast_weights

    try:
        return broadcast_weights(sample_weight, values), values
    except ValueError:
        ndim, weight_ndim = values.shape.ndims, sample_weight.shape.ndims
        reduce = math_ops.reduce_sum if reduction == "sum" else math_ops.reduce_mean
        return sample_weight, reduce(values, axis=list(range(weight_ndim, ndim)))


class Sum(Reduce):
    """The (weighted) sum of the values given, in ``total``."""

    def __init__(self, name="sum", dtype=None):
        super().__init__("sum", name, dtype=dtype)


class Mean(Reduce):
    """The (weighted) mean of the values given: ``total / count``, 0 before any."""

    def __init__(self, name="mean", dtype=None):
        super().__init__("weighted_mean", name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """The running mean of ``fn(y_true, y_pred, **kwargs)``, both cast to the metric's dtype and their ranks lined
    up first (``squeeze_or_expand_dimensions``)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true = squeeze_or_expand_dimensions(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}

    @classmethod
    def from_config(cls, config):
        if cls is MeanMetricWrapper:
            raise NotImplementedError("A MeanMetricWrapper of a function is not rebuilt from a config.")
        return cls(**config)


class MeanTensor(Metric):
    """The element-wise (weighted) mean of tensors of one shape, fixed by ``shape`` or the first update."""

    def __init__(self, name="mean_tensor", dtype=None, shape=None):
        super().__init__(name=name, dtype=dtype)
        self._shape, self._total, self._count = None, None, None
        if shape is not None:
            self._build(shape)

    def _build(self, shape):
        from numflow.framework.shapes import TensorShape

        self._shape = TensorShape(shape)
        self._total = self.add_weight("total", shape=self._shape.as_list())
        self._count = self.add_weight("count", shape=self._shape.as_list())

    total = property(lambda self: self._total)
    count = property(lambda self: self._count)

    def update_state(self, values, sample_weight=None):
        values = math_ops.cast(convert_to_tensor(values), self._dtype)
        if self._shape is None:
            self._build(values.shape)
        elif values.shape != self._shape:
            raise ValueError(f"MeanTensor input values must always have the same shape. Expected shape (set during "
                             f"the first call): {self._shape}. Got: {values.shape}.")
        num_values = array_ops.ones_like(values)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = squeeze_or_expand_dimensions(values, sample_weight=sample_weight)
            sample_weight, values = _broadcast_or_reduce(sample_weight, values, "weighted_mean")
            num_values = math_ops.multiply(num_values, sample_weight)
            values = math_ops.multiply(values, sample_weight)
        update_total = state_ops.assign_add(self._total, values)
        with get_default_graph().control_dependencies([update_total]):
            return state_ops.assign_add(self._count, num_values).op

    def result(self):
        if self._shape is None:
            raise ValueError("MeanTensor does not have any value yet. Please call the MeanTensor instance or use "
                             "`.update_state(value)` before retrieving the result.")
        return math_ops.div_no_nan(self._total.value(), self._count.value())
