"""The continuous distributions of one location and one scale: ``Normal``, ``Laplace``, ``StudentT`` and
``Uniform``, written as TensorFlow 1 writes them, so that the same seeds give the same samples."""

import math

import numpy as np

from numflow.distributions import distribution, util
from numflow.distributions.kullback_leibler import RegisterKL
from numflow.framework import dtypes
from numflow.framework.collections_api import control_dependencies, name_scope
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, check_ops, math_ops, random_ops, sampling_ops, selection_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.elementwise_ops import is_nan
from numflow.ops.math_composites import broadcast_dynamic_shape, broadcast_static_shape
from numflow.ops.special_math_ops import betainc, lbeta, ndtri
from numflow.ops.transcendental_ops import digamma, lgamma


def _identities(names_values, check):
    """Each parameter through an identity named after it, after ``check``'s assertions."""
    with control_dependencies(check):
        tensors = [array_ops.identity(value, name=name) for name, value in names_values]
    check_ops.assert_same_float_dtype(tensors)
    return tensors


def _sample_shapes(sample_shape, names):
    return dict.fromkeys(names, convert_to_tensor(sample_shape, dtype=dtypes.int32))


class _Scalar(distribution.Distribution):
    """A distribution of scalar events whose batch shape broadcasts its parameters ``_params()``."""

    def _batch_shape_tensor(self):
        shapes = [array_ops.shape(p) for p in self._params()]
        result = shapes[-1]
        for shape in reversed(shapes[:-1]):
            result = broadcast_dynamic_shape(shape, result)
        return result

    def _batch_shape(self):
        result = self._params()[0].shape
        for p in self._params()[1:]:
            result = broadcast_static_shape(result, p.shape)
        return result

    def _event_shape_tensor(self):
        return constant([], dtype=dtypes.int32)

    def _event_shape(self):
        return TensorShape([])


class Normal(_Scalar):
    """The normal (Gaussian) distribution of mean ``loc`` and standard deviation ``scale``.

    >>> import numflow as tf
    >>> d = tf.distributions.Normal(loc=0.0, scale=2.0)
    >>> round(float(tf.Session().run(d.log_prob(0.0))), 4)
    -1.6121
    """

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Normal"):
        parameters = dict(locals())
        with name_scope(name, values=[loc, scale]) as name:
            self._loc, self._scale = _identities([("loc", loc), ("scale", scale)],
                                                 util.positive_checked(validate_args, scale))
        super().__init__(dtype=self._scale.dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._loc, self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("loc", "scale"))

    loc = property(lambda self: self._loc, doc="The distribution's mean.")
    scale = property(lambda self: self._scale, doc="The distribution's standard deviation.")

    def _params(self):
        return [self.loc, self.scale]

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        sampled = random_ops.random_normal(shape=shape, mean=0.0, stddev=1.0, dtype=self.loc.dtype, seed=seed)
        return sampled * self.scale + self.loc

    def _log_prob(self, x):
        return -0.5 * math_ops.square(self._z(x)) - self._log_normalization()

    def _log_cdf(self, x):
        return util.log_ndtr(self._z(x))

    def _cdf(self, x):
        return util.ndtr(self._z(x))

    def _log_survival_function(self, x):
        return util.log_ndtr(-self._z(x))

    def _survival_function(self, x):
        return util.ndtr(-self._z(x))

    def _log_normalization(self):
        return 0.5 * math.log(2.0 * math.pi) + math_ops.log(self.scale)

    def _entropy(self):
        scale = self.scale * array_ops.ones_like(self.loc)
        return 0.5 * math.log(2.0 * math.pi * math.e) + math_ops.log(scale)

    def _mean(self):
        return self.loc * array_ops.ones_like(self.scale)

    def _quantile(self, p):
        with name_scope("reconstruct", values=[p]):
            return ndtri(p) * self.scale + self.loc

    def _stddev(self):
        return self.scale * array_ops.ones_like(self.loc)

    _mode = _mean

    def _z(self, x):
        with name_scope("standardize", values=[x]):
            return (x - self.loc) / self.scale


@RegisterKL(Normal, Normal)
def _kl_normal_normal(n_a, n_b, name=None):
    with name_scope(name, "kl_normal_normal", [n_a.loc, n_b.loc]):
        one = constant(1, dtype=n_a.dtype)
        two = constant(2, dtype=n_a.dtype)
        half = constant(0.5, dtype=n_a.dtype)
        s_a_squared = math_ops.square(n_a.scale)
        s_b_squared = math_ops.square(n_b.scale)
        ratio = s_a_squared / s_b_squared
        return (math_ops.squared_difference(n_a.loc, n_b.loc) / (two * s_b_squared)
                + half * (ratio - one - math_ops.log(ratio)))


