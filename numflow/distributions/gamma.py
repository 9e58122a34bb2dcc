"""The gamma family: ``Gamma``, ``Exponential``, ``Beta`` and ``Dirichlet``, sampled through ``random_gamma``
as TensorFlow 1 samples them, so that the same seeds give the same samples (a Beta's second gamma draw takes
the seed ``gen_new_seed(seed, "beta")``)."""

import numpy as np

from numflow.distributions import distribution, util
from numflow.distributions.kullback_leibler import RegisterKL
from numflow.distributions.location_scale import _identities, _sample_shapes, _Scalar
from numflow.framework import dtypes
from numflow.framework.collections_api import name_scope
from numflow.ops import array_ops, check_ops, linalg_ops, math_ops, random_ops, sampling_ops, selection_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.special_math_ops import betainc, igamma, lbeta, xlogy
from numflow.ops.transcendental_ops import digamma, lgamma


def _nan_where_undefined(d, mode, is_defined, messages, shape=None):
    """``mode`` where ``is_defined``, NaN elsewhere; with ``allow_nan_stats=False``, assertions instead."""
    if d.allow_nan_stats:
        shape = d.batch_shape_tensor() if shape is None else shape
        nan = array_ops.fill(shape, np.array(np.nan, dtype=d.dtype.as_numpy_dtype), name="nan")
        return selection_ops.where_v2(is_defined, mode, nan)
    return with_dependencies([check_ops.assert_less(array_ops.ones([], d.dtype), c, message=m)
                              for c, m in messages], mode)


def _with_positive_check(validate_args, concentration, extra=()):
    if not validate_args:
        return concentration
    checks = [check_ops.assert_positive(concentration, message="Concentration parameter must be positive."),
              *extra]
    return with_dependencies(checks, concentration)


class Gamma(_Scalar):
    """Gamma distributions of shape ``concentration`` and inverse scale ``rate``."""

    def __init__(self, concentration, rate, validate_args=False, allow_nan_stats=True, name="Gamma"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration, rate]) as name:
            self._concentration, self._rate = _identities(
                [("concentration", concentration), ("rate", rate)],
                util.positive_checked(validate_args, concentration, rate))
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._concentration, self._rate], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("concentration", "rate"))

    concentration = property(lambda self: self._concentration, doc="The shape parameter.")
    rate = property(lambda self: self._rate, doc="The inverse scale.")

    def _params(self):
        return [self.concentration, self.rate]

    def _sample_n(self, n, seed=None):
        return sampling_ops.random_gamma(shape=[n], alpha=self.concentration, beta=self.rate, dtype=self.dtype,
                                         seed=seed)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _cdf(self, x):
        x = self._checked_sample(x)
        return igamma(self.concentration, self.rate * x)

    def _log_unnormalized_prob(self, x):
        x = self._checked_sample(x)
        return xlogy(self.concentration - 1.0, x) - self.rate * x

    def _log_normalization(self):
        return lgamma(self.concentration) - self.concentration * math_ops.log(self.rate)

    def _entropy(self):
        return (self.concentration - math_ops.log(self.rate) + lgamma(self.concentration)
                + (1.0 - self.concentration) * digamma(self.concentration))

    def _mean(self):
        return self.concentration / self.rate

    def _variance(self):
        return self.concentration / math_ops.square(self.rate)

    def _stddev(self):
        return math_ops.sqrt(self.concentration) / self.rate

    def _mode(self):
        mode = (self.concentration - 1.0) / self.rate
        return _nan_where_undefined(self, mode, self.concentration > 1.0,
                                    [(self.concentration, "mode not defined when any concentration <= 1")])

    def _checked_sample(self, x):
        check_ops.assert_same_float_dtype(tensors=[x], dtype=self.dtype)
        return with_dependencies([check_ops.assert_positive(x)], x) if self.validate_args else x


@RegisterKL(Gamma, Gamma)
def _kl_gamma_gamma(g0, g1, name=None):
    with name_scope(name, "kl_gamma_gamma", values=[g0.concentration, g0.rate, g1.concentration, g1.rate]):
        return ((g0.concentration - g1.concentration) * digamma(g0.concentration)
                + lgamma(g1.concentration) - lgamma(g0.concentration)
                + g1.concentration * math_ops.log(g0.rate) - g1.concentration * math_ops.log(g1.rate)
                + g0.concentration * (g1.rate / g0.rate - 1.0))


