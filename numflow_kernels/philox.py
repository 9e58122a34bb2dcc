"""Philox4x32-10 and TensorFlow's random distributions, written once and compiled for CPU and CUDA.

Every function under "Shared device code" below is plain Numba-compatible Python. Each is
compiled for the CPU here (``numba.njit``), and :func:`device_functions` recompiles the same
code as CUDA device functions (or runs it under Numba's CUDA simulator). The handful of
operations whose meaning differs by target are injected as primitives: an exact fused
multiply-add, float32 bit casts, and multiplies that the CUDA compiler may not fuse into a
following add. Everything else is IEEE arithmetic on float32/float64 and integer arithmetic on
uint64, so a seed gives the same bits on every device and any thread count.

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
- float32 log and sincos: TensorFlow calls glibc's ``logf`` and ``sincosf`` (glibc >= 2.28,
  from ARM's optimized-routines: ``sysdeps/ieee754/flt-32/e_logf.c``, ``s_sincosf.c``). Their
  algorithms are reproduced here, with the fused multiply-adds of glibc's x86-64 FMA variants,
  and checked exhaustively against glibc over every input Box-Muller can give them.
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

Editing this file: Numba's cache (``cache=True`` on the kernels in ``cpu/``) does not follow
calls into other files, so after changing code here delete ``numflow_kernels/cpu/__pycache__``
(``*.nbi``, ``*.nbc``) or the cached kernels keep the old arithmetic.
"""

import functools
import math
import types

