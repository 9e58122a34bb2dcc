"""Philox4x32-10 and TensorFlow's random distributions, written once and compiled for CPU and CUDA.

Every function below marked ``@shared`` is plain Numba-compatible Python, compiled for the CPU
here and recompiled as CUDA device functions by ``device_functions()`` (see portable.py, which
also holds the float math they call). Philox words are carried as uint64 holding 32 bits, the
floats are IEEE float32/float64 arithmetic, so a seed gives the same bits on every device and
any thread count (float64 normals excepted, below).

Specs followed, and what "the same as TensorFlow" means:

- Philox4x32-10: Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011;
  layout from TensorFlow's ``tensorflow/core/lib/random/philox_random.h``: for op seeds
  ``(seed, seed2)`` the key is ``(seed lo32, seed hi32)``, counter words 2 and 3 are
  ``seed2``, and Philox call number ``j`` uses counter low 64 bits ``base + j`` (carrying into
  ``seed2`` as ``PhiloxRandom::Skip`` does). ``base`` is 0 the first time an op runs;
  TensorFlow's stateful ops advance it by ``RESERVED_PER_OUTPUT * num_elements`` per run.
- Conversions and distributions: ``random_distributions.h`` and ``random_distributions_utils.h``
  (Uint32ToFloat, Uint64ToDouble, Uint16ToHalf, BoxMullerFloat/Double with epsilon 1e-7,
  TruncatedNormalDistribution resampling outside 2 stddev, UniformDistribution<int32/int64>).
- Output layout: ``tensorflow/core/kernels/random_op_cpu.h``: output group ``g`` comes from
  Philox call ``g``; a truncated-normal group starts at call ``g * 256 * group / 4``.
- float32 log and sincos: TensorFlow calls glibc's ``logf`` and ``sincosf``; portable.py
  reproduces them, so float32 and float16 normals match TensorFlow on the CPU and on a GPU.
- float64 log, sin and cos call the target's libm (glibc on the CPU, as TensorFlow does;
  CUDA's libdevice on a GPU, which may differ in the last bit).

Random draws per output:

=====================  ================================  ==================================
distribution           float16 / float32 / int32         float64 / int64
=====================  ================================  ==================================
uniform                4 values per Philox call          2 values per call (64 bits each)
normal (Box-Muller)    4 values per call (2 pairs)       2 values per call (1 pair)
truncated normal       a group of 4 reserves 256 calls   a group of 2 reserves 128 calls;
                       and takes 2 uint32 per pair       one call per pair
=====================  ================================  ==================================

A truncated group accepts a value with probability 0.9545, so it uses about 1.05 calls.

Editing this file or portable.py: Numba's cache (``cache=True`` on the kernels in ``cpu/``) does
not follow calls into other files, so after changing code here delete ``numflow_kernels/cpu/__pycache__``
(``*.nbi``, ``*.nbc``) or the cached kernels keep the old arithmetic.
"""

import math

import numpy as np

from numflow_kernels.portable import affine_f16, affine_f32, affine_f64, device_functions, logf, shared, sincosf

__all__ = [
    "RESERVED_PER_OUTPUT",
    "make_stream",
    "uniform_args",
    "normal_args",
    "int_uniform_args",
    "device_functions",
]

RESERVED_PER_OUTPUT = 256  # TensorFlow reserves this many Philox samples per output per op run.

_M64 = (1 << 64) - 1
_M32 = (1 << 32) - 1