class Exponential(Gamma):
    """Exponential distributions of rate ``rate``: gammas of concentration 1."""

    def __init__(self, rate, validate_args=False, allow_nan_stats=True, name="Exponential"):
        parameters = dict(locals())
        with name_scope(name, values=[rate]) as name:
            self._rate = convert_to_tensor(rate, name="rate")
        super().__init__(concentration=array_ops.ones([], dtype=self._rate.dtype), rate=self._rate,
                         allow_nan_stats=allow_nan_stats, validate_args=validate_args, name=name)
        self._parameters = {k: v for k, v in parameters.items() if k not in ("self", "__class__")}
        self._graph_parents += [self._rate]

    @staticmethod
    def _param_shapes(sample_shape):
        return {"rate": convert_to_tensor(sample_shape, dtype=dtypes.int32)}

    def _log_survival_function(self, value):
        return self._log_prob(value) - math_ops.log(self._rate)

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], array_ops.shape(self._rate)], 0)
        sampled = random_ops.random_uniform(shape, minval=np.finfo(self.dtype.as_numpy_dtype).tiny, maxval=1.0,
                                            seed=seed, dtype=self.dtype)
        return -math_ops.log(sampled) / self._rate


class Beta(_Scalar):
    """Beta distributions on ``(0, 1)`` of concentrations ``concentration1`` (of 1) and ``concentration0``."""

    def __init__(self, concentration1=None, concentration0=None, validate_args=False, allow_nan_stats=True,
                 name="Beta"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration1, concentration0]) as name:
            self._concentration1 = _with_positive_check(
                validate_args, convert_to_tensor(concentration1, name="concentration1"))
            self._concentration0 = _with_positive_check(
                validate_args, convert_to_tensor(concentration0, name="concentration0"))
            check_ops.assert_same_float_dtype([self._concentration1, self._concentration0])
            self._total_concentration = self._concentration1 + self._concentration0
        super().__init__(dtype=self._total_concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._concentration1, self._concentration0,
                                                               self._total_concentration], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("concentration1", "concentration0"))

    concentration1 = property(lambda self: self._concentration1, doc="The concentration of 1s.")
    concentration0 = property(lambda self: self._concentration0, doc="The concentration of 0s.")
    total_concentration = property(lambda self: self._total_concentration, doc="Their sum.")

    def _params(self):
        return [self.total_concentration]

    def _sample_n(self, n, seed=None):
        ones = array_ops.ones_like(self.total_concentration, dtype=self.dtype)
        expanded_concentration1 = ones * self.concentration1
        expanded_concentration0 = array_ops.ones_like(self.total_concentration, dtype=self.dtype) * self.concentration0
        gamma1_sample = sampling_ops.random_gamma(shape=[n], alpha=expanded_concentration1, dtype=self.dtype,
                                                  seed=seed)
        gamma2_sample = sampling_ops.random_gamma(shape=[n], alpha=expanded_concentration0, dtype=self.dtype,
                                                  seed=util.gen_new_seed(seed, "beta"))
        return gamma1_sample / (gamma1_sample + gamma2_sample)

    def _log_prob(self, x):
        return self._log_unnormalized_prob(x) - self._log_normalization()

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return math_ops.log(self._cdf(x))

    def _cdf(self, x):
        return betainc(self.concentration1, self.concentration0, x)

    def _log_unnormalized_prob(self, x):
        if self.validate_args:
            x = with_dependencies([check_ops.assert_positive(x, message="sample must be positive"),
                                   check_ops.assert_less(x, array_ops.ones([], self.dtype),
                                                         message="sample must be less than `1`.")], x)
        return xlogy(self.concentration1 - 1.0, x) + (self.concentration0 - 1.0) * math_ops.log1p(-x)

    def _log_normalization(self):
        return (lgamma(self.concentration1) + lgamma(self.concentration0)
                - lgamma(self.total_concentration))

    def _entropy(self):
        return (self._log_normalization() - (self.concentration1 - 1.0) * digamma(self.concentration1)
                - (self.concentration0 - 1.0) * digamma(self.concentration0)
                + (self.total_concentration - 2.0) * digamma(self.total_concentration))

    def _mean(self):
        return self._concentration1 / self._total_concentration

    def _variance(self):
        return self._mean() * (1.0 - self._mean()) / (1.0 + self.total_concentration)

    def _mode(self):
        mode = (self.concentration1 - 1.0) / (self.total_concentration - 2.0)
        is_defined = math_ops.logical_and(self.concentration1 > 1.0, self.concentration0 > 1.0)
        return _nan_where_undefined(self, mode, is_defined, [
            (self.concentration1, "Mode undefined for concentration1 <= 1."),
            (self.concentration0, "Mode undefined for concentration0 <= 1.")])


@RegisterKL(Beta, Beta)
def _kl_beta_beta(d1, d2, name=None):
    with name_scope(name, "kl_beta_beta", values=[d1.concentration1, d1.concentration0, d1.total_concentration,
                                                  d2.concentration1, d2.concentration0, d2.total_concentration]):
        return (d2._log_normalization() - d1._log_normalization()
                - digamma(d1.concentration1) * (d2.concentration1 - d1.concentration1)
                - digamma(d1.concentration0) * (d2.concentration0 - d1.concentration0)
                + digamma(d1.total_concentration) * (d2.total_concentration - d1.total_concentration))


