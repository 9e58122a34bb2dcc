"""TensorFlow's float32 kernels bit for bit: Exp, Log, Log1p, Tanh and Sigmoid, the activations and losses made
of them (Elu, Selu, Softplus, LogSoftmax, the softmax cross-entropies), Sum and Mean, and a matrix times a
column.

TensorFlow computes these with Eigen's own float32 approximations, not the C library's functions:
``pexp_float``, ``plog_float``, the rational ``ptanh_float`` and the logistic function's own exp,
evaluated with separate multiplies and adds (its wheels are built for AVX without FMA) over packets
of 8 floats. The last ``size % 8`` elements of a tensor take Eigen's scalar path instead: the C
library's ``expf`` and ``logf`` for Exp, Log and Sigmoid, the same rational function for Tanh.
TensorFlow's threads also flush denormal results to zero and read denormal inputs as zero.

numpy rounds otherwise (its float32 tanh agreed with TensorFlow's on 52% of inputs, its exp on 58%,
its log on 84%). These loops take Eigen's steps in Eigen's order, and agree with TensorFlow on every
input tried: half a million values per function, the special values and every tail length
(``tests/kernels/test_eigen_float32.py``, against values TensorFlow wrote). Other dtypes, and
inputs that are not arrays, go to the numpy references. Numba compiles the loops on first use.

Eigen's sums have their own order too: four packet accumulators over blocks of 32 elements, one over
the remaining packets, the lanes added in a fixed tree, then the rest of the elements (``_row_sum``);
past 8,192 elements, two halves split on a packet boundary (``_tree_sum``). A reduced leading axis
takes every fourth row into four accumulators (``column_sums``); a matrix times a column sums each
row over 8 lanes (``matrix_vector``).
"""

import math

import numpy as np

from numflow_kernels import registry
from numflow_kernels.cpu.lazy_loops import LazyLoops
from numflow_kernels.reference import reduction_axes
from numflow_kernels.registry import register

_FLOAT32 = np.dtype(np.float32)
f32 = np.float32
PACKET = 8  # floats per AVX packet: Eigen's packet path covers all but the last size % PACKET elements
NORMAL_MIN = f32(1.1754943508222875e-38)  # below it a result is flushed to zero, an input read as zero

# pexp_float's constants (Cephes' exp).
LOG2E, HALF, LN2_HI, LN2_LO = f32(1.44269504088896341), f32(0.5), f32(-0.693359375), f32(2.12194440e-4)
EXP_P2, EXP_P3, EXP_P4, EXP_P5, EXP_P6 = (
    f32(0.49999988079071044921875), f32(0.16666518151760101318359375), f32(4.166965186595916748046875e-2),
    f32(8.36894474923610687255859375e-3), f32(1.37449637986719608306884765625e-3))
EXP_HI, EXP_LO = f32(88.723), f32(-104.0)
# plog_float's: log(1 + x) on [sqrt(1/2) - 1, sqrt(2) - 1] as x * p(x) / q(x).
SQRT_HALF, LN2 = f32(0.707106781186547524), f32(0.693147180559945309417232121458176568)
LOG_P0, LOG_P1, LOG_P2 = f32(0.18256296349849254), f32(1.0000000190281063), f32(1.0000000190281136)
LOG_Q0, LOG_Q1, LOG_Q2 = f32(0.049616247954120038), f32(0.59923249590823520), f32(1.4999999999999927)
# ptanh_float's [9, 8] rational function, its input clamped where it reaches 1 (without FMA).
TANH_CLAMP = f32(7.90738964080810547)
TANH_P0, TANH_P1, TANH_P2, TANH_P3 = f32(1.394553628e-8), f32(2.102733560e-5), f32(3.520756727e-3), f32(1.340216100e-1)
TANH_Q0, TANH_Q1, TANH_Q2, TANH_Q3 = f32(8.015776984e-7), f32(3.326951409e-4), f32(2.597254514e-2), f32(4.673548340e-1)
# The logistic function's exp of x / 2 (a degree 5 polynomial), squared; its cut-offs.
LOGISTIC_P2, LOGISTIC_P3, LOGISTIC_P4, LOGISTIC_P5 = (
    f32(0.49999141693115234375), f32(0.16666877269744873046875), f32(4.1898667812347412109375e-2),
    f32(8.33471305668354034423828125e-3))
