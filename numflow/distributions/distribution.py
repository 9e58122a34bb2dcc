"""``tf.distributions.Distribution``: the base class of TensorFlow 1's distributions, its public methods
(``sample``, ``log_prob``, ``cdf``, ``entropy``, ``mean``...) each in the distribution's name scope and then
the method's, as TensorFlow names them; subclasses supply ``_sample_n``, ``_log_prob`` and the rest."""

import contextlib

import numpy as np

from numflow.framework import dtypes
from numflow.framework.collections_api import name_scope
from numflow.framework.graph import Tensor, constant_value
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor


class ReparameterizationType:
    """Whether a distribution's samples are differentiable in its parameters (``FULLY_REPARAMETERIZED``)."""

    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


def _with_fallback(primary, fallback):
    """``primary()``, or ``fallback()`` where the subclass does not implement the first."""
    try:
        return primary()
    except NotImplementedError as original:
        try:
            return fallback()
        except NotImplementedError:
            raise original from None


class Distribution:
    """A batch of probability distributions of one family over events of ``event_shape``.

    >>> import numflow as tf
    >>> d = tf.distributions.Normal(loc=[0.0, 1.0], scale=1.0)
    >>> d.batch_shape.as_list(), d.event_shape.as_list()
    ([2], [])
    >>> d.sample(3, seed=1).shape.as_list()
    [3, 2]
    """

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats, parameters=None,
                 graph_parents=None, name=None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if not isinstance(t, Tensor):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        if not name or name[-1] != "/":  # not a name scope yet
            with name_scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = {k: v for k, v in (parameters or {}).items() if k not in ("self", "__class__")}
        self._graph_parents = graph_parents
        self._name = name

    @classmethod
    def param_shapes(cls, sample_shape, name="DistributionParamShapes"):
        """The shapes of the parameters that give samples of ``sample_shape``, as int32 tensors by name."""
        with name_scope(name, values=[sample_shape]):
            return cls._param_shapes(sample_shape)

    @classmethod
    def param_static_shapes(cls, sample_shape):
        """:meth:`param_shapes` as ``TensorShape``s; ``sample_shape`` must be fully known."""
        if isinstance(sample_shape, TensorShape):
            if not sample_shape.is_fully_defined():
                raise ValueError("TensorShape sample_shape must be fully defined")
            sample_shape = sample_shape.as_list()
        static = {}
        for name, shape in cls.param_shapes(sample_shape).items():
            value = constant_value(shape)
            if value is None:
                raise ValueError("sample_shape must be a fully-defined TensorShape or list/tuple")
            static[name] = TensorShape(value.tolist())
        return static

    @staticmethod
    def _param_shapes(sample_shape):
        raise NotImplementedError("_param_shapes not implemented")

    name = property(lambda self: self._name, doc="The name scope of the distribution's ops.")
    dtype = property(lambda self: self._dtype, doc="The dtype of the distribution's samples.")
    reparameterization_type = property(lambda self: self._reparameterization_type)
    allow_nan_stats = property(lambda self: self._allow_nan_stats)
    validate_args = property(lambda self: self._validate_args)

    @property
    def parameters(self):
        """The arguments the distribution was built with, by name."""
        return dict(self._parameters)

    def copy(self, **override_parameters_kwargs):
        """A new distribution of this type with the same parameters but those given."""
        return type(self)(**dict(self.parameters, **override_parameters_kwargs))

    # -- shapes ----------------------------------------------------------------------------------------------
    def _batch_shape(self):
        return TensorShape(None)

    def _event_shape(self):
        return TensorShape(None)

    @property
    def batch_shape(self):
        """The static shape of the batch of distributions."""
        return as_shape(self._batch_shape())

    @property
    def event_shape(self):
        """The static shape of one event (one sample of one distribution of the batch)."""
        return as_shape(self._event_shape())

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        """The batch shape as an int32 vector."""
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return convert_to_tensor(self.batch_shape.as_list(), dtype=dtypes.int32, name="batch_shape")
            return self._batch_shape_tensor()

    def event_shape_tensor(self, name="event_shape_tensor"):
        """The event shape as an int32 vector."""
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return convert_to_tensor(self.event_shape.as_list(), dtype=dtypes.int32, name="event_shape")
            return self._event_shape_tensor()

    def is_scalar_event(self, name="is_scalar_event"):
        """Whether an event is a scalar: a Python bool where known, else a bool tensor."""
        with self._name_scope(name):
            return convert_to_tensor(self._is_scalar(self.event_shape, self.event_shape_tensor),
                                     name="is_scalar_event")

    def is_scalar_batch(self, name="is_scalar_batch"):
        """Whether the batch is a single distribution."""
        with self._name_scope(name):
            return convert_to_tensor(self._is_scalar(self.batch_shape, self.batch_shape_tensor),
                                     name="is_scalar_batch")

    @staticmethod
    def _is_scalar(static_shape, dynamic_shape_fn):
        if static_shape.ndims is not None:
            return static_shape.ndims == 0
        return math_ops.equal(array_ops.shape(dynamic_shape_fn())[0], 0)

    # -- sampling --------------------------------------------------------------------------------------------
    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Samples of shape ``sample_shape + batch_shape + event_shape``, drawn with op seed ``seed``."""
        with self._name_scope(name, values=[sample_shape]):
            sample_shape = convert_to_tensor(sample_shape, dtype=dtypes.int32, name="sample_shape")
            sample_shape, n = self._expand_sample_shape_to_vector(sample_shape, "sample_shape")
            samples = self._sample_n(n, seed)
            batch_event_shape = array_ops.shape(samples)[1:]
            final_shape = array_ops.concat([sample_shape, batch_event_shape], 0)
            samples = array_ops.reshape(samples, final_shape)
            return self._set_sample_static_shape(samples, sample_shape)

    def _expand_sample_shape_to_vector(self, x, name):
        static = constant_value(x)
        n = math_ops.reduce_prod(x) if static is None else np.prod(static, dtype=np.int32)
        ndims = x.shape.ndims
        if ndims is None:
            expanded = array_ops.where_v2(math_ops.equal(array_ops.rank(x), 0), np.array([1], np.int32),
                                          array_ops.shape(x))
            x = array_ops.reshape(x, expanded)
        elif ndims == 0:
            x = (convert_to_tensor(np.array([static], np.int32), name=name) if static is not None
                 else array_ops.reshape(x, [1]))
        elif ndims != 1:
            raise ValueError("Input is neither scalar nor vector.")
        return x, n

    def _set_sample_static_shape(self, x, sample_shape):
        sample_shape = TensorShape(_as_list_or_none(constant_value(sample_shape)))
        ndims, sample_ndims = x.shape.ndims, sample_shape.ndims
        batch_ndims, event_ndims = self.batch_shape.ndims, self.event_shape.ndims
        if ndims is None and None not in (sample_ndims, batch_ndims, event_ndims):
            ndims = sample_ndims + batch_ndims + event_ndims
            x.set_shape([None] * ndims)
        if ndims is not None and sample_ndims is not None:
            x.set_shape(x.shape.merge_with(sample_shape.concatenate([None] * (ndims - sample_ndims))))
        if ndims is not None and event_ndims is not None:
            x.set_shape(x.shape.merge_with(TensorShape([None] * (ndims - event_ndims)).concatenate(
                self.event_shape)))
        if batch_ndims is not None:
            if ndims is not None:
                if sample_ndims is None and event_ndims is not None:
                    sample_ndims = ndims - batch_ndims - event_ndims
                elif event_ndims is None and sample_ndims is not None:
                    event_ndims = ndims - batch_ndims - sample_ndims
            if sample_ndims is not None and event_ndims is not None:
                x.set_shape(x.shape.merge_with(TensorShape([None] * sample_ndims).concatenate(
                    self.batch_shape).concatenate([None] * event_ndims)))
        return x

    # -- densities -------------------------------------------------------------------------------------------
    def _call_with_value(self, name, value, primary, fallback):
        with self._name_scope(name, values=[value]):
            value = convert_to_tensor(value, name="value", preferred_dtype=self.dtype)
            return _with_fallback(lambda: primary(value), lambda: fallback(value))

    def log_prob(self, value, name="log_prob"):
        """The log of the probability (density or mass) of ``value``."""
        return self._call_with_value(name, value, self._log_prob, lambda v: math_ops.log(self._prob(v)))

    def prob(self, value, name="prob"):
        """The probability (density or mass) of ``value``."""
        return self._call_with_value(name, value, self._prob, lambda v: math_ops.exp(self._log_prob(v)))

    def log_cdf(self, value, name="log_cdf"):
        """The log of the cumulative distribution function at ``value``."""
        return self._call_with_value(name, value, self._log_cdf, lambda v: math_ops.log(self._cdf(v)))

    def cdf(self, value, name="cdf"):
        """The cumulative distribution function ``P[X <= value]``."""
        return self._call_with_value(name, value, self._cdf, lambda v: math_ops.exp(self._log_cdf(v)))

    def log_survival_function(self, value, name="log_survival_function"):
        """``log(1 - cdf(value))``, accurate where the cdf is near 1."""
        return self._call_with_value(name, value, self._log_survival_function,
                                     lambda v: math_ops.log1p(-self.cdf(v)))

    def survival_function(self, value, name="survival_function"):
        """``1 - cdf(value)``."""
        return self._call_with_value(name, value, self._survival_function, lambda v: 1.0 - self.cdf(v))

    def quantile(self, value, name="quantile"):
        """The inverse of the cdf."""
        with self._name_scope(name, values=[value]):
            return self._quantile(convert_to_tensor(value, name="value", preferred_dtype=self.dtype))

    # -- statistics ------------------------------------------------------------------------------------------
    def _statistic(self, name, primary, fallback=None):
        with self._name_scope(name):
            return _with_fallback(primary, fallback) if fallback else primary()

    def entropy(self, name="entropy"):
        """The Shannon entropy of each distribution of the batch, in nats."""
        return self._statistic(name, self._entropy)

    def mean(self, name="mean"):
        """The mean of each distribution of the batch."""
        return self._statistic(name, self._mean)

    def variance(self, name="variance"):
        """The variance of each distribution of the batch."""
        return self._statistic(name, self._variance, lambda: math_ops.square(self._stddev()))

    def stddev(self, name="stddev"):
        """The standard deviation of each distribution of the batch."""
        return self._statistic(name, self._stddev, lambda: math_ops.sqrt(self._variance()))

    def covariance(self, name="covariance"):
        """The covariance matrix of each distribution of the batch (events of rank 1)."""
        return self._statistic(name, self._covariance)

    def mode(self, name="mode"):
        """The mode of each distribution of the batch."""
        return self._statistic(name, self._mode)

    def cross_entropy(self, other, name="cross_entropy"):
        """The cross entropy ``H[self, other]``, in nats."""
        from numflow.distributions import kullback_leibler

        with self._name_scope(name):
            return kullback_leibler.cross_entropy(self, other, allow_nan_stats=self.allow_nan_stats)

    def kl_divergence(self, other, name="kl_divergence"):
        """The Kullback-Leibler divergence ``KL[self || other]``, in nats."""
        from numflow.distributions import kullback_leibler

        with self._name_scope(name):
            return kullback_leibler.kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    def __str__(self):
        batch = f", batch_shape={self.batch_shape}" if self.batch_shape.ndims is not None else ""
        event = f", event_shape={self.event_shape}" if self.event_shape.ndims is not None else ""
        return (f'tfp.distributions.{type(self).__name__}("{self.name[:-1]}"{batch}{event}, '
                f"dtype={self.dtype.name})")

    def __repr__(self):
        return (f"<tfp.distributions.{type(self).__name__} '{self.name[:-1]}' batch_shape={self.batch_shape} "
                f"event_shape={self.event_shape} dtype={self.dtype.name}>")

    @contextlib.contextmanager
    def _name_scope(self, name=None, values=None):
        with name_scope(self.name):
            with name_scope(name, values=list(values or []) + self._graph_parents) as scope:
                yield scope


def _not_implemented(what):
    def method(self, *args):
        raise NotImplementedError(f"{what} is not implemented: {type(self).__name__}")

    return method


for _what in ("batch_shape_tensor", "event_shape_tensor", "sample_n", "log_prob", "prob", "log_cdf", "cdf",
              "log_survival_function", "survival_function", "quantile", "entropy", "mean", "variance", "stddev",
              "covariance", "mode"):
    setattr(Distribution, f"_{_what}", _not_implemented(_what))


def _as_list_or_none(value):
    return None if value is None else np.asarray(value).tolist()