class Laplace(_Scalar):
    """The Laplace (double exponential) distribution of location ``loc`` and scale ``scale``."""

    def __init__(self, loc, scale, validate_args=False, allow_nan_stats=True, name="Laplace"):
        parameters = dict(locals())
        with name_scope(name, values=[loc, scale]) as name:
            self._loc, self._scale = _identities([("loc", loc), ("scale", scale)],
                                                 util.positive_checked(validate_args, scale))
            super().__init__(dtype=self._loc.dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                             validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                             graph_parents=[self._loc, self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("loc", "scale"))

    loc = property(lambda self: self._loc, doc="The distribution's location (mean, median and mode).")
    scale = property(lambda self: self._scale, doc="The distribution's scale.")

    def _params(self):
        return [self.loc, self.scale]

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        numpy_dtype = self.dtype.as_numpy_dtype
        uniform_samples = random_ops.random_uniform(shape=shape, minval=np.nextafter(numpy_dtype(-1.0),
                                                    numpy_dtype(0.0)), maxval=1.0, dtype=self.dtype, seed=seed)
        return self.loc - self.scale * math_ops.sign(uniform_samples) * math_ops.log1p(
            -math_ops.abs(uniform_samples))

    def _log_prob(self, x):
        return -math_ops.abs(self._z(x)) - (math.log(2.0) + math_ops.log(self.scale))

    def _prob(self, x):
        return math_ops.exp(self._log_prob(x))

    def _log_cdf(self, x):
        return util.log_cdf_laplace(self._z(x))

    def _log_survival_function(self, x):
        return util.log_cdf_laplace(-self._z(x))

    def _cdf(self, x):
        z = self._z(x)
        return 0.5 + 0.5 * math_ops.sign(z) * (1.0 - math_ops.exp(-math_ops.abs(z)))

    def _entropy(self):
        scale = self.scale + array_ops.zeros_like(self.loc)
        return math.log(2.0) + 1.0 + math_ops.log(scale)

    def _mean(self):
        return self.loc + array_ops.zeros_like(self.scale)

    def _stddev(self):
        return math.sqrt(2.0) * self.scale + array_ops.zeros_like(self.loc)

    _mode = _mean

    def _z(self, x):
        return (x - self.loc) / self.scale


class StudentT(_Scalar):
    """Student's t distribution of ``df`` degrees of freedom, location ``loc`` and scale ``scale``."""

    def __init__(self, df, loc, scale, validate_args=False, allow_nan_stats=True, name="StudentT"):
        parameters = dict(locals())
        with name_scope(name, values=[df, loc, scale]) as name:
            self._df, self._loc, self._scale = _identities([("df", df), ("loc", loc), ("scale", scale)],
                                                           util.positive_checked(validate_args, df))
        super().__init__(dtype=self._scale.dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._df, self._loc, self._scale], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("df", "loc", "scale"))

    df = property(lambda self: self._df, doc="The degrees of freedom.")
    loc = property(lambda self: self._loc, doc="The location (mean where ``df > 1``).")
    scale = property(lambda self: self._scale, doc="The scale.")

    def _params(self):
        return [self.df, self.loc, self.scale]

    def _batch_shape(self):
        return broadcast_static_shape(broadcast_static_shape(self.df.shape, self.loc.shape), self.scale.shape)

    def _ones(self):
        return array_ops.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        normal_sample = random_ops.random_normal(shape, dtype=self.dtype, seed=seed)
        df = self.df * self._ones()
        gamma_sample = sampling_ops.random_gamma([n], 0.5 * df, beta=0.5, dtype=self.dtype,
                                                 seed=util.gen_new_seed(seed, salt="student_t"))
        samples = normal_sample * math_ops.rsqrt(gamma_sample / df)
        return samples * self.scale + self.loc

    def _log_prob(self, x):
        y = (x - self.loc) / self.scale
        log_unnormalized = -0.5 * (self.df + 1.0) * math_ops.log1p(y ** 2.0 / self.df)
        log_normalization = (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df)
                             + 0.5 * np.log(np.pi) + lgamma(0.5 * self.df)
                             - lgamma(0.5 * (self.df + 1.0)))
        return log_unnormalized - log_normalization

    def _cdf(self, x):
        y = (x - self.loc) / math_ops.abs(self.scale)
        x_t = self.df / (y ** 2.0 + self.df)
        neg_cdf = 0.5 * betainc(0.5 * self.df, 0.5, x_t)
        return selection_ops.where_v2(math_ops.less(y, 0.0), neg_cdf, 1.0 - neg_cdf)

    def _entropy(self):
        v = self._ones()[..., np.newaxis]
        u = v * self.df[..., np.newaxis]
        beta_arg = array_ops.concat([u, v], -1) / 2.0
        return (math_ops.log(math_ops.abs(self.scale)) + 0.5 * math_ops.log(self.df) + lbeta(beta_arg)
                + 0.5 * (self.df + 1.0) * (digamma(0.5 * (self.df + 1.0)) - digamma(0.5 * self.df)))

    def _nan_where_df_at_most_one(self, value, what):
        if self.allow_nan_stats:
            nan = np.array(np.nan, dtype=self.dtype.as_numpy_dtype)
            return selection_ops.where_v2(math_ops.greater(self.df, self._ones()), value,
                                          array_ops.fill(self.batch_shape_tensor(), nan, name="nan"))
        return with_dependencies([check_ops.assert_less(array_ops.ones([], dtype=self.dtype), self.df,
                                                        message=f"{what} not defined for components of df <= 1")],
                                 value)

    def _mean(self):
        return self._nan_where_df_at_most_one(self.loc * self._ones(), "mean")

    def _variance(self):
        denom = selection_ops.where_v2(math_ops.greater(self.df, 2.0), self.df - 2.0, array_ops.ones_like(self.df))
        var = self._ones() * math_ops.square(self.scale) * self.df / denom
        inf = np.array(np.inf, dtype=self.dtype.as_numpy_dtype)
        result_where_defined = selection_ops.where_v2(
            self.df > array_ops.fill(self.batch_shape_tensor(), 2.0), var,
            array_ops.fill(self.batch_shape_tensor(), inf, name="inf"))
        return self._nan_where_df_at_most_one(result_where_defined, "variance")

    def _mode(self):
        return array_ops.identity(self.loc)