LOGISTIC_HI, LOGISTIC_LO = f32(16.6355324), f32(-104.0)
SELU_SCALE, SELU_SCALE_ALPHA = f32(1.0507009873554804934193349852946), f32(1.7580993408473768599402175208123)
SOFTPLUS_THRESHOLD = f32(math.log(np.finfo(np.float32).eps)) + f32(2.0)  # log(epsilon) + 2, as TensorFlow's
CHUNK = 1024  # elements whose scales are built, then applied, in one pass (in the CPU's cache)


def _flushed(y):
    return y if abs(y) >= NORMAL_MIN or y != y else f32(0.0) * y


def _exp_polynomial(x):
    """pexp_float's steps for ``x`` (at most EXP_HI) before its scaling: the polynomial ``y`` of the
    reduced argument, and the power of two ``m`` (a float) it is scaled by."""
    m = f32(math.floor(x * LOG2E + HALF))
    r = m * LN2_LO + (m * LN2_HI + x)
    r2 = r * r
    even = r2 * (r2 * EXP_P6 + EXP_P4) + EXP_P2
    odd = r2 * EXP_P5 + EXP_P3
    return r2 * (r * odd + even) + (r + f32(1.0)), m


def _exp_packet(a):
    if a != a:
        return a
    y, m = _exp_polynomial(min(a, EXP_HI))
    if a < EXP_LO:
        return f32(0.0)
    return _flushed(max(f32(np.float64(y) * 2.0 ** np.float64(m)), a))  # y * 2**m: exact unless out of range


def _exp_scalar(a):
    """Eigen's exp on its scalar path (a tensor's last ``size % 8`` elements): the C library's, flushed."""
    return _flushed(math.exp(a))


def _exp_at(a, in_packet):
    """Eigen's exp of ``a`` on its packet path, or (not ``in_packet``) its scalar path; so ``_log_at``
    and ``_log1p_at``."""
    return _exp_packet(a) if in_packet else _exp_scalar(a)


def _exp_packets(x, out, scale_bits):
    """``_exp_packet`` of each of ``x`` into ``out`` in two loops that vectorize (``scale_bits``: int32
    scratch of twice the length): the polynomial and the bits of two powers of two whose product is
    ``2 ** m`` (``m`` in [-150, 128] is more than one float's exponent holds), then their products,
    exact until the last, which rounds once as the product in float64 did."""
    n = x.size
    for i in range(n):
        a = x[i]
        v = max(min(a, EXP_HI), EXP_LO) if a == a else f32(0.0)  # below EXP_LO the result is 0 anyway
        out[i], m = _exp_polynomial(v)
        half = f32(math.floor(m * HALF))
        scale_bits[i] = np.int32(half + f32(127.0)) << 23
        scale_bits[n + i] = np.int32(m - half + f32(127.0)) << 23
    scale = scale_bits.view(np.float32)
    for i in range(n):
        a = x[i]
        y = max((out[i] * scale[i]) * scale[n + i], a)
        y = y if abs(y) >= NORMAL_MIN else f32(0.0) * y
        y = f32(0.0) if a < EXP_LO else y
        out[i] = a if a != a else y


def _exp(x, out):
    packed = x.size - x.size % PACKET
    scale_bits = np.empty(2 * min(packed, CHUNK), np.int32)
    for first in range(0, packed, CHUNK):
        stop = min(first + CHUNK, packed)
        _exp_packets(x[first:stop], out[first:stop], scale_bits[:2 * (stop - first)])
    for i in range(packed, x.size):
        out[i] = _exp_scalar(x[i])


def _log_packet(a):
    if a != a:
        return a
    if abs(a) < NORMAL_MIN:
        return f32(-np.inf)
    if a < f32(0.0):
        return f32(np.nan)
    if a == f32(np.inf):
        return a
    mantissa, exponent = math.frexp(a)  # a = mantissa * 2**exponent, mantissa in [0.5, 1)
    return _log_of_parts(f32(mantissa), f32(exponent))


