"""Philox4x32-10 and portable.py's float math: known answers, glibc's logf/sincosf, halves."""

import math
import platform
import sys

import numba
import numpy as np
import pytest

from numflow_kernels import philox as P
from numflow_kernels import portable

U = np.uint64


@pytest.mark.parametrize(
    "counter, key, expected",
    [  # Random123's known-answer vectors for philox4x32-10
        ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
         (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
    ],
)
def test_philox_known_answers(counter, key, expected):
    words = P.philox4x32_10(*(U(c) for c in counter), *(U(k) for k in key))
    assert tuple(int(w) for w in words) == expected


def test_stream_layout_follows_tensorflow():
    """Key = seed's halves, counter words 2 and 3 = seed2's halves, base = counter."""
    assert P.make_stream(2**40 + 5, 2**33 + 7, 9) == (U(5), U(256), U(7), U(2), U(9))
    assert P.make_stream(-1, -2)[:4] == (U(0xFFFFFFFF), U(0xFFFFFFFF), U(0xFFFFFFFE), U(0xFFFFFFFF))


def test_counter_carries_into_seed2_words():
    stream = P.make_stream(3, 0xFFFFFFFF, counter=2**64 - 1)
    carried = P.philox4x32_10(U(0), U(0), U(0), U(1), U(3), U(0))
    assert P.philox_at(stream, U(1)) == carried
    assert P.philox_at(stream, U(0)) == P.philox4x32_10(U(0xFFFFFFFF), U(0xFFFFFFFF), U(0xFFFFFFFF), U(0),
                                                         U(3), U(0))


def test_uint_conversions_match_tensorflows_bit_tricks():
    x = np.random.default_rng(0).integers(0, 2**32, 1000, dtype=np.uint64)
    as_float = ((x & 0x7FFFFF) | (127 << 23)).astype(np.uint32).view(np.float32) - np.float32(1.0)
    assert all(P.uint32_to_float(U(v)) == f for v, f in zip(x[:50], as_float[:50], strict=True))
    pairs = np.random.default_rng(1).integers(0, 2**32, (50, 2), dtype=np.uint64)
    for x0, x1 in pairs:
        bits = ((int(x0) & 0xFFFFF) << 32 | int(x1)) | (1023 << 52)
        assert P.uint64_to_double(U(x0), U(x1)) == np.array(bits, np.uint64).view(np.float64) - 1.0


@numba.njit(cache=True)
def _logf_both(x):
    mine, libm = np.empty_like(x), np.empty_like(x)
    for i in range(x.shape[0]):
        mine[i] = portable.logf(x[i])
        libm[i] = math.log(x[i])  # Numba calls the C library's logf for float32
    return mine, libm


@numba.njit(cache=True)
def _sincosf_both(x):
    mine, libm = np.empty((2, x.shape[0]), np.float32), np.empty((2, x.shape[0]), np.float32)
    for i in range(x.shape[0]):
        mine[0, i], mine[1, i] = portable.sincosf(x[i])
        libm[0, i], libm[1, i] = math.sin(x[i]), math.cos(x[i])
    return mine, libm


_GLIBC = sys.platform == "linux" and platform.libc_ver()[0] == "glibc" and \
    tuple(int(p) for p in platform.libc_ver()[1].split(".")[:2]) >= (2, 28)
_FMA = _GLIBC and platform.machine() == "x86_64" and "fma" in open("/proc/cpuinfo").read().split()


@pytest.mark.skipif(not _FMA, reason="compares with glibc >= 2.28's x86-64 FMA logf/sinf/cosf")
def test_logf_and_sincosf_are_glibcs_on_box_mullers_inputs():
    """Every 7th input Box-Muller can give them (the full sweep of 2^23 passes too; it is slower)."""
    m = np.arange(1, 2**23, 7, dtype=np.uint32)
    u = np.append(m.astype(np.float32) * np.float32(2.0**-23), np.float32(1e-7))
    mine, libm = _logf_both(u)
    np.testing.assert_array_equal(mine.view(np.uint32), libm.view(np.uint32))
    v = (2 * np.pi * (m.astype(np.float32) * np.float32(2.0**-23)).astype(np.float64)).astype(np.float32)
    v = np.concatenate([np.float32([0.0, 1e-9, 2.0**-12, 0.75, np.pi / 4]), v])
    mine, libm = _sincosf_both(v)
    np.testing.assert_array_equal(mine.view(np.uint32), libm.view(np.uint32))


@numba.njit(cache=True)
def _to_half(x):
    out = np.empty(x.shape[0], np.uint16)
    for i in range(x.shape[0]):
        out[i] = portable.f32_to_f16_bits(x[i])
    return out


@numba.njit(cache=True)
def _from_half(h):
    out = np.empty(h.shape[0], np.float32)
    for i in range(h.shape[0]):
        out[i] = portable.f16_bits_to_f32(np.int64(h[i]))
    return out


def test_half_conversions_round_to_nearest_even_as_numpy():
    bits = np.random.default_rng(2).integers(0, 2**32, 1 << 20, dtype=np.uint64).astype(np.uint32)
    edges = np.float32([0.0, -0.0, 65504, 65519.99, 65520, 65536, np.inf, -np.inf, 2.0**-24, 2.0**-25,
                        2.0**-25 * 1.0000001, 2.0**-14, 2.0**-14 * 0.99999, 1 + 2.0**-11, 1 + 3 * 2.0**-11])
    x = np.concatenate([bits.view(np.float32), edges])
    x = x[~np.isnan(x)]
    with np.errstate(over="ignore"):
        expected = x.astype(np.float16).view(np.uint16)
    np.testing.assert_array_equal(_to_half(x), expected)
    halves = np.arange(2**16, dtype=np.uint16)
    values = halves.view(np.float16).astype(np.float32)
    finite = ~np.isnan(values)
    np.testing.assert_array_equal(_from_half(halves)[finite].view(np.uint32), values[finite].view(np.uint32))
    assert np.isnan(_from_half(np.uint16([0x7E00]))[0])
    assert portable.f32_to_f16_bits(np.float32(np.nan)) & 0x7C00 == 0x7C00


def test_host_arguments_round_in_the_output_dtype():
    lo, scale = P.uniform_args(np.float16, -0.3, 2.5)
    assert lo == np.float32(np.float16(-0.3)) and scale == np.float32(np.float16(2.5) - np.float16(-0.3))
    assert P.uniform_args(np.float32, 1, 3) == (np.float32(1), np.float32(2))
    assert P.int_uniform_args(np.int32, -5, 10) == (-5, 15)
    with pytest.raises(ValueError, match=r"Need minval < maxval: 3 >= 1"):
        P.int_uniform_args(np.int64, 3, 1)
    with pytest.raises(ValueError, match="must fit int32"):
        P.int_uniform_args(np.int32, 0, 2**31)
    with pytest.raises(TypeError, match="not int32"):
        P.uniform_args(np.int32, 0, 1)
