"""CUDA kernels that update a variable's device buffer in place: assign, assign_add/sub, and scatters.

Same functions, arguments and results as ``numflow_kernels.cpu.assign``, on Numba device arrays,
made the same way (two templates around the operator that combines a value with its update), and
the same values bit for bit: elementwise ops are IEEE adds (float16 through uint16 views and
portable.py's rounding helpers, as on the CPU); a scatter gives each thread one column and walks
the indices in order, so repeated indices add in the CPU's order, with no float atomics.

A scatter first checks every index on the device and copies one integer back (a synchronization)
before it writes, so a bad index leaves ``ref`` untouched. Nothing touches CUDA until the first
call: importing this module needs no GPU and no simulator (the kernels' ``cuda`` is a module
global because the simulator swaps those).
"""


import numpy as np
from numba import cuda  # importing it touches no driver: kernels compile at first launch

from numflow_kernels import philox
from numflow_kernels.cpu.assign import check_divisors
from numflow_kernels.cuda.init import launch_config
from numflow_kernels.portable import once

__all__ = ["assign", "assign_add", "assign_sub", "scatter_update", "scatter_add", "scatter_sub", "scatter_mul",
           "scatter_div", "scatter_max", "scatter_min"]


@once
def _kernels():
    D = philox.device_functions()

    @cuda.jit(device=True)
    def replace(value, update):
        return update

    @cuda.jit(device=True)
    def plus(value, update):
        return value + update

    @cuda.jit(device=True)
    def minus(value, update):
        return value - update

    @cuda.jit(device=True)
    def plus_f16(value, update):  # float16 bits, added as Eigen::half adds
        return D.add_f16_bits(np.int64(value), np.int64(update))

    @cuda.jit(device=True)
    def minus_f16(value, update):
        return D.sub_f16_bits(np.int64(value), np.int64(update))

    @cuda.jit(device=True)
    def times(value, update):
        return value * update

    @cuda.jit(device=True)
    def divide(value, update):
        return value / update

    @cuda.jit(device=True)
    def divide_int(value, update):  # C's integer division, toward zero (the caller rules out 0)
        quotient = value // update
        if quotient < 0 and quotient * update != value:
            quotient += 1
        return quotient

    @cuda.jit(device=True)
    def larger(value, update):
        return update if value < update else value

    @cuda.jit(device=True)
    def smaller(value, update):
        return update if update < value else value

    @cuda.jit(device=True)
    def times_f16(value, update):
        return D.mul_f16_bits(np.int64(value), np.int64(update))

    @cuda.jit(device=True)
    def divide_f16(value, update):
        return D.div_f16_bits(np.int64(value), np.int64(update))

    @cuda.jit(device=True)
    def larger_f16(value, update):
        return D.max_f16_bits(np.int64(value), np.int64(update))

    @cuda.jit(device=True)
    def smaller_f16(value, update):
        return D.min_f16_bits(np.int64(value), np.int64(update))

    def elementwise(combine):
        @cuda.jit
        def kernel(dst, src):
            for i in range(cuda.grid(1), dst.shape[0], cuda.gridsize(1)):
                dst[i] = combine(dst[i], src[i])
        return kernel

    def scatter(combine):
        @cuda.jit
        def kernel(ref, indices, updates):
            for j in range(cuda.grid(1), ref.shape[1], cuda.gridsize(1)):
                for k in range(indices.shape[0]):
                    row = indices[k]
                    ref[row, j] = combine(ref[row, j], updates[k, j])
        return kernel

    @cuda.jit
    def first_bad(indices, rows, result):
        for k in range(cuda.grid(1), indices.shape[0], cuda.gridsize(1)):
            if indices[k] < 0 or indices[k] >= rows:
                cuda.atomic.min(result, 0, k)

    return {
        "copy": elementwise(replace), "add": elementwise(plus), "sub": elementwise(minus),
        "add_f16": elementwise(plus_f16), "sub_f16": elementwise(minus_f16), "first_bad": first_bad,
        "scatter_update": (scatter(replace),) * 2,
        "scatter_add": (scatter(plus), scatter(plus_f16)),
        "scatter_sub": (scatter(minus), scatter(minus_f16)),
        "scatter_mul": (scatter(times), scatter(times_f16)),
        "scatter_div": (scatter(divide), scatter(divide_f16)),
        "scatter_max": (scatter(larger), scatter(larger_f16)),
        "scatter_min": (scatter(smaller), scatter(smaller_f16)),
        "scatter_div_int": scatter(divide_int),
        "to_device": cuda.to_device,
    }


def _is_device(a, ndim):
    return getattr(a, "ndim", None) == ndim and hasattr(a, "is_c_contiguous") and a.is_c_contiguous()


