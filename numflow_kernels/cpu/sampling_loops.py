"""Numba loops of the sampling ops, drawing TensorFlow's Philox words (``philox.py``) in TensorFlow's order.

Specs followed (TensorFlow's CPU kernels), and the Philox draws each takes:

- ``RandomShuffle`` (``random_shuffle_op.cc``): Fisher-Yates from the front, ``i <-> i + w % (n - i)``
  for the uint32 words ``w`` of the stream in order (4 per Philox call), ``n - 1`` of them.
- ``Multinomial`` (``multinomial_op.cc``, run as one shard, as TensorFlow runs it on one thread): one
  stream over all rows; each sample takes two uint32 words as a double in [0, 1) (``Uint64ToDouble``),
  scaled by the row's unnormalized CDF (in double, finite logits only) and found by upper bound.
- ``RandomGamma`` (``random_op.cc``): output ``i`` (of ``alpha``-major order) starts at Philox call
  ``256 * i``; Marsaglia and Tsang's transformation-rejection in double, normals from Box-Muller (2
  per call) and uniforms (2 per call), each taken from the end of its group; ``alpha == 1`` draws an
  exponential ``-log1p(-u)`` (TensorFlow 2.21's, checked bit for bit); ``alpha < 1`` multiplies by ``u ** (1 / alpha)``.
- ``RandomPoissonV2`` (``random_poisson_op.cc``): output ``i`` starts at Philox call ``256 * i``; Knuth's
  product of uniforms below ``exp(-rate)`` for a rate under 10, else Hormann's transformed rejection.

Every output depends only on the stream and its position, never on the thread count. log, exp, pow and
lgamma are the C library's, as TensorFlow calls them. After editing ``philox.py``, delete this folder's
``__pycache__`` (see ``philox.py``): Numba's cache does not follow calls into other files.
"""

import math

import numpy as np
from numba import njit

from numflow_kernels import philox

_THIRD = 1.0 / 3


