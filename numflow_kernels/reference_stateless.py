"""Kernels of the stateless random ops (``numflow/ops/stateless_random_ops.py``), as TensorFlow's
``stateless_random_ops_v2.cc``: the seed is scrambled by one Philox call into a key and a counter, and the
values are those of the stateful random kernels for that key and counter (``numflow_kernels/cpu/init.py``)."""

import numpy as np

from numflow_kernels.reference_math import kernel

_M32 = 0xFFFFFFFF
_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)


def key_and_counter(seed):
    """``(key, high 64 bits of the counter)`` of the Philox stream of a ``[2]`` seed (its low bits are 0)."""
    if seed.shape != (2,):
        raise ValueError(f"seed must have shape [2], not {list(seed.shape)}")
    from numflow_kernels import philox  # Numba: loaded when a stateless op first runs

    s0, s1 = (int(s) & 0xFFFFFFFFFFFFFFFF for s in seed)
    words = (s0 & _M32, s0 >> 32, s1 & _M32, s1 >> 32, *_SCRAMBLE_KEY)
    m0, m1, m2, m3 = (int(w) for w in philox.philox4x32_10(*(np.uint64(w) for w in words)))
    return m0 | m1 << 32, m2 | m3 << 32


@kernel("StatelessRandomGetKeyCounter")
def get_key_counter(ctx, seed):
    key, counter = key_and_counter(seed)
    return np.array([key], np.uint64), np.array([0, counter], np.uint64)


def _draw(ctx, shape, key, counter, alg, fill, dtype, *params):
    if int(alg) != 1:
        raise ValueError(f"Unsupported algorithm id: {int(alg)} (numflow draws with Philox, id 1)")
    out = np.empty(int(np.prod(shape)), dtype)
    if out.size:
        from numflow_kernels.cpu import init

        getattr(init, fill)(out, int(key[0]), int(counter[1]), *params, counter=int(counter[0]))
    return out.reshape(tuple(int(d) for d in shape))


@kernel("StatelessRandomUniformV2")
def uniform(ctx, shape, key, counter, alg):
    return _draw(ctx, shape, key, counter, alg, "random_uniform", ctx.attrs["dtype"])


@kernel("StatelessRandomNormalV2")
def normal(ctx, shape, key, counter, alg):
    return _draw(ctx, shape, key, counter, alg, "random_normal", ctx.attrs["dtype"])


@kernel("StatelessTruncatedNormalV2")
def truncated_normal(ctx, shape, key, counter, alg):
    return _draw(ctx, shape, key, counter, alg, "truncated_normal", ctx.attrs["dtype"])


@kernel("StatelessRandomUniformIntV2")
def uniform_int(ctx, shape, key, counter, alg, minval, maxval):
    if minval.ndim or maxval.ndim:
        raise ValueError("minval and maxval must be scalars")
    if int(minval) >= int(maxval):
        raise ValueError(f"Need minval < maxval: {int(minval)} >= {int(maxval)}")
    return _draw(ctx, shape, key, counter, alg, "random_uniform_int", minval.dtype, int(minval), int(maxval))