def _pair(dst, src, what):
    if not (_is_device(dst, 1) and _is_device(src, 1)):
        raise ValueError(f"{what} takes 1-D C-contiguous Numba device arrays; pass arr.reshape(-1)")
    if dst.dtype != src.dtype:
        raise TypeError(f"{what}: the value's dtype {src.dtype} is not the variable's {dst.dtype}")
    if dst.shape != src.shape:
        raise ValueError(f"{what}: {src.size} values for a variable of {dst.size} elements")


def _elementwise(name, dst, src):
    if dst.size:
        blocks, threads = launch_config(dst.size)
        _kernels()[name][blocks, threads](dst, src)


def assign(dst, src):
    """Copy device array ``src`` into ``dst`` (same dtype and length)."""
    _pair(dst, src, "assign")
    width = np.dtype(dst.dtype).itemsize
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(width, np.uint8)
    _elementwise("copy", dst.view(bits), src.view(bits))


def _arith(dst, what):
    if dst.dtype == np.bool_ or np.dtype(dst.dtype).kind not in "biufc":
        raise TypeError(f"{what} needs a numeric dtype, not {dst.dtype}")


def assign_add(dst, src):
    """``dst += src`` elementwise on the device."""
    _accumulate(dst, src, "assign_add", "add")


def assign_sub(dst, src):
    """``dst -= src`` elementwise on the device."""
    _accumulate(dst, src, "assign_sub", "sub")


def _accumulate(dst, src, what, kernel):
    """``kernel`` ("add" or "sub") of ``src`` into ``dst``; float16 through its bit-exact twin."""
    _pair(dst, src, what)
    _arith(dst, what)
    if dst.dtype == np.float16:
        _elementwise(kernel + "_f16", dst.view(np.uint16), src.view(np.uint16))
    else:
        _elementwise(kernel, dst, src)


def _scatter(what, ref, indices, updates):
    if not (_is_device(ref, 2) and _is_device(indices, 1) and _is_device(updates, 2)):
        raise ValueError(f"{what} takes C-contiguous Numba device arrays: ref [N, M], indices [K] "
                         "and updates [K, M]")
    if indices.dtype not in (np.int32, np.int64):
        raise TypeError(f"{what}: indices must be int32 or int64, not {indices.dtype}")
    if tuple(updates.shape) != (indices.shape[0], ref.shape[1]):
        raise ValueError(f"{what}: updates of shape {tuple(updates.shape)} do not match indices "
                         f"{tuple(indices.shape)} and ref {tuple(ref.shape)}")
    if updates.dtype != ref.dtype:
        raise TypeError(f"{what}: the updates' dtype {updates.dtype} is not the variable's {ref.dtype}")
    kernels = _kernels()
    count = indices.shape[0]
    if count == 0:
        return -1
    result = kernels["to_device"](np.array([count], np.int64))
    blocks, threads = launch_config(count)
    kernels["first_bad"][blocks, threads](indices, ref.shape[0], result)
    bad = int(result.copy_to_host()[0])
    if bad < count:
        return bad
    plain, half = kernels[what]
    if ref.dtype == np.float16:
        kernel, ref, updates = half, ref.view(np.uint16), updates.view(np.uint16)
    else:
        if what != "scatter_update":
            _arith(ref, what)
        kernel = plain
        if what == "scatter_div" and np.dtype(ref.dtype).kind in "iu":
            check_divisors(updates.copy_to_host())
            kernel = kernels["scatter_div_int"]
    if ref.shape[1]:
        blocks, threads = launch_config(ref.shape[1])
        kernel[blocks, threads](ref, indices, updates)
    return -1


def scatter_update(ref, indices, updates):
    """``ref[indices[k]] = updates[k]`` in index order; -1, or the first bad index's position."""
    return _scatter("scatter_update", ref, indices, updates)


def scatter_add(ref, indices, updates):
    """``ref[indices[k]] += updates[k]`` in index order; -1, or the first bad index's position."""
    return _scatter("scatter_add", ref, indices, updates)


def scatter_sub(ref, indices, updates):
    """``ref[indices[k]] -= updates[k]`` in index order; -1, or the first bad index's position."""
    return _scatter("scatter_sub", ref, indices, updates)


def scatter_mul(ref, indices, updates):
    """``ref[indices[k]] *= updates[k]`` in index order; -1, or the first bad index's position."""
    return _scatter("scatter_mul", ref, indices, updates)


def scatter_div(ref, indices, updates):
    """``ref[indices[k]] /= updates[k]`` in index order (integers toward zero); -1, or a bad position."""
    return _scatter("scatter_div", ref, indices, updates)


def scatter_max(ref, indices, updates):
    """``ref[indices[k]] = max(ref[indices[k]], updates[k])`` in index order; -1, or a bad position."""
    return _scatter("scatter_max", ref, indices, updates)


def scatter_min(ref, indices, updates):
    """``ref[indices[k]] = min(ref[indices[k]], updates[k])`` in index order; -1, or a bad position."""
    return _scatter("scatter_min", ref, indices, updates)