@njit(nogil=True, cache=True)
def shuffle_permutation(n, stream):
    """The permutation RandomShuffle applies to ``n`` rows (int64)."""
    perm = np.arange(n)
    for call in range((n + 2) // 4):  # the n - 1 words, 4 to a call
        words = philox.philox_at(stream, np.uint64(call))
        for t in range(4):
            i = 4 * call + t
            if i >= n - 1:
                break
            j = i + np.int64(words[t] % np.uint64(n - i))
            perm[i], perm[j] = perm[j], perm[i]
    return perm


@njit(nogil=True, cache=True)
def multinomial(logits, num_samples, stream, lowest, out):
    """Fill ``out[b, j]`` with class indices drawn from each row of ``logits`` (float64)."""
    batch, classes = logits.shape
    cdf = np.empty(classes)
    k = 0  # doubles drawn so far, 2 to a Philox call
    x0 = x1 = x2 = x3 = np.uint64(0)
    for b in range(batch):
        top = lowest
        for c in range(classes):
            if np.isfinite(logits[b, c]) and logits[b, c] > top:
                top = logits[b, c]
        total = 0.0
        for c in range(classes):
            if np.isfinite(logits[b, c]):
                total += math.exp(logits[b, c] - top)
            cdf[c] = total
        for j in range(num_samples):
            if k % 2 == 0:
                x0, x1, x2, x3 = philox.philox_at(stream, np.uint64(k // 2))
                target = philox.uint64_to_double(x0, x1) * total
            else:
                target = philox.uint64_to_double(x2, x3) * total
            k += 1
            lo, hi = 0, classes  # upper bound: the first entry greater than target
            while lo < hi:
                mid = (lo + hi) // 2
                if cdf[mid] <= target:
                    lo = mid + 1
                else:
                    hi = mid
            out[b, j] = lo


@njit(inline="always")
def _uniform_pair(stream, j):
    x0, x1, x2, x3 = philox.philox_at(stream, j)
    return philox.uint64_to_double(x0, x1), philox.uint64_to_double(x2, x3)


@njit(inline="always")
def _take_uniform(stream, call, left, u0, u1):
    """TensorFlow's ``UNIFORM(X)``: the next double of the current pair (its second first), a new pair from
    Philox call ``call`` once both are used. Returns the double and the updated ``call, left, u0, u1``."""
    if left == 0:
        u0, u1 = _uniform_pair(stream, call)
        call += np.uint64(1)
        left = 2
    left -= 1
    return (u1 if left == 1 else u0), call, left, u0, u1


@njit(nogil=True, cache=True, error_model="numpy")
def gamma(alphas, num_samples, stream, out):
    """``out[s * len(alphas) + a]``: sample ``s`` of Gamma(``alphas[a]``, 1), in float64."""
    num_alphas = alphas.shape[0]
    for a in range(num_alphas):
        alpha = alphas[a]
        less = alpha < 1.0
        d = alpha + (2.0 / 3 if less else -_THIRD)
        c = _THIRD / math.sqrt(d)
        for s in range(num_samples):
            call = np.uint64(philox.RESERVED_PER_OUTPUT * (a * num_samples + s))
            u_left = 0
            u0 = u1 = 0.0
            if alpha == 1.0:
                u, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                out[s * num_alphas + a] = -math.log1p(-u)
                continue
            n_left = 0
            n0 = n1 = 0.0
            while True:
                if n_left == 0:
                    n0, n1 = philox.standard_normal_f64(stream, call)
                    call += np.uint64(1)
                    n_left = 2
                n_left -= 1
                x = n1 if n_left == 1 else n0
                v = 1 + c * x
                if v <= 0:
                    continue
                v = v * v * v
                u, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                if u < 1 - 0.0331 * (x * x) * (x * x) or math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
                    res = d * v
                    if less:
                        b, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                        res *= b ** (1 / alpha)
                    out[s * num_alphas + a] = res
                    break


@njit(nogil=True, cache=True, error_model="numpy")
def poisson(rates, num_samples, stream, highest, out):
    """``out[s * len(rates) + r]``: sample ``s`` of Poisson(``rates[r]``), in float64."""
    num_rates = rates.shape[0]
    for r in range(num_rates):
        rate = rates[r]
        if rate < 10:
            exp_neg_rate = math.exp(-rate)
        else:
            log_rate = math.log(rate)
            b = 0.931 + 2.53 * math.sqrt(rate)
            a = -0.059 + 0.02483 * b
            inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        for s in range(num_samples):
            call = np.uint64(philox.RESERVED_PER_OUTPUT * (r * num_samples + s))
            u_left = 0
            u0 = u1 = 0.0
            if rate < 10:
                prod, x = 1.0, 0.0
                while True:
                    u, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                    prod = prod * u
                    if prod <= exp_neg_rate and x <= highest:
                        out[s * num_rates + r] = x
                        break
                    x += 1
                continue
            while True:
                u, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                u -= 0.5
                v, call, u_left, u0, u1 = _take_uniform(stream, call, u_left, u0, u1)
                u_shifted = 0.5 - abs(u)
                k = math.floor((2 * a / u_shifted + b) * u + rate + 0.43)
                if k > highest:
                    continue
                if u_shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
                    out[s * num_rates + r] = k
                    break
                if k < 0 or (u_shifted < 0.013 and v > u_shifted):
                    continue
                if math.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b)) <= -rate + k * log_rate - math.lgamma(
                        k + 1):
                    out[s * num_rates + r] = k
                    break


# -- the gradient of a gamma sample with respect to alpha (Eigen's gamma_sample_der_alpha, Cephes' igam) ----
_PSI_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
          -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
          8.33333333333333333333e-2)
_MACHEP = 2.0**-53
_BIG = 2.0**52
_BIGINV = 2.0**-52
_ITERATIONS = 500


@njit(cache=True)
def _digamma(x):
    """Cephes' psi, as Eigen's digamma computes it in double."""
    negative = False
    nz = 0.0
    if x <= 0.0:
        negative = True
        p = math.floor(x)
        if p == x:
            return math.nan
        nz = x - p
        if nz != 0.5:
            if nz > 0.5:
                p += 1.0
                nz = x - p
            nz = math.pi / math.tan(math.pi * nz)
        else:
            nz = 0.0
        x = 1.0 - x
    s, w = x, 0.0
    while s < 10.0:
        w += 1.0 / s
        s += 1.0
    y = 0.0
    if s < 1.0e17:
        z = 1.0 / (s * s)
        poly = _PSI_A[0]
        for i in range(1, 7):
            poly = poly * z + _PSI_A[i]
        y = z * poly
    y = math.log(s) - 0.5 / s - y - w
    return y - nz if negative else y


@njit(cache=True)
def _igamma_term(a, x):
    """``x**a * exp(-x) / gamma(a)``, 0 where it underflows."""
    logax = a * math.log(x) - x - math.lgamma(a)
    if logax < -math.log(1.7976931348623157e308) or logax != logax:
        return 0.0
    return math.exp(logax)


