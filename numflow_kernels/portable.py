"""Code written once for CPU and CUDA: how it is recompiled for a device, and float math that rounds alike.

A function decorated with :func:`shared` is plain Numba-compatible Python, compiled for the CPU
(``numba.njit``) where it is defined. :func:`device_functions` recompiles every such function, of
this module, ``philox.py`` and ``training_steps.py``, as CUDA device functions (or runs it under
Numba's CUDA simulator), with the names they call bound to each other's device versions. The few
operations whose meaning differs by target are injected as primitives: an exact fused multiply-add,
float32 bit casts, and multiplies that the CUDA compiler may not fuse into a following add (NVVM
fuses ``a * b + c`` by default, numba's CPU target never does). Everything else is IEEE arithmetic,
so the same inputs give the same bits on every device.

The float math here is what TensorFlow's random kernels need to be reproduced exactly:

- ``logf`` and ``sincosf``: glibc's (>= 2.28, from ARM's optimized-routines:
  ``sysdeps/ieee754/flt-32/e_logf.c``, ``s_sincosf.c``, ``sincosf.h``), with the fused
  multiply-adds of glibc's x86-64 FMA variants, which TensorFlow calls on a Linux CPU. They equal
  glibc's on every input Box-Muller gives them (``tests/kernels/test_philox.py`` checks).
- float16: conversions rounding to nearest even, and Eigen::half's arithmetic (each op in float32,
  rounded once), through integer bits, since Numba's CPU target has no float16.
- ``affine_*``: ``x * a + b`` with two roundings, as TensorFlow's separate Mul and Add ops.
"""

import functools
import sys
import threading
import types

import numba
import numpy as np
from llvmlite import ir
from numba.core import types as nbtypes
from numba.core.extending import intrinsic

__all__ = ["shared", "once", "device_functions", "logf", "sincosf", "f16_bits_to_f32", "f32_to_f16_bits", "round_f16",
           "add_f16_bits", "sub_f16_bits", "affine_f32", "affine_f64", "affine_f16"]

_F32_2M24 = np.float32(2.0**-24)

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
# Written once: compiled for the CPU here, for CUDA by device_functions().
# ---------------------------------------------------------------------------------------------

_SHARED = []  # (module name, function name), in definition order


def once(fn):
    """Memoize ``fn`` (no arguments); threads asking at the same time wait for one call."""
    lock, result = threading.Lock(), []

    @functools.wraps(fn)
    def first_result():
        if not result:
            with lock:
                if not result:
                    result.append(fn())
        return result[0]
    return first_result


def shared(fn=None, *, inline="never"):
    """Compile ``fn`` for the CPU (``numba.njit``), and register it for device_functions().

    ``inline="always"`` inlines it into callers at Numba's IR level (before LLVM), for the small
    helpers of hot loops whose calls LLVM would otherwise keep.
    """
    if fn is None:
        return functools.partial(shared, inline=inline)
    _SHARED.append((fn.__module__, fn.__name__))
    return numba.njit(inline=inline)(fn)


@shared
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


@shared
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


@shared
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


@shared
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


@shared
def round_f16(f):
    """``f`` rounded to the nearest half, as a float32."""
    return f16_bits_to_f32(f32_to_f16_bits(f))


@shared
def add_f16_bits(a, b):
    """Half bits of ``half(a) + half(b)`` computed as Eigen does: in float32, rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) + f16_bits_to_f32(b))


@shared
def sub_f16_bits(a, b):
    """Half bits of ``half(a) - half(b)``, in float32 and rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) - f16_bits_to_f32(b))


@shared
def mul_f16_bits(a, b):
    """Half bits of ``half(a) * half(b)``, in float32 and rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) * f16_bits_to_f32(b))


@shared
def div_f16_bits(a, b):
    """Half bits of ``half(a) / half(b)``, in float32 and rounded once."""
    return f32_to_f16_bits(f16_bits_to_f32(a) / f16_bits_to_f32(b))


@shared
def max_f16_bits(a, b):
    """``b`` when ``half(a) < half(b)``, else ``a`` (``std::max``: a NaN update leaves ``a``)."""
    return b if f16_bits_to_f32(a) < f16_bits_to_f32(b) else a


@shared
def min_f16_bits(a, b):
    """``b`` when ``half(b) < half(a)``, else ``a`` (``std::min``)."""
    return b if f16_bits_to_f32(b) < f16_bits_to_f32(a) else a


@shared
def affine_f32(x, scale, shift):
    """``x * scale + shift`` in float32 with two roundings (TensorFlow's Mul then Add)."""
    return _mul32(x, scale) + shift


@shared
def affine_f64(x, scale, shift):
    """``x * scale + shift`` in float64 with two roundings (TensorFlow's Mul then Add)."""
    return _mul64(x, scale) + shift


@shared
def affine_f16(x, scale, shift):
    """Half bits of ``half(x) * scale + shift`` with half rounding after each op, as Eigen::half."""
    return f32_to_f16_bits(round_f16(_mul32(round_f16(x), scale)) + shift)


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


@once
def device_functions():
    """A module holding every shared function (this module's, philox.py's and training_steps.py's) as device functions.

    Under ``NUMBA_ENABLE_CUDASIM=1`` they are the simulator's (plain Python, same arithmetic).
    Nothing compiles until a kernel that calls them does, so this works without a GPU.
    """
    from numba import config, cuda

    import numflow_kernels.philox  # noqa: F401
    import numflow_kernels.training_steps  # noqa: F401  (these register their shared functions before they are listed)

    space = {}
    for module_name in dict.fromkeys(module for module, _ in _SHARED):
        space.update(vars(sys.modules[module_name]))
    space.update(_simulator_primitives() if config.ENABLE_CUDASIM else _cuda_primitives())
    module = types.ModuleType("numflow_kernels.device", "The shared functions as CUDA device functions.")
    device = cuda.jit(device=True)
    for module_name, name in _SHARED:
        cpu = getattr(sys.modules[module_name], name).py_func
        fn = types.FunctionType(cpu.__code__, space, name, cpu.__defaults__, cpu.__closure__)
        fn.__doc__ = cpu.__doc__
        space[name] = device(fn)
        setattr(module, name, space[name])
    return module
