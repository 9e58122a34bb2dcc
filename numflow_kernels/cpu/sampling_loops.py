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
  exponential ``-log(1 - u)``; ``alpha < 1`` multiplies by ``u ** (1 / alpha)``.
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
                out[s * num_alphas + a] = -math.log(1.0 - u)
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
