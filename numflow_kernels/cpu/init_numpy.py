"""The CPU's init kernels in numpy: fills and uniform draws of small arrays with ``init.py``'s bits (so
no Numba is loaded for them), and the Orthogonal initializer's kernel.

``HostInit`` is the ``init`` kernel module the CPU gives ``buffer_ops``: arrays of fewer than
``tuning.NUMPY_MAX_ELEMENTS`` elements are filled, and drawn from the uniform distributions, by numpy code
that gives the same bits as ``numflow_kernels.cpu.init`` (TensorFlow's, see ``philox.py`` for the
spec), so a program that only initializes small variables (the guide's first examples) never
loads Numba; everything else goes to ``cpu.init``, imported when first needed.
"""

import numpy as np

from numflow_kernels import buffer_ops, tuning
from numflow_kernels.registry import register


@register("Orthogonal", calls_blas=True)
def orthogonal(ctx):
    init = _init()
    a = ctx.attrs
    shape = a["shape"]
    rows, cols = int(np.prod(shape[:-1])), shape[-1]
    flat = (max(rows, cols), min(rows, cols))
    # TensorFlow draws the normal matrix in the variable's dtype (so float32 variables get the same
    # draws as tf.random_normal), then factors it; the QR here runs in float64 and is rounded once.
    normal = np.empty(flat, dtype=a["dtype"])
    stream = buffer_ops.random_stream(ctx)
    init.random_normal(normal.reshape(-1), stream.seed, stream.seed2, counter=stream.reserve(normal.size))
    q, r = np.linalg.qr(normal.astype(np.float64))
    q *= np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    return (a["gain"] * q).reshape(shape).astype(a["dtype"])



_M32, _M64 = (1 << 32) - 1, (1 << 64) - 1
_U32, _MASK32 = np.uint64(32), np.uint64(_M32)
_PHILOX_M0, _PHILOX_M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_PHILOX_W0, _PHILOX_W1 = 0x9E3779B9, 0xBB67AE85


def philox_calls(seed, seed2, counter, calls):
    """Philox4x32-10 calls ``0 .. calls-1`` of the stream ``(seed, seed2)`` from ``counter``: four uint64
    arrays holding 32 bits each, the words of every call (``philox.philox_at``, vectorized)."""
    seed, seed2, base = int(seed) & _M64, int(seed2) & _M64, int(counter) & _M64
    j = np.arange(calls, dtype=np.uint64)
    lo = np.uint64(base) + j  # wraps as the 64-bit counter does
    c2 = np.uint64(seed2 & _M32) + (lo < j).astype(np.uint64)  # and carries into seed2, as Skip() does
    c3 = (np.uint64(seed2 >> 32) + (c2 >> _U32)) & _MASK32
    c2 &= _MASK32
    c0, c1 = lo & _MASK32, lo >> _U32
    k0, k1 = seed & _M32, seed >> 32
    for _ in range(10):
        p0, p1 = _PHILOX_M0 * c0, _PHILOX_M1 * c2
        c0, c1, c2, c3 = ((p1 >> _U32) ^ c1 ^ np.uint64(k0), p1 & _MASK32,
                          (p0 >> _U32) ^ c3 ^ np.uint64(k1), p0 & _MASK32)
        k0, k1 = (k0 + _PHILOX_W0) & _M32, (k1 + _PHILOX_W1) & _M32
    return c0, c1, c2, c3


def _interleave(out, values):
    """Write the per-call values (value k of call g goes to ``out[len(values) * g + k]``)."""
    out[:] = np.stack(values, axis=1).reshape(-1)[: out.size]


def _uniform_numpy(out, seed, seed2, minval, maxval, counter):
    dtype = out.dtype
    per_call = 2 if dtype == np.float64 else 4
    words = philox_calls(seed, seed2, counter, -(-out.size // per_call))
    if dtype == np.float32:
        lo, hi = np.float32(minval), np.float32(maxval)
        scale = hi - lo
        unit = [(w & np.uint64(0x7FFFFF)).astype(np.float32) * np.float32(2.0**-23) for w in words]
        _interleave(out, [u * scale + lo for u in unit])  # two roundings: TF's Mul, then Add
    elif dtype == np.float64:
        lo, hi = np.float64(minval), np.float64(maxval)
        scale = hi - lo
        unit = [((words[i] & np.uint64(0xFFFFF)) << _U32 | words[i + 1]).astype(np.float64) * 2.0**-52
                for i in (0, 2)]
        _interleave(out, [u * scale + lo for u in unit])
    else:  # float16: Eigen::half arithmetic, each op in float32 and rounded to half
        lo16, hi16 = np.float16(minval), np.float16(maxval)
        lo, scale = np.float32(lo16), np.float32(hi16 - lo16)
        unit = [(w & np.uint64(0x3FF)).astype(np.float32) * np.float32(2.0**-10) for w in words]
        _interleave(out, [((u.astype(np.float16).astype(np.float32) * scale).astype(np.float16).astype(np.float32)
                           + lo).astype(np.float16) for u in unit])


def _uniform_int_numpy(out, seed, seed2, minval, maxval, counter):
    lo, span = np.int64(minval), np.uint64(int(maxval) - int(minval))
    if out.dtype == np.int32:
        words = philox_calls(seed, seed2, counter, -(-out.size // 4))
        _interleave(out, [(lo + (w % span).astype(np.int64)).astype(np.int32) for w in words])
    else:
        words = philox_calls(seed, seed2, counter, -(-out.size // 2))
        bits = [words[0] | (words[1] << _U32), words[2] | (words[3] << _U32)]
        _interleave(out, [lo + (b % span).astype(np.int64) for b in bits])  # wraps, as in C


def _numpy_draw(out):
    """Whether to draw ``out`` with numpy: while it is small and Numba's kernels are not loaded yet
    (once they are, they are faster at any size). Either way the bits are the same."""
    return out.size < tuning.NUMPY_MAX_ELEMENTS and _LOADED is None


class HostInit:
    """``numflow_kernels.cpu.init`` (same functions and bits), with numpy code for small arrays."""

    @staticmethod
    def fill(out, value):
        if out.size >= tuning.NUMPY_MAX_ELEMENTS:
            return _init().fill(out, value)
        out.fill(bool(value) if out.dtype == np.bool_ else out.dtype.type(value))

    @staticmethod
    def random_uniform(out, seed, seed2, minval=0.0, maxval=1.0, counter=0):
        if not _numpy_draw(out) or out.dtype not in (np.float16, np.float32, np.float64):
            return _init().random_uniform(out, seed, seed2, minval, maxval, counter=counter)
        _uniform_numpy(out, seed, seed2, minval, maxval, counter)

    @staticmethod
    def random_uniform_int(out, seed, seed2, minval, maxval, counter=0):
        if not _numpy_draw(out) or out.dtype not in (np.int32, np.int64) or minval >= maxval:
            return _init().random_uniform_int(out, seed, seed2, minval, maxval, counter=counter)
        _uniform_int_numpy(out, seed, seed2, minval, maxval, counter)

    def __getattr__(self, name):  # the normal distributions
        return getattr(_init(), name)


_LOADED = None  # numflow_kernels.cpu.init, once a kernel needed it


def _init():
    global _LOADED
    if _LOADED is None:
        from numflow_kernels.cpu import init

        _LOADED = init
    return _LOADED