import numba
import numpy as np
from llvmlite import ir
from numba.core import types as nbtypes
from numba.core.extending import intrinsic

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
TRUNCATED_CALLS_32 = _TRUNC_CALLS_32 = np.uint64(RESERVED_PER_OUTPUT * 4 // 4)  # calls per group of 4
TRUNCATED_CALLS_64 = _TRUNC_CALLS_64 = np.uint64(RESERVED_PER_OUTPUT * 2 // 4)  # calls per group of 2

_F32_2M23 = np.float32(2.0**-23)
_F32_2M24 = np.float32(2.0**-24)
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

_H = float.fromhex
# glibc e_logf_data.c: 1/c and log(c) for 16 subintervals of [0x3f330000, 2 * 0x3f330000), ln2, poly.
_LOGF_INVC = np.array([_H(v) for v in (
    "0x1.661ec79f8f3bep+0", "0x1.571ed4aaf883dp+0", "0x1.49539f0f010bp+0", "0x1.3c995b0b80385p+0",
    "0x1.30d190c8864a5p+0", "0x1.25e227b0b8eap+0", "0x1.1bb4a4a1a343fp+0", "0x1.12358f08ae5bap+0",
    "0x1.0953f419900a7p+0", "0x1p+0", "0x1.e608cfd9a47acp-1", "0x1.ca4b31f026aap-1",
    "0x1.b2036576afce6p-1", "0x1.9c2d163a1aa2dp-1", "0x1.886e6037841edp-1", "0x1.767dcf5534862p-1",
)])
_LOGF_LOGC = np.array([_H(v) for v in (
    "-0x1.57bf7808caadep-2", "-0x1.2bef0a7c06ddbp-2", "-0x1.01eae7f513a67p-2", "-0x1.b31d8a68224e9p-3",
    "-0x1.6574f0ac07758p-3", "-0x1.1aa2bc79c81p-3", "-0x1.a4e76ce8c0e5ep-4", "-0x1.1973c5a611cccp-4",
    "-0x1.252f438e10c1ep-5", "0x0p+0", "0x1.aa5aa5df25984p-5", "0x1.c5e53aa362eb4p-4",
    "0x1.526e57720db08p-3", "0x1.bc2860d22477p-3", "0x1.1058bc8a07ee1p-2", "0x1.4043057b6ee09p-2",
)])
_LOGF_LN2 = _H("0x1.62e42fefa39efp-1")
_LOGF_A0, _LOGF_A1, _LOGF_A2 = _H("-0x1.00ea348b88334p-2"), _H("0x1.5575b0be00b6ap-2"), _H("-0x1.ffffef20a4123p-2")
# glibc s_sincosf_data.c, x86-64 (no TOINT_INTRINSICS: 2/pi is prescaled by 2^24).
_SC_HPI_INV, _SC_HPI = _H("0x1.45F306DC9C883p+23"), _H("0x1.921FB54442D18p0")
_SC_C1, _SC_C2 = _H("-0x1.ffffffd0c621cp-2"), _H("0x1.55553e1068f19p-5")
_SC_C3, _SC_C4 = _H("-0x1.6c087e89a359dp-10"), _H("0x1.99343027bf8c3p-16")
_SC_S1, _SC_S2, _SC_S3 = _H("-0x1.555545995a603p-3"), _H("0x1.1107605230bc4p-7"), _H("-0x1.994eb3774cf24p-13")


# ---------------------------------------------------------------------------------------------
# Target primitives, CPU versions. device_functions() swaps in the CUDA or simulator ones.
# ---------------------------------------------------------------------------------------------

@intrinsic
def _fma(typingctx, a, b, c):
    """``a * b + c`` rounded once (llvm.fma.f64)."""
    def codegen(context, builder, signature, args):
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        return builder.call(fn, args)
    return nbtypes.float64(nbtypes.float64, nbtypes.float64, nbtypes.float64), codegen


@intrinsic
def _f32_bits(typingctx, x):
    """The IEEE bits of a float32, as uint32."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(32))
    return nbtypes.uint32(nbtypes.float32), codegen


@intrinsic
def _bits_f32(typingctx, x):
    """The float32 with these IEEE bits."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())
    return nbtypes.float32(nbtypes.uint32), codegen


@numba.njit
def _mul32(a, b):
    """float32 product that is never fused into a following add (plain on the CPU)."""
    return a * b


@numba.njit
def _mul64(a, b):
    """float64 product that is never fused into a following add (plain on the CPU)."""
    return a * b


@numba.njit(cache=True)
def _fma_host(a, b, c):
    """The exact fma, callable from Python (the CUDA simulator's primitive)."""
    return _fma(a, b, c)


# ---------------------------------------------------------------------------------------------
# Shared device code: compiled for the CPU here, for CUDA by device_functions().
# ---------------------------------------------------------------------------------------------

_SHARED = []


def _shared(fn=None, *, inline="never"):
    """Compile ``fn`` for the CPU, and remember it for device_functions()."""
    if fn is None:
        return functools.partial(_shared, inline=inline)
    _SHARED.append(fn.__name__)
    return numba.njit(inline=inline)(fn)


@_shared(inline="always")
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


@_shared(inline="always")
def philox_at(stream, j):
    """The four words of Philox call number ``j`` (uint64) of ``stream`` (see make_stream)."""
    k0, k1, c2, c3, base = stream
    lo = base + j
    c2 = c2 + np.uint64(lo < j)  # the low 64 counter bits wrapped: carry on, as Skip() does
    c3 = (c3 + (c2 >> _U32)) & _MASK32
    c2 = c2 & _MASK32
    return philox4x32_10(lo & _MASK32, lo >> _U32, c2, c3, k0, k1)


@_shared
def uint32_to_float(x):
    """Uint32ToFloat: 23 random mantissa bits as a float32 in [0, 1) (exact)."""
    return np.float32(x & _MANT23) * _F32_2M23


@_shared
def uint64_to_double(x0, x1):
    """Uint64ToDouble: 20 bits of ``x0`` and 32 of ``x1`` as a float64 in [0, 1) (exact)."""
    return np.float64(((x0 & _MANT20) << _U32) | x1) * _F64_2M52


@_shared
def uint16_to_half(x):
    """Uint16ToHalf: 10 random mantissa bits as a half in [0, 1), held exactly in a float32."""
    return np.float32(x & _MANT10) * _F32_2M10


@_shared
def logf(x):
    """glibc's logf for a positive normal float32 (ARM optimized-routines, FMA variant)."""
    ix = np.int64(_f32_bits(x))
    tmp = ix - 0x3F330000
    i = (tmp >> 19) & 15
    k = tmp >> 23
    z = np.float64(_bits_f32(np.uint32(ix - (tmp & 0xFF800000))))
    r = _fma(z, _LOGF_INVC[i], -1.0)
    y0 = _fma(np.float64(k), _LOGF_LN2, _LOGF_LOGC[i])
    r2 = r * r
    y = _fma(_LOGF_A1, r, _LOGF_A2)
    y = _fma(_LOGF_A0, r2, y)
    y = _fma(y, r2, y0 + r)
    return np.float32(y)


@_shared
def sincosf(y):
    """glibc's sincosf for a float32 in [0, 120): returns ``(sin y, cos y)`` as float32."""
    x = np.float64(y)
    # reduce_fast: n = round(y * 2/pi), x = y - n * pi/2 in one fma. Below pi/4, where glibc
    # skips it, it gives n = 0 and x = y exactly; no branch lets the loop around this vectorize.
    n = (np.int32(x * _SC_HPI_INV) + 0x800000) >> 24
    x = _fma(-np.float64(n), _SC_HPI, x)
    sign = -1.0 if (n + 1) & 2 else 1.0  # the sine's sign in quadrants 0..3: + - - +
    neg = -1.0 if n & 2 else 1.0  # the second table negates the cosine polynomial
    xs = x * sign
    x2 = x * x
    x3 = x2 * xs
    x4 = x2 * x2
    c2 = _fma(x2, neg * _SC_C4, neg * _SC_C3)
    s1 = _fma(x2, _SC_S3, _SC_S2)
    c1 = _fma(x2, neg * _SC_C1, neg)
    s = _fma(x3, _SC_S1, xs)
    c = _fma(x4, neg * _SC_C2, c1)
    sin_part = np.float32(_fma(x3 * x2, s1, s))
    cos_part = np.float32(_fma(x4 * x2, c2, c))
    if (np.int64(_f32_bits(y)) >> 20) & 0x7FF < 0x398:  # |y| < 2^-12 by the top 12 bits
        sin_part, cos_part = y, np.float32(1.0)
    if n & 1:
        return cos_part, sin_part
    return sin_part, cos_part


@_shared
def box_muller_f32(x0, x1):
    """BoxMullerFloat: two uint32 words to two standard normal float32 values."""
    u1 = uint32_to_float(x0)
    if u1 < _F32_EPSILON:
        u1 = _F32_EPSILON
    v1 = np.float32(_TWO_PI * np.float64(uint32_to_float(x1)))
    u2 = np.float32(math.sqrt(_F32_MINUS_TWO * logf(u1)))
    s, c = sincosf(v1)
    return s * u2, c * u2


@_shared
def box_muller_f64(x0, x1, x2, x3):
    """BoxMullerDouble: four uint32 words to two standard normal float64 values."""
    u1 = uint64_to_double(x0, x1)
    if u1 < _F64_EPSILON:
        u1 = _F64_EPSILON
    v1 = _TWO_PI * uint64_to_double(x2, x3)
    u2 = math.sqrt(-2.0 * math.log(u1))
    return math.sin(v1) * u2, math.cos(v1) * u2


@_shared
def f16_bits_to_f32(h):
    """The float32 value of half-precision bits ``h`` (an integer)."""
    e = (h >> 10) & 0x1F
    m = h & 0x3FF
    if e == 0:
        v = np.float32(m) * _F32_2M24
    elif e == 31:
        v = _bits_f32(np.uint32(0x7F800000 | (m << 13)))
    else:
        v = _bits_f32(np.uint32(((e + 112) << 23) | (m << 13)))
    if h & 0x8000:
        v = -v
    return v


@_shared
def f32_to_f16_bits(f):
    """Half-precision bits (int64) of a float32, rounded to nearest even, as Eigen::half does."""
    x = np.int64(_f32_bits(f))
    sign = (x >> 16) & 0x8000
    a = x & 0x7FFFFFFF
    if a >= 0x7F800000:  # inf, nan (kept quiet)
        return sign | (0x7E00 if a > 0x7F800000 else 0x7C00)
    if a >= 0x47800000:  # 65536 and above: inf
        return sign | 0x7C00
    if a >= 0x38800000:  # normal half: drop 13 mantissa bits, round, rebias by 112
        h = (a >> 13) - 0x1C000
        rem = a & 0x1FFF
        if rem > 0x1000 or (rem == 0x1000 and (h & 1) == 1):
            h += 1
        return sign | h
    e = a >> 23
    if e < 102:  # below 2^-25: zero
        return sign
    m = (a & 0x7FFFFF) | 0x800000
    shift = 126 - e
    h = m >> shift
    rem = m & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rem > half or (rem == half and (h & 1) == 1):
        h += 1
    return sign | h


@_shared
def round_f16(f):
    """``f`` rounded to the nearest half, as a float32."""
    return f16_bits_to_f32(f32_to_f16_bits(f))


@_shared
def add_f16_bits(a, b):
    """Half bits of ``half(a) + half(b)`` computed as Eigen does: in float32, rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) + f16_bits_to_f32(b))


@_shared
def sub_f16_bits(a, b):
    """Half bits of ``half(a) - half(b)``, in float32 and rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) - f16_bits_to_f32(b))


