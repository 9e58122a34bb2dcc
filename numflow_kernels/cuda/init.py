"""CUDA kernels that initialize a flat device buffer in place: fill, and TensorFlow's random distributions.

Same functions and arguments as ``numflow_kernels.cpu.init``, with ``out`` a 1-D C-contiguous
Numba device array (``numba.cuda.to_device(arr.reshape(-1))``). The values come from the same
code (``numflow_kernels/philox.py``, compiled as device functions), so a seed gives the CPU's bits:
exactly for every uniform, and for float16/float32 normal and truncated normal; float64 normals
use CUDA's libdevice log/sin/cos, which can differ from glibc's in the last bit.

Kernels are grid-stride loops over output groups (4 values per Philox call for 32-bit types,
2 for 64-bit ones; see philox.py); they launch asynchronously on the default stream. Nothing
touches CUDA until the first call: importing this module needs no GPU and no simulator (the
kernels' ``cuda`` is a module global because the simulator swaps those).
"""

import math

import numpy as np
from numba import cuda  # importing it touches no driver: kernels compile at first launch

from numflow_kernels import philox, tuning
from numflow_kernels.portable import once

__all__ = ["fill", "random_uniform", "random_normal", "truncated_normal", "random_uniform_int"]



def launch_config(items):
    """``(blocks, threads)`` for a grid-stride loop over ``items`` work items."""
    threads = max(1, min(tuning.CUDA_INIT_THREADS, items))
    return max(1, min(tuning.CUDA_MAX_BLOCKS, math.ceil(items / threads))), threads


@once
def _kernels():
    D = philox.device_functions()

    @cuda.jit
    def fill(out, value):
        for i in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
            out[i] = value

    def groups_of_4(group):
        @cuda.jit
        def kernel(out, stream, a, b):
            for g in range(cuda.grid(1), (out.shape[0] + 3) // 4, cuda.gridsize(1)):
                v0, v1, v2, v3 = group(stream, g, a, b)
                D.store4(out, 4 * g, v0, v1, v2, v3)
        return kernel

    def groups_of_2(group):
        @cuda.jit
        def kernel(out, stream, a, b):
            for g in range(cuda.grid(1), (out.shape[0] + 1) // 2, cuda.gridsize(1)):
                v0, v1 = group(stream, g, a, b)
                D.store2(out, 2 * g, v0, v1)
        return kernel

    f16, f32, f64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
    return {
        "fill": (fill, 1),
        "random_uniform": {f16: (groups_of_4(D.uniform_f16), 4), f32: (groups_of_4(D.uniform_f32), 4),
                           f64: (groups_of_2(D.uniform_f64), 2)},
        "random_normal": {f16: (groups_of_4(D.normal_f16), 4), f32: (groups_of_4(D.normal_f32), 4),
                          f64: (groups_of_2(D.normal_f64), 2)},
        "truncated_normal": {f16: (groups_of_4(D.truncated_f16), 4), f32: (groups_of_4(D.truncated_f32), 4),
                             f64: (groups_of_2(D.truncated_f64), 2)},
        "random_uniform_int": {np.dtype(np.int32): (groups_of_4(D.uniform_i32), 4),
                               np.dtype(np.int64): (groups_of_2(D.uniform_i64), 2)},
    }


def _flat(out, what):
    if getattr(out, "ndim", None) != 1 or not hasattr(out, "is_c_contiguous") or not out.is_c_contiguous():
        raise ValueError(f"{what} writes a 1-D C-contiguous Numba device array; pass "
                         "cuda.to_device(arr.reshape(-1))")
    return out.view(np.uint16) if out.dtype == np.float16 else out


def _launch(what, out, *args):
    flat = _flat(out, what)
    table = _kernels()[what]
    try:
        kernel, per = table[np.dtype(out.dtype)]
    except KeyError:
        names = ", ".join(str(d) for d in table)
        raise TypeError(f"{what} supports {names} outputs, not {out.dtype}") from None
    if out.size:
        blocks, threads = launch_config((out.size + per - 1) // per)
        kernel[blocks, threads](flat, *args)


def fill(out, value):
    """Set every element of the device array ``out`` to ``value`` cast to its dtype."""
    flat = _flat(out, "fill")
    if out.dtype == np.float16:
        value = np.float16(value).view(np.uint16)
    elif out.dtype == np.bool_:
        flat, value = out.view(np.uint8), np.uint8(bool(value))
    else:
        value = np.dtype(out.dtype).type(value)
    kernel, _ = _kernels()["fill"]
    if out.size:
        blocks, threads = launch_config(out.size)
        kernel[blocks, threads](flat, value)


def random_uniform(out, seed, seed2, minval=0.0, maxval=1.0, counter=0):
    """TensorFlow's ``random_uniform`` into a device array; see ``cpu.init.random_uniform``."""
    lo, scale = philox.uniform_args(out.dtype, minval, maxval)
    _launch("random_uniform", out, philox.make_stream(seed, seed2, counter), lo, scale)


def random_normal(out, seed, seed2, mean=0.0, stddev=1.0, counter=0):
    """TensorFlow's ``random_normal`` into a device array; see ``cpu.init.random_normal``."""
    mean, stddev = philox.normal_args(out.dtype, mean, stddev)
    _launch("random_normal", out, philox.make_stream(seed, seed2, counter), mean, stddev)


def truncated_normal(out, seed, seed2, mean=0.0, stddev=1.0, counter=0):
    """TensorFlow's ``truncated_normal`` into a device array; see ``cpu.init.truncated_normal``."""
    mean, stddev = philox.normal_args(out.dtype, mean, stddev, "truncated_normal")
    _launch("truncated_normal", out, philox.make_stream(seed, seed2, counter), mean, stddev)


def random_uniform_int(out, seed, seed2, minval, maxval, counter=0):
    """TensorFlow's ``RandomUniformInt`` into a device array; see ``cpu.init.random_uniform_int``."""
    lo, span = philox.int_uniform_args(out.dtype, minval, maxval)
    _launch("random_uniform_int", out, philox.make_stream(seed, seed2, counter), lo, span)