def _log_of_parts(x, e):
    """plog_float's log of ``x * 2 ** e`` for a mantissa ``x`` in [0.5, 1) and an exponent ``e`` (a float)."""
    low = x < SQRT_HALF
    e = e - f32(1.0) if low else e
    x = (x - f32(1.0)) + x if low else x - f32(1.0)
    p = x * ((LOG_P0 * x + LOG_P1) * x + LOG_P2)
    q = ((LOG_Q0 * x + LOG_Q1) * x + LOG_Q2) * x + f32(1.0)
    return e * LN2 + p / q


def _log_scalar(a):
    return math.log(f32(0.0) if abs(a) < NORMAL_MIN else a)


def _log_at(a, in_packet):
    return _log_packet(a) if in_packet else _log_scalar(a)


def _log_packets(x, out, mantissa_bits):
    """``_log_packet`` of each of ``x`` into ``out`` in two loops that vectorize (``mantissa_bits``:
    int32 scratch as long): ``frexp`` from the bits (a normal number's exponent, and its mantissa
    in [0.5, 1) as the bits of a float), then the rational function. Zeros, denormals, negative
    numbers, infinities and NaN take their own results in the second loop."""
    bits = x.view(np.int32)
    for i in range(x.size):
        mantissa_bits[i] = (bits[i] & 0x007FFFFF) | 0x3F000000
        out[i] = f32(((bits[i] >> 23) & 0xFF) - 126)
    mantissas = mantissa_bits.view(np.float32)
    for i in range(x.size):
        a = x[i]
        y = _log_of_parts(mantissas[i], out[i])
        y = a if a == f32(np.inf) else y
        y = f32(np.nan) if a < f32(0.0) else y
        y = f32(-np.inf) if abs(a) < NORMAL_MIN else y
        out[i] = a if a != a else y


def _log(x, out):
    packed = x.size - x.size % PACKET
    mantissa_bits = np.empty(min(packed, CHUNK), np.int32)
    for first in range(0, packed, CHUNK):
        stop = min(first + CHUNK, packed)
        _log_packets(x[first:stop], out[first:stop], mantissa_bits)
    for i in range(packed, x.size):
        out[i] = _log_scalar(x[i])


def _tanh(x, out):
    for i in range(x.size):  # the packet and scalar paths are the one function
        v = min(max(x[i], -TANH_CLAMP), TANH_CLAMP) if x[i] == x[i] else x[i]
        v2 = v * v
        p = ((TANH_P0 * v2 + TANH_P1) * v2 + TANH_P2) * v2 + TANH_P3
        q = (((TANH_Q0 * v2 + TANH_Q1) * v2 + TANH_Q2) * v2 + TANH_Q3) * v2 + f32(1.0)
        out[i] = _flushed(((v2 * v) * p + v) / q)


def _logistic_polynomial(a):
    """The logistic function's exp of ``min(a, LOGISTIC_HI) / 2`` before its scaling: the degree 5
    polynomial ``p`` of the reduced argument, and the power of two ``m`` (a float) it is scaled by."""
    x = min(a, LOGISTIC_HI) * HALF
    m = f32(math.floor(x * LOG2E + HALF))
    r = m * LN2_LO + (m * LN2_HI + x)
    r2 = r * r
    even = r2 * LOGISTIC_P4 + LOGISTIC_P2
    odd = r2 * LOGISTIC_P5 + LOGISTIC_P3
    return r2 * (r * odd + even) + (r + f32(1.0)), m