class Uniform(_Scalar):
    """The continuous uniform distribution on ``[low, high)``."""

    def __init__(self, low=0.0, high=1.0, validate_args=False, allow_nan_stats=True, name="Uniform"):
        parameters = dict(locals())
        with name_scope(name, values=[low, high]) as name:
            check = ([check_ops.assert_less(low, high, message="uniform not defined when low >= high.")]
                     if validate_args else [])
            self._low, self._high = _identities([("low", low), ("high", high)], check)
        super().__init__(dtype=self._low.dtype, reparameterization_type=distribution.FULLY_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats, parameters=parameters,
                         graph_parents=[self._low, self._high], name=name)

    @staticmethod
    def _param_shapes(sample_shape):
        return _sample_shapes(sample_shape, ("low", "high"))

    low = property(lambda self: self._low, doc="The lower bound (included).")
    high = property(lambda self: self._high, doc="The upper bound (excluded).")

    def _params(self):
        return [self.low, self.high]

    def range(self, name="range"):
        """``high - low``."""
        with self._name_scope(name):
            return self.high - self.low

    def _sample_n(self, n, seed=None):
        shape = array_ops.concat([[n], self.batch_shape_tensor()], 0)
        samples = random_ops.random_uniform(shape=shape, dtype=self.dtype, seed=seed)
        return self.low + self.range() * samples

    def _prob(self, x):
        broadcasted_x = x * array_ops.ones(self.batch_shape_tensor(), dtype=x.dtype)
        return selection_ops.where_v2(
            is_nan(broadcasted_x), broadcasted_x,
            selection_ops.where_v2(math_ops.logical_or(broadcasted_x < self.low, broadcasted_x >= self.high),
                                   array_ops.zeros_like(broadcasted_x),
                                   array_ops.ones_like(broadcasted_x) / self.range()))

    def _cdf(self, x):
        broadcast_shape = broadcast_dynamic_shape(array_ops.shape(x), self.batch_shape_tensor())
        zeros = array_ops.zeros(broadcast_shape, dtype=self.dtype)
        ones = array_ops.ones(broadcast_shape, dtype=self.dtype)
        broadcasted_x = x * ones
        result_if_not_big = selection_ops.where_v2(x < self.low, zeros, (broadcasted_x - self.low) / self.range())
        return selection_ops.where_v2(x >= self.high, ones, result_if_not_big)

    def _entropy(self):
        return math_ops.log(self.range())

    def _mean(self):
        return (self.low + self.high) / 2.0

    def _variance(self):
        return math_ops.square(self.range()) / 12.0

    def _stddev(self):
        return self.range() / math.sqrt(12.0)
