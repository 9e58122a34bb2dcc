"""The discrete distributions: ``Bernoulli``, ``Categorical`` and ``Multinomial``, each from logits or from
probabilities, written as TensorFlow 1 writes them, so that the same seeds give the same samples."""

import numpy as np

from numflow.distributions import distribution, util
from numflow.distributions.gamma import OverConcentrations
from numflow.distributions.kullback_leibler import RegisterKL
from numflow.framework import dtypes
from numflow.framework.collections_api import name_scope
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.ops import (
    array_ops,
    linalg_ops,
    math_ops,
    nn_activation_ops,
    nn_impl,
    nn_ops,
    random_ops,
    sampling_ops,
    selection_ops,
    sequence_ops,
)
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.functional_ops import map_fn
from numflow.ops.special_math_ops import lbeta


class Bernoulli(distribution.Distribution):
    """Bernoulli distributions: 1 with probability ``probs`` (or ``sigmoid(logits)``), else 0.

    >>> import numflow as tf
    >>> d = tf.distributions.Bernoulli(probs=0.25)
    >>> round(float(tf.Session().run(d.prob(1))), 2)
    0.25
    """

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Bernoulli"):
        parameters = dict(locals())
        with name_scope(name) as name:
            self._logits, self._probs = util.get_logits_and_probs(logits=logits, probs=probs,
                                                                  validate_args=validate_args, name=name)
        super().__init__(dtype=dtype, reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._logits, self._probs], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return {"logits": convert_to_tensor(sample_shape, dtype=dtypes.int32)}

    logits = property(lambda self: self._logits, doc="The log-odds of a 1.")
    probs = property(lambda self: self._probs, doc="The probability of a 1.")

    def _batch_shape_tensor(self):
        return array_ops.shape(self._logits)

    def _batch_shape(self):
        return self._logits.shape

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _event_shape(self):
        return TensorShape([])

    def _sample_n(self, n, seed=None):
        new_shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        uniform = random_ops.random_uniform(new_shape, seed=seed, dtype=self.probs.dtype)
        return math_ops.cast(math_ops.less(uniform, self.probs), self.dtype)

    def _log_prob(self, event):
        event = math_ops.cast(event, self.logits.dtype)
        logits = self.logits
        if not (event.shape.is_fully_defined() and logits.shape.is_fully_defined() and event.shape == logits.shape):
            logits, event = array_ops.ones_like(event) * logits, array_ops.ones_like(logits) * event
        return -nn_impl.sigmoid_cross_entropy_with_logits(labels=event, logits=logits)

    def _entropy(self):
        return -self.logits * (math_ops.sigmoid(self.logits) - 1) + nn_activation_ops.softplus(-self.logits)

    def _mean(self):
        return array_ops.identity(self.probs)

    def _variance(self):
        return self._mean() * (1.0 - self.probs)

    def _mode(self):
        return math_ops.cast(self.probs > 0.5, self.dtype)


