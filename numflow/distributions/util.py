"""What the distributions share: logits and probabilities from either, the derived seed of a second random op,
``log_combinations``, and the normal and Laplace cdfs written as TensorFlow's ``special_math`` writes them."""

import hashlib
import math

import numpy as np

from numflow.framework.collections_api import name_scope
from numflow.ops import array_ops, check_ops, math_ops, nn_ops, selection_ops
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.transcendental_ops import erf, erfc, lgamma

LOGNDTR_LOWER = {np.float64: -20.0, np.float32: -10.0}
LOGNDTR_UPPER = {np.float64: 8.0, np.float32: 5.0}


def get_logits_and_probs(logits=None, probs=None, multidimensional=False, validate_args=False,
                         name="get_logits_and_probs", dtype=None):
    """``(logits, probs)`` from exactly one of them: softmax or sigmoid one way, log (or log-odds) the other."""
    with name_scope(name, values=[probs, logits]):
        if (probs is None) == (logits is None):
            raise ValueError("Must pass probs or logits, but not both.")
        if probs is None:
            logits = convert_to_tensor(logits, name="logits", dtype=dtype)
            if not logits.dtype.is_floating:
                raise TypeError("logits must having floating type.")
            if multidimensional:
                return logits, nn_ops.softmax(logits, name="probs")
            return logits, math_ops.sigmoid(logits, name="probs")
        probs = convert_to_tensor(probs, name="probs", dtype=dtype)
        if not probs.dtype.is_floating:
            raise TypeError("probs must having floating type.")
        if validate_args:
            with name_scope("validate_probs"):
                one = constant(1.0, probs.dtype)
                dependencies = [check_ops.assert_non_negative(probs)]
                if multidimensional:
                    dependencies.append(check_ops.assert_near(math_ops.reduce_sum(probs, -1), one,
                                                              message="probs does not sum to 1."))
                else:
                    dependencies.append(check_ops.assert_less_equal(probs, one,
                                                                    message="probs has components greater than 1."))
                probs = with_dependencies(dependencies, probs)
        with name_scope("logits"):
            if multidimensional:
                return math_ops.log(probs), probs
            return math_ops.log(probs) - math_ops.log1p(-1.0 * probs), probs


def gen_new_seed(seed, salt):
    """The op seed of a distribution's second random op: TensorFlow's hash of ``seed`` and ``salt``."""
    if seed is None:
        return None
    return int(hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()[:8], 16) & 0x7FFFFFFF


def positive_checked(validate_args, *tensors):
    """Control dependencies that assert ``tensors`` positive when ``validate_args`` (else none)."""
    return [check_ops.assert_positive(t) for t in tensors] if validate_args else []


def log_combinations(n, counts, name="log_combinations"):
    """The log of the multinomial coefficient ``n! / prod(counts!)`` over the last axis of ``counts``."""
    with name_scope(name, values=[n, counts]):
        n = convert_to_tensor(n, name="n")
        counts = convert_to_tensor(counts, name="counts")
        total_permutations = lgamma(n + 1)
        redundant_permutations = math_ops.reduce_sum(lgamma(counts + 1), axis=[-1])
        return total_permutations - redundant_permutations


def _ndtr(x):
    half_sqrt_2 = constant(0.5 * np.sqrt(2.0), dtype=x.dtype, name="half_sqrt_2")
    w = x * half_sqrt_2
    z = math_ops.abs(w)
    y = selection_ops.where_v2(math_ops.less(z, half_sqrt_2), 1.0 + erf(w),
                               selection_ops.where_v2(math_ops.greater(w, 0.0), 2.0 - erfc(z),
                                                      erfc(z)))
    return 0.5 * y


def ndtr(x, name="ndtr"):
    """The standard normal cdf, through ``erf`` near 0 and ``erfc`` in the tails."""
    with name_scope(name, values=[x]):
        return _ndtr(convert_to_tensor(x, name="x"))


def log_ndtr(x, series_order=3, name="log_ndtr"):
    """The log of the standard normal cdf: ``log(ndtr)`` in the middle, ``-ndtr(-x)`` above, and an
    asymptotic series far below, where ``ndtr`` underflows."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        numpy_dtype = x.dtype.as_numpy_dtype
        if numpy_dtype not in LOGNDTR_LOWER:
            raise TypeError(f"x.dtype={x.dtype!r} is not supported.")
        lower = np.array(LOGNDTR_LOWER[numpy_dtype], numpy_dtype)
        upper = np.array(LOGNDTR_UPPER[numpy_dtype], numpy_dtype)
        return selection_ops.where_v2(
            math_ops.greater(x, upper), -_ndtr(-x),
            selection_ops.where_v2(math_ops.greater(x, lower), math_ops.log(_ndtr(math_ops.maximum(x, lower))),
                                   _log_ndtr_lower(math_ops.minimum(x, lower), series_order)))


def _log_ndtr_lower(x, series_order):
    x_2 = math_ops.square(x)
    log_scale = -0.5 * x_2 - math_ops.log(-x) - 0.5 * np.log(2.0 * np.pi)
    return log_scale + math_ops.log(_log_ndtr_asymptotic_series(x, series_order))


def _log_ndtr_asymptotic_series(x, series_order):
    numpy_dtype = x.dtype.as_numpy_dtype
    x_2 = math_ops.square(x)
    even_sum = array_ops.zeros_like(x)
    odd_sum = array_ops.zeros_like(x)
    x_2n = x_2
    for n in range(1, series_order + 1):
        y = np.array(math.prod(range(2 * n - 1, 1, -2)), numpy_dtype) / x_2n
        if n % 2:
            odd_sum += y
        else:
            even_sum += y
        x_2n *= x_2
    return 1.0 + even_sum - odd_sum


def log_cdf_laplace(x, name="log_cdf_laplace"):
    """The log of the standard Laplace cdf, without cancellation on either side."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        lower_solution = -np.log(2.0) + x
        upper_solution = math_ops.log1p(-0.5 * math_ops.exp(-math_ops.abs(x)))
        return selection_ops.where_v2(x < 0.0, lower_solution, upper_solution)