def _logistic_packets(x, out, scale_bits):
    """Eigen's packet path of the logistic function of ``x`` into ``out``: ``e / (1 + e)`` with
    ``e = (p * 2 ** m) ** 2``. The power of two is built from its bits in one loop and read as a
    float in the next (``scale_bits``: int32 scratch at least as long), so both vectorize (as do
    loops over slices indexed from 0, not over offsets into the whole)."""
    for i in range(x.size):
        p, m = _logistic_polynomial(x[i])
        out[i] = p
        scale_bits[i] = np.int32(min(max(m + f32(127.0), f32(0.0)), f32(255.0))) << 23
    scale = scale_bits.view(np.float32)
    for i in range(x.size):
        a = x[i]
        e = out[i] * scale[i]
        e = e * e  # exp(x / 2) ** 2
        y = e / (f32(1.0) + e)
        y = y if abs(y) >= NORMAL_MIN else f32(0.0) * y  # flushed (a NaN input is passed on below)
        y = f32(0.0) if a < LOGISTIC_LO else y
        out[i] = a if a != a else y


def _logistic(x, out):
    packed = x.size - x.size % PACKET
    scale_bits = np.empty(min(packed, CHUNK), np.int32)
    for first in range(0, packed, CHUNK):
        stop = min(first + CHUNK, packed)
        _logistic_packets(x[first:stop], out[first:stop], scale_bits)
    for i in range(packed, x.size):
        e = math.exp(min(x[i], LOGISTIC_HI))
        out[i] = _flushed(e / (f32(1.0) + e))


