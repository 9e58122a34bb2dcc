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


# Cephes' zeta: the Euler-Maclaurin summation's Bernoulli-number denominators.
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042e-16


def _zeta_one(x, q):
    """Hurwitz's zeta(x, q) = sum over k >= 0 of (k + q) ** -x, as Cephes (and so Eigen) computes it."""
    if x == 1.0:
        return math.inf
    if x < 1.0 or math.isnan(x) or math.isnan(q):
        return math.nan
    if q <= 0.0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    if q > 1e8:
        return (1 / (x - 1) + 1 / (2 * q)) * q ** (1 - x)
    s, a, i, b = q ** -x, q, 0, 0.0
    while i < 9 or a <= 9.0:
        i, a = i + 1, a + 1.0
        b = a ** -x
        s += b
        if abs(b / s) < _MACHEP:
            return s
    w = a
    s += b * w / (x - 1.0) - 0.5 * b
    a, k = 1.0, 0.0
    for denominator in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / denominator
        s += t
        if abs(t / s) < _MACHEP:
            break
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


_zeta = np.vectorize(_zeta_one, otypes=[np.float64])


def _polygamma(n, x):
    """The n-th derivative of digamma: ``(-1) ** (n + 1) n! zeta(n + 1, x)``; NaN for a non-integer n."""
    n, x = np.broadcast_arrays(n.astype(np.float64), x.astype(np.float64))
    higher = (-1.0) ** (n + 1) * np.exp(np.vectorize(_lgamma, otypes=[np.float64])(n + 1)) * _zeta(n + 1, x)
    out = np.where(n == 0, _digamma(x), higher)
    return np.where(n == np.floor(n), out, np.nan)


for _op_type, _fn in {
    "BesselI0e": _bessel_ie(0), "BesselI1e": _bessel_ie(1),
    "BesselI0": lambda x: np.exp(np.abs(x.astype(np.float64))) * _bessel_ie(0)(x),
    "BesselI1": lambda x: np.exp(np.abs(x.astype(np.float64))) * _bessel_ie(1)(x),
    "NextAfter": np.nextafter, "Zeta": lambda x, q: _zeta(x.astype(np.float64), q.astype(np.float64)),
    "Polygamma": _polygamma,
    "Xlogy": _zero_where_x_is_zero(lambda x, y: x * np.log(y)),
    "Xdivy": _zero_where_x_is_zero(lambda x, y: x / y),
    "Xlog1py": _zero_where_x_is_zero(lambda x, y: x * np.log1p(y)),
    "MulNoNan": lambda x, y: np.where(y == 0, np.zeros((), x.dtype), x * y),
    "Ndtri": _ndtri64, "Erfinv": _erfinv,
}.items():
    kernel(_op_type)(_quiet(_fn))


# -- incomplete gamma and beta functions: Numerical Recipes' series and Lentz's continued fractions ----------------
_TINY = 1e-300


def _gamma_series(a, x):
    """P(a, x) by its power series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(100000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-17:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a, x):
    """Q(a, x) by its continued fraction (x >= a + 1)."""
    b = x + 1.0 - a
    c, d = 1.0 / _TINY, 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _regularized_gamma(a, x, upper):
    if math.isnan(a) or math.isnan(x) or a <= 0 or x < 0:
        return math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(x):
        return 0.0 if upper else 1.0
    if x < a + 1.0:
        p = _gamma_series(a, x)
        return 1.0 - p if upper else p
    q = _gamma_fraction(a, x)
    return q if upper else 1.0 - q


def _gamma_grad_a(a, x):
    """dP(a, x)/da: the series of P differentiated term by term, digamma by its recurrence."""
    if math.isnan(a) or math.isnan(x) or a <= 0 or x < 0:
        return math.nan
    if x == 0 or math.isinf(x):
        return 0.0
    log_x = math.log(x)
    psi = float(_digamma(np.array([a + 1.0])).item())
    total, n = 0.0, 0
    limit = int(x + 40.0 * math.sqrt(x) + 200)
    while n < limit:
        term = math.exp((a + n) * log_x - x - math.lgamma(a + n + 1.0))
        total += term * (log_x - psi)
        if n > x and term < 1e-18 * max(abs(total), 1e-300):
            break
        psi += 1.0 / (a + n + 1.0)
        n += 1
    return total


def _beta_fraction(a, b, x):
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (_TINY if abs(d) < _TINY else d)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (_TINY if abs(d) < _TINY else d)
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (_TINY if abs(d) < _TINY else d)
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc_scalar(a, b, x):
    if math.isnan(a) or math.isnan(b) or math.isnan(x) or a <= 0 or b <= 0 or not 0 <= x <= 1:
        return math.nan
    if x in (0.0, 1.0):
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def _elementwise(fn, nargs):
    vectorized = np.vectorize(fn, otypes=[np.float64])

    def run(*arrays):
        dtype = np.result_type(*arrays)
        return vectorized(*(np.asarray(a, np.float64) for a in arrays[:nargs])).astype(dtype)

    return run


def _betainc(a, b, x):
    shapes = {np.shape(v) for v in (a, b, x) if np.ndim(v)}
    if len(shapes) > 1:
        raise ValueError(f"Shapes of a, b and x are inconsistent: {[list(np.shape(v)) for v in (a, b, x)]}")
    return _elementwise(_betainc_scalar, 3)(a, b, x)


for _op_type, _fn in {
    "Igamma": _elementwise(lambda a, x: _regularized_gamma(a, x, False), 2),
    "Igammac": _elementwise(lambda a, x: _regularized_gamma(a, x, True), 2),
    "IgammaGradA": _elementwise(_gamma_grad_a, 2),
    "Betainc": _betainc,
}.items():
    kernel(_op_type)(_quiet(_fn))