class OverConcentrations(distribution.Distribution):
    """A distribution of events over the classes of the last dimension of ``concentration``: its
    batch shape is that of the concentrations' sum, its event shape their last dimension."""

    concentration = property(lambda self: self._concentration, doc="The concentration of each class.")
    total_concentration = property(lambda self: self._total_concentration, doc="Their sum.")

    def _batch_shape_tensor(self):
        return array_ops.shape(self.total_concentration)

    def _batch_shape(self):
        return self.total_concentration.shape

    def _event_shape_tensor(self):
        return array_ops.shape(self.concentration)[-1:]

    def _event_shape(self):
        return self.concentration.shape.with_rank_at_least(1)[-1:]


class Dirichlet(OverConcentrations):
    """Dirichlet distributions over the simplex of the last dimension of ``concentration``."""

    def __init__(self, concentration, validate_args=False, allow_nan_stats=True, name="Dirichlet"):
        parameters = dict(locals())
        with name_scope(name, values=[concentration]) as name:
            concentration = convert_to_tensor(concentration, name="concentration")
            self._concentration = _with_positive_check(validate_args, concentration, (
                check_ops.assert_rank_at_least(concentration, 1,
                                               message="Concentration parameter must have >=1 dimensions."),
                check_ops.assert_less(1, array_ops.shape(concentration)[-1],
                                      message="Concentration parameter must have event_size >= 2.")))
            self._total_concentration = math_ops.reduce_sum(self._concentration, -1)
        super().__init__(dtype=self._concentration.dtype, validate_args=validate_args,
                         allow_nan_stats=allow_nan_stats, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         parameters=parameters, graph_parents=[self._concentration, self._total_concentration],
                         name=name)


    def _sample_n(self, n, seed=None):
        gamma_sample = sampling_ops.random_gamma(shape=[n], alpha=self.concentration, dtype=self.dtype, seed=seed)
        return gamma_sample / math_ops.reduce_sum(gamma_sample, -1, keepdims=True)

    def _log_prob(self, x):
        if self.validate_args:
            x = with_dependencies([check_ops.assert_positive(x, message="samples must be positive"),
                                   check_ops.assert_near(array_ops.ones([], dtype=self.dtype),
                                                         math_ops.reduce_sum(x, -1),
                                                         message="sample last-dimension must sum to `1`")], x)
        log_unnormalized = math_ops.reduce_sum(xlogy(self.concentration - 1.0, x), -1)
        return log_unnormalized - lbeta(self.concentration)

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _entropy(self):
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        return (lbeta(self.concentration)
                + (self.total_concentration - k) * digamma(self.total_concentration)
                - math_ops.reduce_sum((self.concentration - 1.0) * digamma(self.concentration), axis=-1))

    def _mean(self):
        return self.concentration / self.total_concentration[..., np.newaxis]

    def _covariance(self):
        x = self._variance_scale_term() * self._mean()
        return linalg_ops.matrix_set_diag(-math_ops.matmul(x[..., np.newaxis], x[..., np.newaxis, :]),
                                          self._variance())

    def _variance(self):
        scale = self._variance_scale_term()
        x = scale * self._mean()
        return x * (scale - x)

    def _variance_scale_term(self):
        return math_ops.rsqrt(1.0 + self.total_concentration[..., np.newaxis])

    def _mode(self):
        # TensorFlow broadcasts its batch-shaped condition against the event axis (and fails for a batch of
        # more than one); the condition here keeps that axis.
        k = math_ops.cast(self.event_shape_tensor()[0], self.dtype)
        mode = (self.concentration - 1.0) / (self.total_concentration[..., np.newaxis] - k)
        is_defined = math_ops.reduce_all(self.concentration > 1.0, axis=-1, keepdims=True)
        return _nan_where_undefined(self, mode, is_defined, [
            (self.concentration, "Mode undefined when any concentration <= 1")], shape=array_ops.shape(mode))


@RegisterKL(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(d1, d2, name=None):
    with name_scope(name, "kl_dirichlet_dirichlet", values=[d1.concentration, d2.concentration]):
        digamma_sum_d1 = digamma(math_ops.reduce_sum(d1.concentration, axis=-1, keepdims=True))
        digamma_diff = digamma(d1.concentration) - digamma_sum_d1
        concentration_diff = d1.concentration - d2.concentration
        return (math_ops.reduce_sum(concentration_diff * digamma_diff, axis=-1) - lbeta(d1.concentration)
                + lbeta(d2.concentration))
