"""CPU kernels that update a variable's buffer in place: assign, assign_add/sub, and the scatter family.

Spec: TensorFlow's ``Assign``/``AssignAdd``/``AssignSub`` (``dense_update_functor.h``: same shape
only; ``v.assign_add(1)`` on a [3] variable is rejected when the graph is built) and
``ScatterUpdate``/``ScatterAdd``/``ScatterSub``/``ScatterMul``/``ScatterDiv``/``ScatterMax``/``ScatterMin``
(``scatter_functor.h``: rows in index order, so a repeated index adds twice, and the last update of
a row wins; max and min are ``std::max``/``std::min``, so a NaN update leaves the value; integers
divide truncating toward zero, and a zero divisor is refused before anything is written).

The caller (a variable's handle) holds its lock. The kernels allocate nothing and release the GIL;
from ``tuning.PARALLEL_THRESHOLD`` elements on they run ``parallel=True``. Results never depend on
the thread count: elementwise ops are independent, and parallel scatters split the columns, so
each element still sees its updates in index order. float16 arithmetic rounds once per op, in
float32, as Eigen::half does (through uint16 views: Numba has no float16).

Each kernel is a variant of one of two templates, ``_elementwise`` and ``_scatter_rows``, around
the operator that combines a value with its update (``_replace``, ``_plus``, ``_minus`` and their
float16 twins), compiled and cached under a name of its own (``parallel.variant``).

Scatter kernels take ``ref`` as a 2-D [N, M] view, 1-D int32/int64 ``indices`` and ``updates`` of
shape [len(indices), M]. They check every index before writing anything, and return -1, or the
position of the first index outside [0, N) with ``ref`` untouched, so the caller can raise
TensorFlow's ``InvalidArgumentError("indices[1] = 7 is not in [0, 5)")``. (TensorFlow's CPU
kernel itself writes the rows before the bad index; numflow leaves the variable as it was.)
"""

import numba
import numpy as np
from numba import prange

from numflow_kernels import portable, tuning
from numflow_kernels.parallel import launch, launch_lock, variant
from numflow_kernels.tuning import PARALLEL_THRESHOLD

__all__ = ["assign", "assign_add", "assign_sub", "scatter_update", "scatter_add", "scatter_sub", "scatter_mul",
           "scatter_div", "scatter_max", "scatter_min"]

_COLUMN_BLOCK = tuning.SCATTER_COLUMN_BLOCK  # a global, which Numba freezes into the kernels


combine = None  # in each variant of the templates below, how a value meets its update (parallel.variant)


def _elementwise(dst, src):
    for i in prange(dst.shape[0]):
        j = np.uint64(i)  # unsigned: no negative-index fix-up, so the loop vectorizes
        dst[j] = combine(dst[j], src[j])


@numba.njit(nogil=True, cache=True)
def _first_bad(indices, rows):
    for k in range(indices.shape[0]):
        if indices[k] < 0 or indices[k] >= rows:
            return k
    return -1