def _row_sum(v, lanes):
    """Eigen's sum of ``v`` (a row, reduced along it): four packet accumulators over blocks of 32,
    added into the first, which takes the remaining packets; the scalar rest summed in order; that
    sum plus the packet's lanes, reduced ((0 + 4) + (2 + 6)) + ((1 + 5) + (3 + 7)). ``lanes``: (4, 8)
    float32 scratch."""
    n = v.shape[0]
    lanes[:] = 0
    start = 0
    if n >= 4 * PACKET:
        for j in range(0, n // (4 * PACKET) * (4 * PACKET), 4 * PACKET):
            for k in range(4):
                for lane in range(PACKET):
                    lanes[k, lane] += v[j + k * PACKET + lane]
        for k in range(1, 4):
            for lane in range(PACKET):
                lanes[0, lane] += lanes[k, lane]
        start = n // (4 * PACKET) * (4 * PACKET)
    if start <= n - PACKET:
        for j in range(start, n // PACKET * PACKET, PACKET):
            for lane in range(PACKET):
                lanes[0, lane] += v[j + lane]
        start = n // PACKET * PACKET
    rest = f32(0.0)
    for j in range(start, n):
        rest += v[j]
    halves = lanes[0, :4] + lanes[0, 4:]
    return rest + ((halves[0] + halves[2]) + (halves[1] + halves[3]))


def _exp_row_sum(shifted, exps, lanes):
    """The sum along a row of the exp of ``shifted``, as a reduction evaluates it: the exp of the
    row's packets, then of its scalar rest (``exps``: scratch of the row's length)."""
    vectorized = shifted.shape[0] // PACKET * PACKET
    for j in range(shifted.shape[0]):
        exps[j] = _exp_at(shifted[j], j < vectorized)
    return _row_sum(exps, lanes)


def _shift_rows(logits, shifted):
    """``shifted = logits - max`` along each row (a NaN spreads)."""
    for i in range(logits.shape[0]):
        top = logits[i, 0]
        for j in range(1, logits.shape[1]):
            if logits[i, j] > top or logits[i, j] != logits[i, j]:
                top = logits[i, j]
        for j in range(logits.shape[1]):
            shifted[i, j] = logits[i, j] - top


def _probabilities(shifted, sums):
    """``shifted = exp(shifted) / sums`` (each row's), the exps over the whole tensor's packets and tail."""
    rows, classes = shifted.shape
    vectorized = shifted.size - shifted.size % PACKET
    for i in range(rows):
        for j in range(classes):
            shifted[i, j] = _exp_at(shifted[i, j], i * classes + j < vectorized) / sums[i]


def sparse_xent(logits, labels, loss, backprop):
    """TensorFlow's SparseSoftmaxCrossEntropyWithLogits of float32 ``logits`` (2-D, C order), filling
    ``loss`` and ``backprop``: ``log(sum(exp(shifted))) - shifted[label]`` with the C library's log.
    Returns the index of the first label outside ``[0, classes)`` (then fills nothing), else -1."""
    for i in range(labels.shape[0]):
        if labels[i] < 0 or labels[i] >= logits.shape[1]:
            return i
    lanes = np.empty((4, PACKET), np.float32)
    exps = np.empty(logits.shape[1], np.float32)
    sums = np.empty(logits.shape[0], np.float32)
    _shift_rows(logits, backprop)
    for i in range(logits.shape[0]):
        sums[i] = _exp_row_sum(backprop[i], exps, lanes)
        loss[i] = math.log(sums[i]) - backprop[i, labels[i]]
    _probabilities(backprop, sums)
    for i in range(logits.shape[0]):
        backprop[i, labels[i]] -= f32(1.0)
    return -1


def dense_xent(logits, labels, loss, backprop):
    """TensorFlow's SoftmaxCrossEntropyWithLogits of float32 ``logits`` and ``labels`` of its shape:
    each row's ``sum(labels * (log(sum(exp(shifted))) - shifted))``, the logs over the rows' packets."""
    rows, classes = logits.shape
    lanes = np.empty((4, PACKET), np.float32)
    exps = np.empty(classes, np.float32)
    sums = np.empty(rows, np.float32)
    _shift_rows(logits, backprop)
    for i in range(rows):
        sums[i] = _exp_row_sum(backprop[i], exps, lanes)
    vectorized_rows = rows - rows % PACKET
    for i in range(rows):
        log_sum = _log_at(sums[i], i < vectorized_rows)
        for j in range(classes):
            exps[j] = labels[i, j] * (log_sum - backprop[i, j])
        loss[i] = _row_sum(exps, lanes)
    _probabilities(backprop, sums)
    for i in range(rows):
        for j in range(classes):
            backprop[i, j] -= labels[i, j]


def matrix_vector(a, x, out):
    """``out = a @ x`` for float32 ``a`` (m, k) and ``x`` (k,), as Eigen's row-major matrix-vector
    product sums each row: products of packets of 8 added into 8 lanes (multiply, then add), the
    lanes reduced as ``_row_sum`` reduces them, then the rest of the row's products added in order.
    It takes rows by blocks of 8, 4 and 2; a last row left alone (an odd count) takes 4 of the rest
    as a half packet, its 4 products reduced ((0 + 2) + (1 + 3)) and added first."""
    lanes = np.empty(PACKET, np.float32)
    rows, columns = a.shape
    vectorized = columns // PACKET * PACKET
    for i in range(rows):
        lanes[:] = 0
        for j in range(0, vectorized, PACKET):
            for lane in range(PACKET):
                lanes[lane] += a[i, j + lane] * x[j + lane]
        total = ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]))
        start = vectorized
        if i == rows - 1 and rows % 2 == 1 and columns - vectorized >= PACKET // 2:
            half = a[i, start:start + 4] * x[start:start + 4]
            total += (half[0] + half[2]) + (half[1] + half[3])
            start += PACKET // 2
        for j in range(start, columns):
            total += a[i, j] * x[j]
        out[i] = total


LEAF = 1024  # packets: a longer sum is split in two halves (Eigen's tree reduction)


