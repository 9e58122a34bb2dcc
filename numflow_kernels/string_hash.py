"""The string hashes TensorFlow buckets with, bit for bit: ``fingerprint64`` (FarmHash's
``Fingerprint64``, that is ``farmhashna::Hash64``; op ``StringToHashBucketFast``), ``siphash24``
(SipHash-2-4 under a 128-bit key; op ``StringToHashBucketStrong``) and ``hash64`` (TensorFlow's own
MurmurHash2-64A variant; the legacy op ``StringToHashBucket``).

Spec: Google's ``farmhash.cc`` (namespace ``farmhashna``), Aumasson and Bernstein's SipHash paper and
TensorFlow's ``lib/hash/hash.cc``.
Python integers masked to 64 bits stand in for C's wrapping ``uint64_t`` arithmetic.
"""

import functools
import struct

_MASK = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _fetch64(data, at):
    return struct.unpack_from("<Q", data, at)[0]


def _fetch32(data, at):
    return struct.unpack_from("<I", data, at)[0]


def _rotate(value, shift):
    return value if shift == 0 else ((value >> shift) | (value << (64 - shift))) & _MASK


def _shift_mix(value):
    return value ^ (value >> 47)


def _hash_len16(u, v, mul):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _hash_len0to16(data):
    size = len(data)
    if size >= 8:
        mul = _K2 + size * 2
        a = (_fetch64(data, 0) + _K2) & _MASK
        b = _fetch64(data, size - 8)
        c = (_rotate(b, 37) * mul + a) & _MASK
        d = ((_rotate(a, 25) + b) * mul) & _MASK
        return _hash_len16(c, d, mul)
    if size >= 4:
        mul = _K2 + size * 2
        return _hash_len16(size + (_fetch32(data, 0) << 3), _fetch32(data, size - 4), mul)
    if size > 0:
        y = (data[0] + (data[size >> 1] << 8)) & 0xFFFFFFFF
        z = (size + (data[size - 1] << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _hash_len17to32(data):
    size = len(data)
    mul = _K2 + size * 2
    a = (_fetch64(data, 0) * _K1) & _MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, size - 8) * mul) & _MASK
    d = (_fetch64(data, size - 16) * _K2) & _MASK
    return _hash_len16((_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                       (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash_len33to64(data):
    size = len(data)
    mul = _K2 + size * 2
    a = (_fetch64(data, 0) * _K2) & _MASK
    b = _fetch64(data, 8)
    c = (_fetch64(data, size - 8) * mul) & _MASK
    d = (_fetch64(data, size - 16) * _K2) & _MASK
    y = (_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK
    z = _hash_len16(y, (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_fetch64(data, 16) * mul) & _MASK
    f = _fetch64(data, 24)
    g = ((y + _fetch64(data, size - 32)) * mul) & _MASK
    h = ((z + _fetch64(data, size - 24)) * mul) & _MASK
    return _hash_len16((_rotate((e + f) & _MASK, 43) + _rotate(g, 30) + h) & _MASK,
                       (e + _rotate((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak_hash_len32_with_seeds(data, at, a, b):
    w, x, y, z = struct.unpack_from("<4Q", data, at)
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(data):
    """FarmHash's ``Fingerprint64`` of the bytes ``data``, as an unsigned 64-bit Python int.

    Text repeats its words, and this Python hash costs about 1.5 us a string: the hashes of recent
    byte strings are kept.
    """
    return _recent_fingerprint64(data) if type(data) is bytes else _fingerprint64(data)


def _fingerprint64(data):
    size = len(data)
    if size <= 16:
        return _hash_len0to16(data)
    if size <= 32:
        return _hash_len17to32(data)
    if size <= 64:
        return _hash_len33to64(data)
    seed = 81
    y = (seed * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v, w = (0, 0), (0, 0)
    x = (seed * _K2 + _fetch64(data, 0)) & _MASK
    end = ((size - 1) // 64) * 64
    last64 = end + ((size - 1) & 63) - 63
    at = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(data, at + 8)) & _MASK, 37) * _K1) & _MASK
        y = (_rotate((y + v[1] + _fetch64(data, at + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w[1]
        y = (y + v[0] + _fetch64(data, at + 40)) & _MASK
        z = (_rotate((z + w[0]) & _MASK, 33) * _K1) & _MASK
        v = _weak_hash_len32_with_seeds(data, at, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak_hash_len32_with_seeds(data, at + 32, (z + w[1]) & _MASK, (y + _fetch64(data, at + 16)) & _MASK)
        z, x = x, z
        at += 64
        if at == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    at = last64
    w = ((w[0] + ((size - 1) & 63)) & _MASK, w[1])
    v = ((v[0] + w[0]) & _MASK, v[1])
    w = ((w[0] + v[0]) & _MASK, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(data, at + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotate((y + v[1] + _fetch64(data, at + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * 9) & _MASK
    y = (y + v[0] * 9 + _fetch64(data, at + 40)) & _MASK
    z = (_rotate((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak_hash_len32_with_seeds(data, at, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak_hash_len32_with_seeds(data, at + 32, (z + w[1]) & _MASK, (y + _fetch64(data, at + 16)) & _MASK)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _MASK,
                       (_hash_len16(v[1], w[1], mul) + x) & _MASK, mul)


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & _MASK
    v1 = _rotate(v1, 51) ^ v0  # rotate left by 13
    v0 = _rotate(v0, 32)
    v2 = (v2 + v3) & _MASK
    v3 = _rotate(v3, 48) ^ v2  # left by 16
    v0 = (v0 + v3) & _MASK
    v3 = _rotate(v3, 43) ^ v0  # left by 21
    v2 = (v2 + v1) & _MASK
    v1 = _rotate(v1, 47) ^ v2  # left by 17
    v2 = _rotate(v2, 32)
    return v0, v1, v2, v3


def siphash24(key0, key1, data):
    """SipHash-2-4 of the bytes ``data`` under the key words ``key0``, ``key1``, as an unsigned 64-bit int."""
    v0 = key0 ^ 0x736F6D6570736575
    v1 = key1 ^ 0x646F72616E646F6D
    v2 = key0 ^ 0x6C7967656E657261
    v3 = key1 ^ 0x7465646279746573
    size = len(data)
    tail = data[size - size % 8:]
    words = list(struct.unpack_from(f"<{size // 8}Q", data))
    words.append(int.from_bytes(tail, "little") | ((size & 0xFF) << 56))
    for m in words:
        v3 ^= m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= m
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def hash64(data, seed=0xDECAFCAFFE):
    """TensorFlow's ``Hash64`` of the bytes ``data``: MurmurHash2-64A, its tail bytes taken as unsigned."""
    mul, shift = 0xC6A4A7935BD1E995, 47
    size = len(data)
    h = (seed ^ (size * mul)) & _MASK
    for (k,) in struct.iter_unpack("<Q", data[:size - size % 8]):
        k = (k * mul) & _MASK
        k = ((k ^ (k >> shift)) * mul) & _MASK
        h = ((h ^ k) * mul) & _MASK
    tail = data[size - size % 8:]
    if tail:
        h = ((h ^ int.from_bytes(tail, "little")) * mul) & _MASK
    h = ((h ^ (h >> shift)) * mul) & _MASK
    return h ^ (h >> shift)


_recent_fingerprint64 = functools.lru_cache(maxsize=1 << 16)(_fingerprint64)