@RegisterKL(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(a, b, name=None):
    with name_scope(name, "kl_bernoulli_bernoulli", values=[a.logits, b.logits]):
        softplus = nn_activation_ops.softplus
        delta_probs0 = softplus(-b.logits) - softplus(-a.logits)
        delta_probs1 = softplus(b.logits) - softplus(a.logits)
        return math_ops.sigmoid(a.logits) * delta_probs0 + math_ops.sigmoid(-a.logits) * delta_probs1


def _broadcast_event_and_params(event, params, base_dtype):
    """``event`` (cast to int32 if a float) and ``params`` broadcast against each other's batch shape."""
    if event.dtype.is_floating:
        event = math_ops.cast(event, dtype=dtypes.int32)
    elif not event.dtype.is_integer:
        raise TypeError(f"`value` should have integer `dtype` or `self.dtype` ({base_dtype})")
    known = params.shape.ndims is not None and params.shape[:-1].is_fully_defined() and event.shape.is_fully_defined()
    if not known or params.shape[:-1] != event.shape:
        params *= array_ops.ones_like(event[..., np.newaxis], dtype=params.dtype)
        params_shape = array_ops.shape(params)[:-1]
        event *= array_ops.ones(params_shape, dtype=event.dtype)
        if params.shape.ndims is not None:
            event.set_shape(TensorShape(params.shape[:-1]))
    return event, params


class Categorical(distribution.Distribution):
    """Categorical distributions over ``0 ... K-1``, from ``logits`` or ``probs`` of last dimension ``K``."""

    def __init__(self, logits=None, probs=None, dtype=dtypes.int32, validate_args=False, allow_nan_stats=True,
                 name="Categorical"):
        parameters = dict(locals())
        with name_scope(name, values=[logits, probs]) as name:
            self._logits, self._probs = util.get_logits_and_probs(logits=logits, probs=probs,
                                                                  validate_args=validate_args, multidimensional=True,
                                                                  name=name)
            static = self._logits.shape.with_rank_at_least(1)
            if static.ndims is not None:
                self._batch_rank = convert_to_tensor(static.ndims - 1, dtype=dtypes.int32, name="batch_rank")
            else:
                with name_scope(name="batch_rank"):
                    self._batch_rank = array_ops.rank(self._logits) - 1
            logits_shape = array_ops.shape(self._logits, name="logits_shape")
            if dimension_value(static[-1]) is not None:
                self._event_size = convert_to_tensor(dimension_value(static[-1]), dtype=dtypes.int32,
                                                     name="event_size")
            else:
                with name_scope(name="event_size"):
                    self._event_size = logits_shape[self._batch_rank]
            if static[:-1].is_fully_defined():
                self._batch_shape_val = constant(static[:-1].as_list(), dtype=dtypes.int32, name="batch_shape")
            else:
                with name_scope(name="batch_shape"):
                    self._batch_shape_val = logits_shape[:-1]
        super().__init__(dtype=dtype, reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._logits, self._probs], name=name)

    event_size = property(lambda self: self._event_size, doc="The number of classes, as an int32 scalar.")
    logits = property(lambda self: self._logits, doc="The unnormalized log-probabilities of the classes.")
    probs = property(lambda self: self._probs, doc="The probabilities of the classes.")

    def _batch_shape_tensor(self):
        return array_ops.identity(self._batch_shape_val)

    def _batch_shape(self):
        return self.logits.shape[:-1]

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _event_shape(self):
        return TensorShape([])

    def _sample_n(self, n, seed=None):
        if self.logits.shape.ndims == 2:
            logits_2d = self.logits
        else:
            logits_2d = array_ops.reshape(self.logits, [-1, self.event_size])
        sample_dtype = dtypes.int64 if self.dtype.size > 4 else dtypes.int32
        draws = sampling_ops.multinomial(logits_2d, n, seed=seed, output_dtype=sample_dtype)
        draws = array_ops.reshape(array_ops.transpose(draws), array_ops.concat([[n], self.batch_shape_tensor()], 0))
        return math_ops.cast(draws, self.dtype)

    def _cdf(self, k):
        k = convert_to_tensor(k, name="k")
        k, probs = _broadcast_event_and_params(k, self.probs, base_dtype=self.dtype.base_dtype)
        batch_flattened_probs = array_ops.reshape(probs, (-1, self._event_size))
        batch_flattened_k = array_ops.reshape(k, [-1])
        to_sum_over = selection_ops.where(sequence_ops.sequence_mask(batch_flattened_k, self._event_size),
                                          batch_flattened_probs, array_ops.zeros_like(batch_flattened_probs))
        batch_flattened_cdf = math_ops.reduce_sum(to_sum_over, axis=-1)
        return array_ops.reshape(batch_flattened_cdf, array_ops.shape(k))

    def _log_prob(self, k):
        k = convert_to_tensor(k, name="k")
        k, logits = _broadcast_event_and_params(k, self.logits, base_dtype=self.dtype.base_dtype)
        return -nn_ops.sparse_softmax_cross_entropy_with_logits(labels=k, logits=logits)

    def _entropy(self):
        return -math_ops.reduce_sum(nn_ops.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self):
        ret = math_ops.cast(math_ops.argmax(self.logits, axis=self._batch_rank), self.dtype)
        ret.set_shape(self.batch_shape)
        return ret


@RegisterKL(Categorical, Categorical)
def _kl_categorical_categorical(a, b, name=None):
    with name_scope(name, "kl_categorical_categorical", values=[a.logits, b.logits]):
        delta_log_probs1 = nn_ops.log_softmax(a.logits) - nn_ops.log_softmax(b.logits)
        return math_ops.reduce_sum(nn_ops.softmax(a.logits) * delta_log_probs1, axis=-1)