def _tree_sum(flat, first, n, lanes):
    """Eigen's sum of ``flat[first:first + n]``: ``_row_sum`` of up to 8 x 1024 elements, else the sums of
    two halves split on a packet boundary counted from the tensor's start, added."""
    if n > PACKET * LEAF:
        split = PACKET * ((first + (n + 1) // 2 + PACKET - 1) // PACKET)
        left = min(split - first, n)
        total = f32(0.0) + _tree_sum(flat, first, left, lanes)
        if left < n:
            total += _tree_sum(flat, split, n - left, lanes)
        return total
    return _row_sum(flat[first:first + n], lanes)


def row_sums(flat, columns, out):
    """``out[i]``: Eigen's sum of row ``i`` of ``flat`` seen as rows of ``columns``."""
    lanes = np.empty((4, PACKET), np.float32)
    for i in range(out.size):
        out[i] = _tree_sum(flat, i * columns, columns, lanes)


def column_sums(m, out):
    """``out[j]``: the sum of column ``j`` of ``m`` as Eigen sums a reduced outer dimension: the columns
    of full packets of 8 with four accumulators taking every fourth row (16 rows or more), added into
    the first, then the rows left over; the other columns, and all of them under 16 rows, row by row."""
    rows, columns = m.shape
    vectorized = columns // PACKET * PACKET if rows >= 16 else 0
    accumulators = np.zeros((4, columns), np.float32)
    unrolled = rows // 4 * 4
    for j in range(0, unrolled, 4):
        for k in range(4):
            for c in range(vectorized):
                accumulators[k, c] += m[j + k, c]
    for k in range(1, 4):
        for c in range(vectorized):
            accumulators[0, c] += accumulators[k, c]
    for j in range(unrolled, rows):
        for c in range(vectorized):
            accumulators[0, c] += m[j, c]
    for j in range(rows):
        for c in range(vectorized, columns):
            accumulators[0, c] += m[j, c]
    for c in range(columns):
        out[c] = accumulators[0, c]


def log_softmax(logits, out):
    """TensorFlow's LogSoftmax of float32 ``logits`` (2-D, C order): ``shifted - log(sum(exp(shifted)))``,
    the exps summed in the row's reduction, the logs over the rows' packets."""
    rows, classes = logits.shape
    lanes = np.empty((4, PACKET), np.float32)
    exps = np.empty(classes, np.float32)
    _shift_rows(logits, out)
    vectorized_rows = rows - rows % PACKET
    for i in range(rows):
        total = _exp_row_sum(out[i], exps, lanes)
        log_sum = _log_at(total, i < vectorized_rows)
        for j in range(classes):
            out[i, j] = out[i, j] - log_sum


_HELPERS = ("_flushed", "_exp_polynomial", "_log_of_parts", "_exp_packet", "_exp_scalar", "_exp_at",
            "_exp_packets", "_log_packet", "_log_scalar", "_log_at", "_log_packets", "_log1p_packet",
            "_log1p_scalar", "_log1p_at", "_logistic_polynomial", "_logistic_packets", "_row_sum", "_exp_row_sum",
            "_probabilities", "_shift_rows", "_tree_sum")
# compiled(fn): fn's loop, with the helpers it calls
compiled = LazyLoops(globals(), _HELPERS, error_model="numpy")


def apply(fn, x):
    """``fn``'s loop over float32 array ``x`` (flattened in C order): a new array of its shape."""
    out = np.empty(x.shape, _FLOAT32)
    compiled(fn)(np.ascontiguousarray(x).reshape(-1), out.reshape(-1))
    return out


def _op_kernel(op_type, fn):
    """Register ``fn``'s loop as ``op_type``'s CPU kernel of float32 arrays (the reference's otherwise)."""

    def kernel(ctx, x):
        if x.__class__ is not np.ndarray or x.dtype != _FLOAT32:
            return registry.reference(op_type)(ctx, x)
        return apply(fn, x)

    register(op_type)(kernel)


def _log1p_packet(x):
    """Eigen's log1p (Kahan's formula over its log); a denormal ``x`` gives a zero of its sign."""
    if abs(x) < NORMAL_MIN:
        return f32(0.0) * x
    xp1 = x + f32(1.0)
    if xp1 == f32(1.0):
        return x
    log1 = _log_packet(xp1)
    return x if xp1 == log1 else x * (log1 / (xp1 - f32(1.0)))


def _log1p_scalar(a):
    return _flushed(math.log1p(a))


def _log1p_at(a, in_packet):
    return _log1p_packet(a) if in_packet else _log1p_scalar(a)


def _log1p(x, out):
    packed = x.size - x.size % PACKET
    for i in range(packed):
        out[i] = _log1p_packet(x[i])
    for i in range(packed, x.size):
        out[i] = _log1p_scalar(x[i])


def _elu(x, out):
    # A denormal is read as zero, so not below it: it passes as it is, as the positive inputs.
    packed = x.size - x.size % PACKET
    for i in range(x.size):
        a = x[i]
        if a <= -NORMAL_MIN:
            a = _exp_at(a, i < packed) - f32(1.0)
        out[i] = a


def _selu(x, out):
    packed = x.size - x.size % PACKET
    for i in range(x.size):
        a = x[i]
        if a <= -NORMAL_MIN:
            out[i] = SELU_SCALE_ALPHA * (_exp_at(a, i < packed) - f32(1.0))
        else:
            out[i] = SELU_SCALE * a if abs(a) >= NORMAL_MIN else f32(0.0) * a


def _softplus(x, out):
    # x where exp(x) + 1 rounds to exp(x), exp(x) where 1 + exp(x) rounds to 1, else log1p(exp(x)).
    packed = x.size - x.size % PACKET
    for i in range(x.size):
        a = x[i]
        if a > -SOFTPLUS_THRESHOLD:
            out[i] = a
        else:
            e = _exp_at(a, i < packed)
            out[i] = e if a < SOFTPLUS_THRESHOLD else _log1p_at(e, i < packed)


for _op_type, _fn in (("Exp", _exp), ("Log", _log), ("Log1p", _log1p), ("Tanh", _tanh), ("Sigmoid", _logistic),
                      ("Elu", _elu), ("Selu", _selu), ("Softplus", _softplus)):
    _op_kernel(_op_type, _fn)


def _reduced_shape(shape, reduced):
    """TensorFlow's reshaping of a reduction of an array of ``shape`` over the axes ``reduced``:
    ``(kind, outer, inner)``, kind "all", "rows" (the reduced axes last) or "columns" (first), after
    dropping axes of size 1 and merging neighbours reduced or kept alike; None for another pattern."""
    merged = []
    for i, size in enumerate(shape):
        if size == 1:
            continue
        if merged and merged[-1][1] == (i in reduced):
            merged[-1][0] *= size
        else:
            merged.append([size, i in reduced])
    if all(is_reduced for _, is_reduced in merged):
        return "all", 1, math.prod(shape)
    if len(merged) == 2:
        (first, first_reduced), (second, _) = merged
        return ("columns", first, second) if first_reduced else ("rows", first, second)
    return None


def _sum_or_mean(op_type):
    def kernel(ctx, x, axes=None):
        axis = reduction_axes(ctx, x, axes)
        fits = (x.__class__ is np.ndarray and x.dtype == _FLOAT32 and x.ndim > 0 and x.size > 0 and axis != ()
                and (axis is None or (all(-x.ndim <= a < x.ndim for a in axis)  # else the reference's error
                                      and len({a % x.ndim for a in axis}) == len(axis))))
        reduced = set(range(x.ndim)) if axis is None or not fits else {a % x.ndim for a in axis}
        kind = _reduced_shape(x.shape, reduced) if fits else None
        if kind is None:
            return registry.reference(op_type)(ctx, x, *(() if axes is None else (axes,)))
        how, outer, inner = kind
        flat = np.ascontiguousarray(x).reshape(-1)
        if how == "columns":
            out = np.empty(inner, np.float32)
            compiled(column_sums)(flat.reshape(outer, inner), out)
        else:
            out = np.empty(outer, np.float32)
            compiled(row_sums)(flat, inner, out)
        if op_type == "Mean":
            out /= f32(outer if how == "columns" else inner)
        if ctx.attrs["keep_dims"]:
            return out.reshape([1 if i in reduced else d for i, d in enumerate(x.shape)])
        return out.reshape([d for i, d in enumerate(x.shape) if i not in reduced])

    register(op_type)(kernel)


for _op_type in ("Sum", "Mean"):
    _sum_or_mean(_op_type)



@register("LogSoftmax")
def log_softmax_kernel(ctx, logits):
    if logits.__class__ is not np.ndarray or logits.dtype != _FLOAT32 or logits.ndim == 0 or logits.size == 0:
        return registry.reference("LogSoftmax")(ctx, logits)
    rows = np.ascontiguousarray(logits).reshape(-1, logits.shape[-1])
    out = np.empty(rows.shape, np.float32)
    compiled(log_softmax)(rows, out)
    return out.reshape(logits.shape)