@njit(cache=True)
def _sample_derivative_cf(a, x):
    """The continued fraction of igammac, differentiated in a (for x > 1 and x > a)."""
    if math.isinf(x) or _igamma_term(a, x) == 0.0:
        return 0.0
    y = 1.0 - a
    z = x + y + 1.0
    c = 0.0
    pkm2, qkm2, pkm1, qkm1 = 1.0, x, x + 1.0, z * x
    ans = pkm1 / qkm1
    dpkm2, dqkm2, dpkm1, dqkm1 = 0.0, 0.0, 0.0, -x
    dans = (dpkm1 - ans * dqkm1) / qkm1
    for _ in range(_ITERATIONS):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        dpk = dpkm1 * z - pkm1 - dpkm2 * yc + pkm2 * c
        dqk = dqkm1 * z - qkm1 - dqkm2 * yc + qkm2 * c
        if qk != 0.0:
            ans = pk / qk
            previous = dans
            dans = (dpk - ans * dqk) / qk
            if abs(dans - previous) <= _MACHEP:
                break
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        dpkm2, dpkm1, dqkm2, dqkm1 = dpkm1, dpk, dqkm1, dqk
        if abs(pk) > _BIG:
            pkm2 *= _BIGINV
            pkm1 *= _BIGINV
            qkm2 *= _BIGINV
            qkm1 *= _BIGINV
            dpkm2 *= _BIGINV
            dpkm1 *= _BIGINV
            dqkm2 *= _BIGINV
            dqkm1 *= _BIGINV
    dlogax = math.log(x) - _digamma(a)
    return -(dans + ans * dlogax) * x


@njit(cache=True)
def _sample_derivative_series(a, x):
    """The power series of igam, differentiated in a (for x <= 1 or x <= a)."""
    if _igamma_term(a, x) == 0.0:
        return 0.0
    r, c, ans, dc, dans = a, 1.0, 1.0, 0.0, 0.0
    for _ in range(_ITERATIONS):
        r += 1.0
        term = x / r
        dterm = -x / (r * r)
        dc = term * dc + dterm * c
        dans += dc
        c *= term
        ans += c
        if abs(dc) <= _MACHEP * abs(dans):
            break
    dlogax = math.log(x) - _digamma(a + 1.0)
    return -(dans + ans * dlogax) * x / a


@njit(nogil=True, cache=True, error_model="numpy")
def gamma_sample_derivative(alpha, sample, out):
    """``out[i]``: d sample / d alpha of ``sample[i]`` ~ Gamma(``alpha[i]``, 1) (implicit differentiation of the
    CDF: -d igam / d alpha over the density), all flat float64 arrays."""
    for i in range(out.shape[0]):
        a, x = alpha[i], sample[i]
        if x == 0.0:
            out[i] = 0.0
        elif x < 0.0 or a <= 0.0 or a != a or x != x:
            out[i] = math.nan
        elif x > 1.0 and x > a:
            out[i] = -_sample_derivative_cf(a, x)
        else:
            out[i] = _sample_derivative_series(a, x)


@njit(nogil=True, cache=True)
def philox_words(stream, first_call, calls):
    """The uint32 words of Philox calls ``first_call`` to ``first_call + calls - 1`` of ``stream``, in
    order: what TensorFlow's ``SingleSampleAdapter<PhiloxRandom>`` hands out one at a time."""
    out = np.empty(4 * calls, np.uint32)
    for c in range(calls):
        words = philox.philox_at(stream, np.uint64(first_call + c))
        for t in range(4):
            out[4 * c + t] = words[t]
    return out


@njit(nogil=True, cache=True)
def shuffle_buffer_order(n, buffer_size, words):
    """The input positions, in output order, that TensorFlow's ShuffleDataset gives for ``n`` input
    elements: a ring of ``buffer_size`` slots filled in order; each output is at ``start + word %
    filled`` (the next word of ``words``, one per output), and the slot at ``start`` takes its place."""
    out = np.empty(n, np.int64)
    ring = np.empty(max(min(buffer_size, n), 1), np.int64)
    start = end = taken = k = 0
    while True:
        while end - start < buffer_size and taken < n:
            ring[end % buffer_size] = taken
            taken += 1
            end += 1
        if start == end:
            return out
        index = (start + np.int64(words[k]) % (end - start)) % buffer_size
        first = start % buffer_size
        out[k] = ring[index]
        ring[index] = ring[first]
        start += 1
        k += 1
