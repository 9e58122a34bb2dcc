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


# -- special_math_ops: x * f(y) that is 0 where x is 0, and the inverse error functions ------------------------
def _zero_where_x_is_zero(fn):
    return lambda x, y: np.where(x == 0, np.zeros((), x.dtype), fn(x, y))


# Cephes' ndtri: a rational function of (p - 1/2) in the middle, of 1/sqrt(-2 log p) in the tails.
_NDTRI_P0 = [-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0]
_NDTRI_Q0 = [1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0]
_NDTRI_P1 = [4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4]
_NDTRI_Q1 = [1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4]
_NDTRI_P2 = [3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9]
_NDTRI_Q2 = [1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9]


def _ndtri64(p):
    p = p.astype(np.float64)
    complement = p > 1 - np.exp(-2.0)
    q = np.where(complement, 1 - p, p)
    q = np.where((q <= 0) | np.isnan(q), 0.5, q)
    w = q - 0.5
    ww = w * w
    middle = -np.sqrt(2 * np.pi) * (w + w * ww * np.polyval(_NDTRI_P0, ww) / np.polyval(_NDTRI_Q0, ww))
    z = np.sqrt(-2 * np.log(q))
    inv_z = 1 / z
    tail = np.where(z >= 8, np.polyval(_NDTRI_P2, inv_z) / np.polyval(_NDTRI_Q2, inv_z),
                    np.polyval(_NDTRI_P1, inv_z) / np.polyval(_NDTRI_Q1, inv_z))
    x = np.where(q > np.exp(-2.0), middle, z - np.log(z) / z - tail / z)
    x = np.where(complement, x, -x)
    x = np.where(p <= 0, -np.inf, np.where(p >= 1, np.inf, x))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _erfinv(x):
    """ndtri's answer refined by two Newton steps on ``erf``, accurate where ``(x + 1) / 2`` rounds."""
    x = x.astype(np.float64)
    y = _ndtri64((x + 1) / 2) / np.sqrt(2)
    finite = np.isfinite(y)
    for _ in range(2):
        step = (_erf(np.where(finite, y, 0.0)) - x) / (2 / np.sqrt(np.pi) * np.exp(-np.square(np.where(finite, y, 0))))
        y = np.where(finite, y - step, y)
    return y


def _bessel_ie(order):
    """``exp(-|x|) I_order(|x|)`` (times sign(x) for order 1): the power series up to 20, the asymptotic
    series of Hankel beyond it, both in double precision."""

    def run(x):
        a = np.abs(x.astype(np.float64))
        small = np.minimum(a, 20.0)
        half_sq = np.square(small / 2)
        term = (small / 2) ** order / math.factorial(order)
        total = term.copy()
        for k in range(1, 80):
            term = term * half_sq / (k * (k + order))
            total += term
        series = total * np.exp(-small)
        big = np.maximum(a, 20.0)
        mu, coefficient, asymptotic = 4.0 * order * order, np.ones_like(big), np.ones_like(big)
        for k in range(1, 30):
            coefficient = -coefficient * (mu - (2 * k - 1) ** 2) / (k * 8 * big)
            asymptotic += coefficient
        asymptotic /= np.sqrt(2 * np.pi * big)
        out = np.where(a <= 20.0, series, asymptotic)
        return np.sign(x) * out if order else out

    return run


for _op_type, _fn in {
    "BesselI0e": _bessel_ie(0), "BesselI1e": _bessel_ie(1),
    "Xlogy": _zero_where_x_is_zero(lambda x, y: x * np.log(y)),
    "Xdivy": _zero_where_x_is_zero(lambda x, y: x / y),
    "Xlog1py": _zero_where_x_is_zero(lambda x, y: x * np.log1p(y)),
    "MulNoNan": lambda x, y: np.where(y == 0, np.zeros((), x.dtype), x * y),
    "Ndtri": _ndtri64, "Erfinv": _erfinv,
}.items():
    kernel(_op_type)(_quiet(_fn))