@_shared
def affine_f32(x, scale, shift):
    """``x * scale + shift`` in float32 with two roundings (TensorFlow's Mul then Add)."""
    return _mul32(x, scale) + shift


@_shared
def affine_f64(x, scale, shift):
    """``x * scale + shift`` in float64 with two roundings (TensorFlow's Mul then Add)."""
    return _mul64(x, scale) + shift


@_shared
def affine_f16(x, scale, shift):
    """Half bits of ``half(x) * scale + shift`` with half rounding after each op, as Eigen::half."""
    return f32_to_f16_bits(round_f16(_mul32(round_f16(x), scale)) + shift)


@_shared(inline="always")
def put4(out, i, v0, v1, v2, v3):
    """Write ``v0..v3`` to ``out[i:i + 4]`` (all in range).

    Unsigned indices spare the negative-index fix-up that keeps loops from vectorizing.
    """
    j = np.uint64(i)
    out[j] = v0
    out[j + _ONE] = v1
    out[j + _TWO] = v2
    out[j + _THREE] = v3


@_shared(inline="always")
def put2(out, i, v0, v1):
    """Write ``v0, v1`` to ``out[i:i + 2]`` (both in range)."""
    j = np.uint64(i)
    out[j] = v0
    out[j + _ONE] = v1


