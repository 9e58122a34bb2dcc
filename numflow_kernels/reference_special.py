"""Kernels of ``numflow/ops/transcendental_ops.py``: numpy's functions where it has them; the error
functions and ``lgamma`` from Python's ``math`` element by element, in double precision and rounded to
the input's dtype; ``digamma`` by recurrence up to 6 and its asymptotic series (reflection below 0, NaN
at the poles, as TensorFlow gives)."""

import math

import numpy as np

from numflow_kernels.reference_math import kernel


def _quiet(fn):
    def run(ctx, x, *more):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return np.asarray(fn(x, *more), dtype=x.dtype)

    return run


def _by_element(fn):
    vectorized = np.vectorize(fn, otypes=[np.float64])
    return lambda x: vectorized(x.astype(np.float64)) if x.size else x


def _lgamma(v):
    try:
        return math.lgamma(v)
    except ValueError:  # a pole: 0 or a negative integer
        return math.inf


def _digamma(x):
    x = x.astype(np.float64)
    poles = (x <= 0) & (x == np.floor(x))
    result = np.where(poles, np.nan, 0.0)
    x = np.where(poles, 1.0, x)
    reflect = x < 0
    if reflect.any():  # psi(x) = psi(1 - x) - pi / tan(pi x)
        result[reflect] = -np.pi / np.tan(np.pi * x[reflect])
        x = np.where(reflect, 1 - x, x)
    while (small := x < 6).any():
        result -= np.where(small, 1 / np.where(small, x, 1), 0)
        x = np.where(small, x + 1, x)
    inv2 = 1 / (x * x)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    return result + np.log(x) - 0.5 / x - series


for _op_type, _fn in {
    "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos, "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh,
    "Asinh": np.arcsinh, "Acosh": np.arccosh, "Atanh": np.arctanh, "Expm1": np.expm1, "Rint": np.rint,
    "Erf": _by_element(math.erf), "Erfc": _by_element(math.erfc), "Lgamma": _by_element(_lgamma),
    "Digamma": _digamma, "Atan2": np.arctan2,
}.items():
    kernel(_op_type)(_quiet(_fn))