class Multinomial(distribution.Distribution):
    """Multinomial distributions: the class counts of ``total_count`` categorical draws."""

    def __init__(self, total_count, logits=None, probs=None, validate_args=False, allow_nan_stats=True,
                 name="Multinomial"):
        parameters = dict(locals())
        with name_scope(name, values=[total_count, logits, probs]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._logits, self._probs = util.get_logits_and_probs(logits=logits, probs=probs, multidimensional=True,
                                                                  validate_args=validate_args, name=name)
            self._mean_val = self._total_count[..., np.newaxis] * self._probs
        super().__init__(dtype=self._probs.dtype, reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._total_count, self._logits, self._probs], name=name)

    total_count = property(lambda self: self._total_count, doc="The number of draws.")
    logits = property(lambda self: self._logits, doc="The unnormalized log-probabilities of the classes.")
    probs = property(lambda self: self._probs, doc="The probabilities of the classes.")

    def _batch_shape_tensor(self):
        return array_ops.shape(self._mean_val)[:-1]

    def _batch_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[:-1]

    def _event_shape_tensor(self):
        return array_ops.shape(self._mean_val)[-1:]

    def _event_shape(self):
        return self._mean_val.shape.with_rank_at_least(1)[-1:]

    def _sample_n(self, n, seed=None):
        n_draws = math_ops.cast(self.total_count, dtype=dtypes.int32)
        k = self.event_shape_tensor()[0]
        n_draws = array_ops.ones_like(self.logits[..., 0], dtype=n_draws.dtype) * n_draws
        logits = array_ops.ones_like(n_draws[..., np.newaxis], dtype=self.logits.dtype) * self.logits
        flat_logits = array_ops.reshape(logits, [-1, k])
        flat_ndraws = n * array_ops.reshape(n_draws, [-1])

        def _sample_single(args):
            logits, n_draw = args[0], args[1]
            x = sampling_ops.multinomial(logits[np.newaxis, ...], n_draw, seed)
            x = array_ops.reshape(x, shape=[n, -1])
            return math_ops.reduce_sum(selection_ops.one_hot(x, depth=k), axis=-2)

        x = map_fn(_sample_single, [flat_logits, flat_ndraws], dtype=self.dtype)
        x = array_ops.transpose(x, perm=[1, 0, 2])
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        return array_ops.reshape(x, final_shape)

    def _log_prob(self, counts):
        log_unnormalized = math_ops.reduce_sum(counts * nn_ops.log_softmax(self.logits), -1)
        log_normalization = -util.log_combinations(self.total_count, counts)
        return log_unnormalized - log_normalization

    def _mean(self):
        return array_ops.identity(self._mean_val)

    def _expanded_probs(self):
        return self.probs * array_ops.ones_like(self.total_count)[..., np.newaxis]

    def _covariance(self):
        p = self._expanded_probs()
        return linalg_ops.matrix_set_diag(
            -math_ops.matmul(self._mean_val[..., np.newaxis], p[..., np.newaxis, :]), self._variance())

    def _variance(self):
        return self._mean_val - self._mean_val * self._expanded_probs()


class DirichletMultinomial(OverConcentrations):
    """Dirichlet-multinomial distributions: the class counts of ``total_count`` draws from a categorical whose
    probabilities are drawn from a Dirichlet of ``concentration``."""

    def __init__(self, total_count, concentration, validate_args=False, allow_nan_stats=True,
                 name="DirichletMultinomial"):
        parameters = dict(locals())
        with name_scope(name, values=[total_count, concentration]) as name:
            self._total_count = convert_to_tensor(total_count, name="total_count")
            self._concentration = convert_to_tensor(concentration, name="concentration")
            self._total_concentration = math_ops.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=distribution.NOT_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._total_count, self._concentration], name=name)

    total_count = property(lambda self: self._total_count, doc="The number of draws.")

    def _sample_n(self, n, seed=None):
        n_draws = math_ops.cast(self.total_count, dtype=dtypes.int32)
        k = self.event_shape_tensor()[0]
        unnormalized_logits = array_ops.reshape(math_ops.log(sampling_ops.random_gamma(
            shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)), shape=[-1, k])
        draws = sampling_ops.multinomial(logits=unnormalized_logits, num_samples=n_draws,
                                         seed=util.gen_new_seed(seed, salt="dirichlet_multinomial"))
        x = math_ops.reduce_sum(selection_ops.one_hot(draws, depth=k), -2)
        final_shape = array_ops.concat([[n], self.batch_shape_tensor(), [k]], 0)
        return math_ops.cast(array_ops.reshape(x, final_shape), self.dtype)

    def _log_prob(self, counts):
        ordered_prob = lbeta(self.concentration + counts) - lbeta(self.concentration)
        return ordered_prob + util.log_combinations(self.total_count, counts)

    def _prob(self, counts):
        return math_ops.exp(self._log_prob(counts))

    def _mean(self):
        return self.total_count * (self.concentration / self.total_concentration[..., np.newaxis])

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return linalg_ops.matrix_set_diag(-math_ops.matmul(x[..., np.newaxis], x[..., np.newaxis, :]),
                                          self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (self.total_count * scale - x)

    def _variance_scale_term(self):
        c0 = self.total_concentration[..., np.newaxis]
        return math_ops.sqrt((1.0 + c0 / self.total_count) / (1.0 + c0))