@_shared(inline="always")
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


@_shared(inline="always")
def store2(out, i, v0, v1):
    """Write ``v0, v1`` to ``out[i:i + 2]``, leaving out what falls past the end."""
    out[i] = v0
    if i + 1 < out.shape[0]:
        out[i + 1] = v1


# Distributions: output group g of each dtype. Floats come back already scaled (x * a + b).

@_shared(inline="always")
def uniform_f32(stream, g, lo, scale):
    """Group ``g`` of 4 float32 uniforms in ``[lo, lo + scale)``."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (affine_f32(uint32_to_float(x0), scale, lo), affine_f32(uint32_to_float(x1), scale, lo),
            affine_f32(uint32_to_float(x2), scale, lo), affine_f32(uint32_to_float(x3), scale, lo))


@_shared(inline="always")
def uniform_f16(stream, g, lo, scale):
    """Group ``g`` of 4 half uniforms (as bits); ``lo`` and ``scale`` are halves held in float32."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (affine_f16(uint16_to_half(x0), scale, lo), affine_f16(uint16_to_half(x1), scale, lo),
            affine_f16(uint16_to_half(x2), scale, lo), affine_f16(uint16_to_half(x3), scale, lo))


@_shared(inline="always")
def uniform_f64(stream, g, lo, scale):
    """Group ``g`` of 2 float64 uniforms in ``[lo, lo + scale)``."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return affine_f64(uint64_to_double(x0, x1), scale, lo), affine_f64(uint64_to_double(x2, x3), scale, lo)


@_shared(inline="always")
def uniform_i32(stream, g, lo, span):
    """Group ``g`` of 4 integers ``lo + x % span`` (int64 values that fit int32)."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    return (lo + np.int64(x0 % span), lo + np.int64(x1 % span),
            lo + np.int64(x2 % span), lo + np.int64(x3 % span))