def _scatter_rows(ref, indices, updates):
    bad = _first_bad(indices, ref.shape[0])
    if bad >= 0:
        return bad
    cols = ref.shape[1]
    for b in prange((cols + _COLUMN_BLOCK - 1) // _COLUMN_BLOCK):
        lo, hi = b * _COLUMN_BLOCK, min(cols, (b + 1) * _COLUMN_BLOCK)
        for k in range(indices.shape[0]):
            row = indices[k]
            for j in range(lo, hi):
                ref[row, j] = combine(ref[row, j], updates[k, j])
    return -1


@numba.njit(inline="always")
def _replace(value, update):
    return update


@numba.njit(inline="always")
def _plus(value, update):
    return value + update


@numba.njit(inline="always")
def _minus(value, update):
    return value - update


@numba.njit(inline="always")
def _times(value, update):
    return value * update


@numba.njit(inline="always")
def _divide(value, update):
    return value / update


@numba.njit(inline="always")
def _divide_int(value, update):  # C's integer division, toward zero (the caller rules out 0)
    quotient = value // update
    if quotient < 0 and quotient * update != value:
        quotient += 1
    return quotient


@numba.njit(inline="always")
def _larger(value, update):
    return update if value < update else value


@numba.njit(inline="always")
def _smaller(value, update):
    return update if update < value else value


@numba.njit(inline="always")
def _times_f16(value, update):
    return portable.mul_f16_bits(np.int64(value), np.int64(update))


@numba.njit(inline="always")
def _divide_f16(value, update):
    return portable.div_f16_bits(np.int64(value), np.int64(update))


@numba.njit(inline="always")
def _larger_f16(value, update):
    return portable.max_f16_bits(np.int64(value), np.int64(update))


@numba.njit(inline="always")
def _smaller_f16(value, update):
    return portable.min_f16_bits(np.int64(value), np.int64(update))


@numba.njit(inline="always")
def _plus_f16(value, update):  # float16 bits, added as Eigen::half adds
    return portable.add_f16_bits(np.int64(value), np.int64(update))


@numba.njit(inline="always")
def _minus_f16(value, update):
    return portable.sub_f16_bits(np.int64(value), np.int64(update))


def _made_with(template, combine):
    """The twin of ``template`` whose ``combine`` is ``combine``, named after it."""
    return variant(template, combine.py_func.__name__.lstrip("_"), combine=combine)


_F16 = np.dtype(np.float16)
_COPY, _ADD, _SUB, _ADD_F16, _SUB_F16 = (_made_with(_elementwise, fn)
                                         for fn in (_replace, _plus, _minus, _plus_f16, _minus_f16))
_SCATTER = {
    "scatter_update": (_made_with(_scatter_rows, _replace),) * 2,
    "scatter_add": (_made_with(_scatter_rows, _plus), _made_with(_scatter_rows, _plus_f16)),
    "scatter_sub": (_made_with(_scatter_rows, _minus), _made_with(_scatter_rows, _minus_f16)),
    "scatter_mul": (_made_with(_scatter_rows, _times), _made_with(_scatter_rows, _times_f16)),
    "scatter_div": (_made_with(_scatter_rows, _divide), _made_with(_scatter_rows, _divide_f16)),
    "scatter_max": (_made_with(_scatter_rows, _larger), _made_with(_scatter_rows, _larger_f16)),
    "scatter_min": (_made_with(_scatter_rows, _smaller), _made_with(_scatter_rows, _smaller_f16)),
}
_SCATTER_DIV_INT = _made_with(_scatter_rows, _divide_int)


def _pair(dst, src, what):
    for a in (dst, src):
        if not isinstance(a, np.ndarray) or a.ndim != 1 or not a.flags.c_contiguous:
            raise ValueError(f"{what} takes 1-D C-contiguous numpy arrays; pass arr.reshape(-1)")
    if dst.dtype != src.dtype:
        raise TypeError(f"{what}: the value's dtype {src.dtype} is not the variable's {dst.dtype}")
    if dst.shape != src.shape:
        raise ValueError(f"{what}: {src.size} values for a variable of {dst.size} elements")
    if not dst.flags.writeable:
        raise ValueError(f"{what} cannot write a read-only array")


def _arith(dst, what):
    if dst.dtype == np.bool_ or dst.dtype.kind not in "biufc":
        raise TypeError(f"{what} needs a numeric dtype, not {dst.dtype}")


def assign(dst, src):
    """Copy ``src`` into ``dst`` (same dtype and length, any dtype numpy can view as integers).

    >>> v = np.zeros(3, np.float32); assign(v, np.arange(3, dtype=np.float32)); v.tolist()
    [0.0, 1.0, 2.0]
    """
    _pair(dst, src, "assign")
    width = dst.dtype.itemsize
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(width, np.uint64)
    if width > 8 and width % 8:
        bits = np.uint8
    launch(_COPY, dst.nbytes // np.dtype(bits).itemsize, dst.view(bits), src.view(bits))


def assign_add(dst, src):
    """``dst += src`` elementwise (numeric dtypes; integers wrap as in C)."""
    _accumulate(dst, src, "assign_add", _ADD, _ADD_F16)


def assign_sub(dst, src):
    """``dst -= src`` elementwise (numeric dtypes; integers wrap as in C)."""
    _accumulate(dst, src, "assign_sub", _SUB, _SUB_F16)


def _accumulate(dst, src, what, kernels, f16_kernels):
    """``kernels`` over ``src`` into ``dst``; float16 through its bit-exact twins ``f16_kernels``."""
    _pair(dst, src, what)
    _arith(dst, what)
    if dst.dtype == _F16:
        launch(f16_kernels, dst.size, dst.view(np.uint16), src.view(np.uint16))
    else:
        launch(kernels, dst.size, dst, src)


def _scatter(what, ref, indices, updates):
    if not all(isinstance(a, np.ndarray) and a.flags.c_contiguous for a in (ref, indices, updates)):
        raise ValueError(f"{what} takes C-contiguous numpy arrays")
    if ref.ndim != 2 or indices.ndim != 1 or updates.ndim != 2:
        raise ValueError(f"{what} takes ref [N, M], indices [K] and updates [K, M]; "
                         f"got {ref.shape}, {indices.shape} and {updates.shape}")
    if indices.dtype not in (np.int32, np.int64):
        raise TypeError(f"{what}: indices must be int32 or int64, not {indices.dtype}")
    if updates.shape != (indices.shape[0], ref.shape[1]):
        raise ValueError(f"{what}: updates of shape {updates.shape} do not match indices {indices.shape} "
                         f"and ref {ref.shape}; expected {(indices.shape[0], ref.shape[1])}")
    if updates.dtype != ref.dtype:
        raise TypeError(f"{what}: the updates' dtype {updates.dtype} is not the variable's {ref.dtype}")
    if not ref.flags.writeable:
        raise ValueError(f"{what} cannot write a read-only array")
    plain, half = _SCATTER[what]
    if ref.dtype == _F16:
        kernels, ref, updates = half, ref.view(np.uint16), updates.view(np.uint16)
    elif what == "scatter_update":
        kernels = plain
    else:
        _arith(ref, what)
        kernels = plain
        if what == "scatter_div" and ref.dtype.kind in "iu":
            check_divisors(updates)
            kernels = _SCATTER_DIV_INT
    serial, parallel = kernels
    if indices.shape[0] * ref.shape[1] < PARALLEL_THRESHOLD or ref.shape[1] < 2 * _COLUMN_BLOCK:
        return int(serial(ref, indices, updates))
    with launch_lock():
        return int(parallel(ref, indices, updates))


def scatter_update(ref, indices, updates):
    """``ref[indices[k]] = updates[k]`` for each k in order; -1, or the first bad index's position.

    >>> ref = np.zeros((5, 2), np.float32)
    >>> scatter_update(ref, np.array([1, 7]), np.ones((2, 2), np.float32)), ref.sum()
    (1, np.float32(0.0))
    """
    return _scatter("scatter_update", ref, indices, updates)


def scatter_add(ref, indices, updates):
    """``ref[indices[k]] += updates[k]`` for each k in order (repeats add up); -1 or a bad position."""
    return _scatter("scatter_add", ref, indices, updates)


def scatter_sub(ref, indices, updates):
    """``ref[indices[k]] -= updates[k]`` for each k in order; -1 or the first bad index's position."""
    return _scatter("scatter_sub", ref, indices, updates)


def scatter_mul(ref, indices, updates):
    """``ref[indices[k]] *= updates[k]`` for each k in order; -1 or the first bad index's position."""
    return _scatter("scatter_mul", ref, indices, updates)


def scatter_div(ref, indices, updates):
    """``ref[indices[k]] /= updates[k]`` for each k in order (integers toward zero); -1 or a bad position."""
    return _scatter("scatter_div", ref, indices, updates)


def scatter_max(ref, indices, updates):
    """``ref[indices[k]] = max(ref[indices[k]], updates[k])`` for each k in order; -1 or a bad position."""
    return _scatter("scatter_max", ref, indices, updates)


def scatter_min(ref, indices, updates):
    """``ref[indices[k]] = min(ref[indices[k]], updates[k])`` for each k in order; -1 or a bad position."""
    return _scatter("scatter_min", ref, indices, updates)


def check_divisors(updates):
    """Refuse an integer division by zero (in C it traps) before anything is written."""
    if not updates.all():
        raise ZeroDivisionError("Integer division by zero in a scatter_div's updates")