# uint64 constants: Philox words are carried in uint64 so that no target ever wraps a uint32.
_MASK32 = np.uint64(_M32)
_U32 = np.uint64(32)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_ZERO = np.uint64(0)
_PHILOX_M0 = np.uint64(0xD2511F53)
_PHILOX_M1 = np.uint64(0xCD9E8D57)
_PHILOX_W0 = np.uint64(0x9E3779B9)
_PHILOX_W1 = np.uint64(0xBB67AE85)
_MANT23 = np.uint64(0x7FFFFF)
_MANT20 = np.uint64(0xFFFFF)
_MANT10 = np.uint64(0x3FF)
TRUNCATED_CALLS_32 = np.uint64(RESERVED_PER_OUTPUT * 4 // 4)  # calls per group of 4
TRUNCATED_CALLS_64 = np.uint64(RESERVED_PER_OUTPUT * 2 // 4)  # calls per group of 2

_F32_2M23 = np.float32(2.0**-23)
_F32_2M10 = np.float32(2.0**-10)
_F64_2M52 = np.float64(2.0**-52)
_F32_EPSILON = np.float32(1.0e-7)  # BoxMullerFloat: "Do not send a really small number to log()"
_F64_EPSILON = np.float64(1.0e-7)
_F32_MINUS_TWO = np.float32(-2.0)
_F32_TWO = np.float32(2.0)
_F32_ZERO = np.float32(0.0)
_F64_TWO = np.float64(2.0)
_F64_ZERO = np.float64(0.0)
_TWO_PI = np.float64(2.0 * math.pi)  # "2.0f * M_PI" is a double


# ---------------------------------------------------------------------------------------------
# Shared device code: compiled for the CPU here, for CUDA by device_functions().
# ---------------------------------------------------------------------------------------------

@shared(inline="always")
def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Ten Philox rounds on the counter ``(c0, c1, c2, c3)`` under the key ``(k0, k1)``.

    Every word is a uint64 holding 32 bits; so is every word returned.
    """
    for _ in range(10):
        p0 = _PHILOX_M0 * c0
        p1 = _PHILOX_M1 * c2
        c0, c1, c2, c3 = (p1 >> _U32) ^ c1 ^ k0, p1 & _MASK32, (p0 >> _U32) ^ c3 ^ k1, p0 & _MASK32
        k0 = (k0 + _PHILOX_W0) & _MASK32
        k1 = (k1 + _PHILOX_W1) & _MASK32
    return c0, c1, c2, c3


@shared(inline="always")
def philox_at(stream, j):
    """The four words of Philox call number ``j`` (uint64) of ``stream`` (see make_stream)."""
    k0, k1, c2, c3, base = stream
    lo = base + j
    c2 = c2 + np.uint64(lo < j)  # the low 64 counter bits wrapped: carry on, as Skip() does
    c3 = (c3 + (c2 >> _U32)) & _MASK32
    c2 = c2 & _MASK32
    return philox4x32_10(lo & _MASK32, lo >> _U32, c2, c3, k0, k1)


@shared
def uint32_to_float(x):
    """Uint32ToFloat: 23 random mantissa bits as a float32 in [0, 1) (exact)."""
    return np.float32(x & _MANT23) * _F32_2M23


@shared
def uint64_to_double(x0, x1):
    """Uint64ToDouble: 20 bits of ``x0`` and 32 of ``x1`` as a float64 in [0, 1) (exact)."""
    return np.float64(((x0 & _MANT20) << _U32) | x1) * _F64_2M52


@shared
def uint16_to_half(x):
    """Uint16ToHalf: 10 random mantissa bits as a half in [0, 1), held exactly in a float32."""
    return np.float32(x & _MANT10) * _F32_2M10


@shared
def box_muller_f32(x0, x1):
    """BoxMullerFloat: two uint32 words to two standard normal float32 values."""
    u1 = uint32_to_float(x0)
    if u1 < _F32_EPSILON:
        u1 = _F32_EPSILON
    v1 = np.float32(_TWO_PI * np.float64(uint32_to_float(x1)))
    u2 = np.float32(math.sqrt(_F32_MINUS_TWO * logf(u1)))
    s, c = sincosf(v1)
    return s * u2, c * u2


@shared
def box_muller_f64(x0, x1, x2, x3):
    """BoxMullerDouble: four uint32 words to two standard normal float64 values."""
    u1 = uint64_to_double(x0, x1)
    if u1 < _F64_EPSILON:
        u1 = _F64_EPSILON
    v1 = _TWO_PI * uint64_to_double(x2, x3)
    u2 = math.sqrt(-2.0 * math.log(u1))
    return math.sin(v1) * u2, math.cos(v1) * u2


@shared(inline="always")
def put4(out, i, v0, v1, v2, v3):
    """Write ``v0..v3`` to ``out[i:i + 4]`` (all in range).

    Unsigned indices spare the negative-index fix-up that keeps loops from vectorizing.
    """
    j = np.uint64(i)
    out[j] = v0
    out[j + _ONE] = v1
    out[j + _TWO] = v2
    out[j + _THREE] = v3


@shared(inline="always")
def put2(out, i, v0, v1):
    """Write ``v0, v1`` to ``out[i:i + 2]`` (both in range)."""
    j = np.uint64(i)
    out[j] = v0
    out[j + _ONE] = v1


@shared(inline="always")
def store4(out, i, v0, v1, v2, v3):
    """Write ``v0..v3`` to ``out[i:i + 4]``, leaving out what falls past the end."""
    n = out.shape[0]
    out[i] = v0
    if i + 1 < n:
        out[i + 1] = v1
    if i + 2 < n:
        out[i + 2] = v2
    if i + 3 < n:
        out[i + 3] = v3


@shared(inline="always")
def store2(out, i, v0, v1):
    """Write ``v0, v1`` to ``out[i:i + 2]``, leaving out what falls past the end."""
    out[i] = v0
    if i + 1 < out.shape[0]:
        out[i + 1] = v1


# Distributions: output group g of each dtype. Floats come back already scaled (x * a + b).

@shared(inline="always")
def uniform_f32(stream, g, lo, scale):
    """Group ``g`` of 4 float32 uniforms in ``[lo, lo + scale)``."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (affine_f32(uint32_to_float(x0), scale, lo), affine_f32(uint32_to_float(x1), scale, lo),
            affine_f32(uint32_to_float(x2), scale, lo), affine_f32(uint32_to_float(x3), scale, lo))


@shared(inline="always")
def uniform_f16(stream, g, lo, scale):
    """Group ``g`` of 4 half uniforms (as bits); ``lo`` and ``scale`` are halves held in float32."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (affine_f16(uint16_to_half(x0), scale, lo), affine_f16(uint16_to_half(x1), scale, lo),
            affine_f16(uint16_to_half(x2), scale, lo), affine_f16(uint16_to_half(x3), scale, lo))


@shared(inline="always")
def uniform_f64(stream, g, lo, scale):
    """Group ``g`` of 2 float64 uniforms in ``[lo, lo + scale)``."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return affine_f64(uint64_to_double(x0, x1), scale, lo), affine_f64(uint64_to_double(x2, x3), scale, lo)


@shared(inline="always")
def uniform_i32(stream, g, lo, span):
    """Group ``g`` of 4 integers ``lo + x % span`` (int64 values that fit int32)."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (lo + np.int64(x0 % span), lo + np.int64(x1 % span),
            lo + np.int64(x2 % span), lo + np.int64(x3 % span))


@shared(inline="always")
def uniform_i64(stream, g, lo, span):
    """Group ``g`` of 2 int64 ``lo + bits % span``, with 64 random bits each (wrapping add)."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    b0 = x0 | (x1 << _U32)
    b1 = x2 | (x3 << _U32)
    return lo + np.int64(b0 % span), lo + np.int64(b1 % span)


@shared(inline="always")
def standard_normal_f32(stream, j):
    """The 4 standard normal float32 of Philox call ``j`` (uint64), unscaled."""
    x0, x1, x2, x3 = philox_at(stream, j)
    f0, f1 = box_muller_f32(x0, x1)
    f2, f3 = box_muller_f32(x2, x3)
    return f0, f1, f2, f3


@shared(inline="always")
def normal_f32(stream, g, mean, stddev):
    """Group ``g`` of 4 float32 normals."""
    f0, f1, f2, f3 = standard_normal_f32(stream, np.uint64(g))
    return (affine_f32(f0, stddev, mean), affine_f32(f1, stddev, mean),
            affine_f32(f2, stddev, mean), affine_f32(f3, stddev, mean))


@shared(inline="always")
def normal_f16(stream, g, mean, stddev):
    """Group ``g`` of 4 half normals (as bits): BoxMullerFloat rounded to half."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    f0, f1 = box_muller_f32(x0, x1)
    f2, f3 = box_muller_f32(x2, x3)
    return (affine_f16(f0, stddev, mean), affine_f16(f1, stddev, mean),
            affine_f16(f2, stddev, mean), affine_f16(f3, stddev, mean))


@shared(inline="always")
def standard_normal_f64(stream, j):
    """The 2 standard normal float64 of Philox call ``j`` (uint64), unscaled."""
    x0, x1, x2, x3 = philox_at(stream, j)
    return box_muller_f64(x0, x1, x2, x3)


@shared(inline="always")
def normal_f64(stream, g, mean, stddev):
    """Group ``g`` of 2 float64 normals."""
    d0, d1 = standard_normal_f64(stream, np.uint64(g))
    return affine_f64(d0, stddev, mean), affine_f64(d1, stddev, mean)


@shared(inline="always")
def _keep(f, limit, count, v0, v1, v2, v3):
    """Put ``f`` in slot ``count`` if ``|f| < limit``; return the new count and slots."""
    if -limit < f < limit:
        if count == 0:
            v0 = f
        elif count == 1:
            v1 = f
        elif count == 2:
            v2 = f
        else:
            v3 = f
        count += 1
    return count, v0, v1, v2, v3


@shared
def truncated_rest_f32(stream, j, f0, f1, f2, f3):
    """Finish a truncated group whose first Philox call ``j`` gave the normals ``f0..f3``.

    Keeps those within (-2, 2) in order, then draws from calls ``j + 1, ...`` (2 uint32 per
    Box-Muller pair) until 4 are kept; returns them unscaled, as float32.
    """
    count = 0
    v0 = v1 = v2 = v3 = _F32_ZERO
    count, v0, v1, v2, v3 = _keep(f0, _F32_TWO, count, v0, v1, v2, v3)
    count, v0, v1, v2, v3 = _keep(f1, _F32_TWO, count, v0, v1, v2, v3)
    count, v0, v1, v2, v3 = _keep(f2, _F32_TWO, count, v0, v1, v2, v3)
    count, v0, v1, v2, v3 = _keep(f3, _F32_TWO, count, v0, v1, v2, v3)
    while count < 4:
        j += _ONE
        x0, x1, x2, x3 = philox_at(stream, j)
        f0, f1 = box_muller_f32(x0, x1)
        count, v0, v1, v2, v3 = _keep(f0, _F32_TWO, count, v0, v1, v2, v3)
        if count == 4:
            break
        count, v0, v1, v2, v3 = _keep(f1, _F32_TWO, count, v0, v1, v2, v3)
        if count == 4:
            break
        f2, f3 = box_muller_f32(x2, x3)
        count, v0, v1, v2, v3 = _keep(f2, _F32_TWO, count, v0, v1, v2, v3)
        if count == 4:
            break
        count, v0, v1, v2, v3 = _keep(f3, _F32_TWO, count, v0, v1, v2, v3)
    return v0, v1, v2, v3


@shared
def truncated_raw_f32(stream, g):
    """Group ``g`` of 4 standard normals within (-2, 2), before scaling, as float32."""
    j = np.uint64(g) * TRUNCATED_CALLS_32
    f0, f1, f2, f3 = standard_normal_f32(stream, j)
    return truncated_rest_f32(stream, j, f0, f1, f2, f3)


@shared(inline="always")
def truncated_f32(stream, g, mean, stddev):
    """Group ``g`` of 4 float32 truncated normals."""
    v0, v1, v2, v3 = truncated_raw_f32(stream, g)
    return (affine_f32(v0, stddev, mean), affine_f32(v1, stddev, mean),
            affine_f32(v2, stddev, mean), affine_f32(v3, stddev, mean))


@shared(inline="always")
def truncated_f16(stream, g, mean, stddev):
    """Group ``g`` of 4 half truncated normals (as bits); accepted in float32, then rounded."""
    v0, v1, v2, v3 = truncated_raw_f32(stream, g)
    return (affine_f16(v0, stddev, mean), affine_f16(v1, stddev, mean),
            affine_f16(v2, stddev, mean), affine_f16(v3, stddev, mean))


@shared(inline="always")
def truncated_f64(stream, g, mean, stddev):
    """Group ``g`` of 2 float64 truncated normals: one Philox call per Box-Muller pair."""
    j = np.uint64(g) * TRUNCATED_CALLS_64
    count = 0
    v0 = v1 = _F64_ZERO
    while count < 2:
        x0, x1, x2, x3 = philox_at(stream, j)
        j += _ONE
        d0, d1 = box_muller_f64(x0, x1, x2, x3)
        count, v0, v1, _, _ = _keep(d0, _F64_TWO, count, v0, v1, v1, v1)
        if count == 2:
            break
        count, v0, v1, _, _ = _keep(d1, _F64_TWO, count, v0, v1, v1, v1)
    return affine_f64(v0, stddev, mean), affine_f64(v1, stddev, mean)


# ---------------------------------------------------------------------------------------------
# Host-side helpers shared by cpu/ and cuda/: the stream and each distribution's scalars.
# ---------------------------------------------------------------------------------------------

def make_stream(seed, seed2, counter=0):
    """The Philox stream of TensorFlow's op seeds: ``(key lo, key hi, seed2 lo, seed2 hi, base)``.

    Parameters
    ----------
    seed, seed2 : int
        The op's ``seed`` and ``seed2`` attributes (int64; negative values wrap as in C++).
        TensorFlow replaces ``(0, 0)`` with fresh random seeds; that choice is the caller's.
    counter : int
        Philox counter (low 64 bits) of the first call: 0 on an op's first run; TensorFlow adds
        ``RESERVED_PER_OUTPUT * num_elements`` per run of the same stateful op.

    >>> make_stream(1, 2)[:4]
    (np.uint64(1), np.uint64(0), np.uint64(2), np.uint64(0))
    """
    s, s2, c = int(seed) & _M64, int(seed2) & _M64, int(counter) & _M64
    return (np.uint64(s & _M32), np.uint64(s >> 32), np.uint64(s2 & _M32), np.uint64(s2 >> 32), np.uint64(c))


def _scalar(dtype, value, what):
    if dtype == np.float16:  # halves travel as the float32 holding the same value
        return np.float32(np.float16(value))
    if dtype in (np.float32, np.float64):
        return dtype.type(value)
    raise TypeError(f"{what} supports float16, float32 and float64 outputs, not {dtype}")


def uniform_args(dtype, minval, maxval):
    """``(lo, scale)`` for ``random_uniform`` in ``dtype``: ``maxval - minval`` is rounded in it."""
    dtype = np.dtype(dtype)
    lo, hi = _scalar(dtype, minval, "random_uniform"), _scalar(dtype, maxval, "random_uniform")
    if dtype == np.float16:
        return lo, np.float32(np.float16(hi) - np.float16(lo))
    return lo, hi - lo


def normal_args(dtype, mean, stddev, what="random_normal"):
    """``(mean, stddev)`` as the kernels of ``dtype`` take them."""
    dtype = np.dtype(dtype)
    return _scalar(dtype, mean, what), _scalar(dtype, stddev, what)


def int_uniform_args(dtype, minval, maxval):
    """``(lo, span)`` for ``random_uniform_int``; raises TensorFlow's message unless lo < hi."""
    dtype = np.dtype(dtype)
    if dtype not in (np.int32, np.int64):
        raise TypeError(f"random_uniform_int supports int32 and int64 outputs, not {dtype}")
    lo, hi = int(minval), int(maxval)
    info = np.iinfo(dtype)
    if not (info.min <= lo <= info.max and info.min <= hi <= info.max):
        raise ValueError(f"minval {lo} and maxval {hi} must fit {dtype}")
    if lo >= hi:
        raise ValueError(f"Need minval < maxval: {lo} >= {hi}")
    return np.int64(lo), np.uint64(hi - lo)