@_shared(inline="always")
def uniform_i64(stream, g, lo, span):
    """Group ``g`` of 2 int64 ``lo + bits % span``, with 64 random bits each (wrapping add)."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    b0 = x0 | (x1 << _U32)
    b1 = x2 | (x3 << _U32)
    return lo + np.int64(b0 % span), lo + np.int64(b1 % span)


@_shared(inline="always")
def standard_normal_f32(stream, j):
    """The 4 standard normal float32 of Philox call ``j`` (uint64), unscaled."""
    x0, x1, x2, x3 = philox_at(stream, j)
    f0, f1 = box_muller_f32(x0, x1)
    f2, f3 = box_muller_f32(x2, x3)
    return f0, f1, f2, f3


@_shared(inline="always")
def normal_f32(stream, g, mean, stddev):
    """Group ``g`` of 4 float32 normals."""
    f0, f1, f2, f3 = standard_normal_f32(stream, np.uint64(g))
    return (affine_f32(f0, stddev, mean), affine_f32(f1, stddev, mean),
            affine_f32(f2, stddev, mean), affine_f32(f3, stddev, mean))


@_shared(inline="always")
def normal_f16(stream, g, mean, stddev):
    """Group ``g`` of 4 half normals (as bits): BoxMullerFloat rounded to half."""
    x0, x1, x2, x3 = philox_at(stream, np.uint64(g))
    f0, f1 = box_muller_f32(x0, x1)
    f2, f3 = box_muller_f32(x2, x3)
    return (affine_f16(f0, stddev, mean), affine_f16(f1, stddev, mean),
            affine_f16(f2, stddev, mean), affine_f16(f3, stddev, mean))


@_shared(inline="always")
def standard_normal_f64(stream, j):
    """The 2 standard normal float64 of Philox call ``j`` (uint64), unscaled."""
    x0, x1, x2, x3 = philox_at(stream, j)
    return box_muller_f64(x0, x1, x2, x3)


@_shared(inline="always")
def normal_f64(stream, g, mean, stddev):
    """Group ``g`` of 2 float64 normals."""
    d0, d1 = standard_normal_f64(stream, np.uint64(g))
    return affine_f64(d0, stddev, mean), affine_f64(d1, stddev, mean)


@_shared(inline="always")
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


@_shared
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


@_shared
def truncated_raw_f32(stream, g):
    """Group ``g`` of 4 standard normals within (-2, 2), before scaling, as float32."""
    j = np.uint64(g) * _TRUNC_CALLS_32
    f0, f1, f2, f3 = standard_normal_f32(stream, j)
    return truncated_rest_f32(stream, j, f0, f1, f2, f3)


@_shared(inline="always")
def truncated_f32(stream, g, mean, stddev):
    """Group ``g`` of 4 float32 truncated normals."""
    v0, v1, v2, v3 = truncated_raw_f32(stream, g)
    return (affine_f32(v0, stddev, mean), affine_f32(v1, stddev, mean),
            affine_f32(v2, stddev, mean), affine_f32(v3, stddev, mean))


@_shared(inline="always")
def truncated_f16(stream, g, mean, stddev):
    """Group ``g`` of 4 half truncated normals (as bits); accepted in float32, then rounded."""
    v0, v1, v2, v3 = truncated_raw_f32(stream, g)
    return (affine_f16(v0, stddev, mean), affine_f16(v1, stddev, mean),
            affine_f16(v2, stddev, mean), affine_f16(v3, stddev, mean))


@_shared(inline="always")
def truncated_f64(stream, g, mean, stddev):
    """Group ``g`` of 2 float64 truncated normals: one Philox call per Box-Muller pair."""
    j = np.uint64(g) * _TRUNC_CALLS_64
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


# ---------------------------------------------------------------------------------------------
# The same code as CUDA device functions.
# ---------------------------------------------------------------------------------------------

def _cuda_primitives():
    from numba import cuda
    from numba.cuda import libdevice

    def f32_bits(x):
        return np.uint32(libdevice.float_as_int(x))

    def bits_f32(u):
        return libdevice.int_as_float(np.int32(u))

    device = cuda.jit(device=True)
    return {"_fma": libdevice.fma, "_mul32": libdevice.fmul_rn, "_mul64": libdevice.dmul_rn,
            "_f32_bits": device(f32_bits), "_bits_f32": device(bits_f32)}


def _simulator_primitives():
    return {
        "_fma": _fma_host,
        "_mul32": lambda a, b: np.float32(a) * np.float32(b),
        "_mul64": lambda a, b: np.float64(a) * np.float64(b),
        "_f32_bits": lambda x: np.float32(x).view(np.uint32),
        "_bits_f32": lambda u: np.uint32(u).view(np.float32),
    }


@functools.cache
def device_functions():
    """A module holding the shared functions above as CUDA device functions.

    Under ``NUMBA_ENABLE_CUDASIM=1`` they are the simulator's (plain Python, same arithmetic).
    Nothing compiles until a kernel that calls them does, so this works without a GPU.
    """
    from numba import config, cuda

    space = dict(globals())
    space.update(_simulator_primitives() if config.ENABLE_CUDASIM else _cuda_primitives())
    module = types.ModuleType(__name__ + ".device", "The shared random functions as CUDA device functions.")
    device = cuda.jit(device=True)
    for name in _SHARED:
        cpu = globals()[name].py_func
        fn = types.FunctionType(cpu.__code__, space, name, cpu.__defaults__, cpu.__closure__)
        fn.__doc__ = cpu.__doc__
        space[name] = device(fn)
        setattr(module, name, space[name])
    return module
