"""CPU kernels that initialize a flat buffer in place: fill, and TensorFlow's random distributions.

Every function writes ``out``, a 1-D C-contiguous numpy array (callers pass ``arr.reshape(-1)``),
and returns None. Random values match TensorFlow's ``RandomUniform``, ``RandomStandardNormal``,
``TruncatedNormal`` and ``RandomUniformInt`` kernels for the same ``(seed, seed2)``, followed by
the Mul and Add that ``tf.random.*`` adds for ``minval/maxval`` or ``mean/stddev``; see
``numflow_kernels/philox.py`` for the spec, the draws per output, and what is bit-exact.
Element ``i`` depends only on the seeds, ``counter`` and ``i``: not on the array's length, the
thread count, or whether the serial or the ``parallel=True`` kernel ran (arrays of
``parallel.PARALLEL_THRESHOLD`` elements or more take the parallel one).

Draws (spec: TensorFlow's random_distributions.h and random_op_cpu.h, via philox.py): 4 values
per Philox call for float16/float32/int32, 2 for float64/int64; a truncated-normal group of 4 (2)
reserves 256 (128) calls and uses about 1.05 of them. Each (distribution, dtype) has its own
kernel, made from one template (``_groups_of_4``, ``_groups_of_2``) around philox's group of that
distribution and dtype, as the CUDA kernels are; float32 and float64 truncated normals have loops of
their own (two passes). float16 is written through a uint16 view.
"""

import numpy as np
from numba import njit, prange

from numflow_kernels import philox
from numflow_kernels.parallel import launch, twin, variant

__all__ = ["fill", "random_uniform", "random_normal", "truncated_normal", "random_uniform_int"]


def _fill(out, value):
    for i in prange(out.shape[0]):
        out[i] = value


draw = None  # in each variant of the templates below, philox's group function (parallel.variant)


def _groups_of_4(out, stream, a, b):
    full = out.shape[0] // 4
    for g in prange(full):
        v0, v1, v2, v3 = draw(stream, g, a, b)
        philox.put4(out, 4 * g, v0, v1, v2, v3)
    if 4 * full < out.shape[0]:
        v0, v1, v2, v3 = draw(stream, full, a, b)
        philox.store4(out, 4 * full, v0, v1, v2, v3)


def _groups_of_2(out, stream, a, b):
    full = out.shape[0] // 2
    for g in prange(full):
        v0, v1 = draw(stream, g, a, b)
        philox.put2(out, 2 * g, v0, v1)
    if 2 * full < out.shape[0]:
        v0, v1 = draw(stream, full, a, b)
        philox.store2(out, 2 * full, v0, v1)


def _truncated_f32(out, stream, mean, stddev):
    # Pass 1 draws each group's first Philox call as plain normals (a loop that vectorizes); pass 2
    # keeps the 83% of groups whose 4 values all lie within (-2, 2), which are exactly what
    # TensorFlow's resampling loop returns for them, and redraws the others with that loop.
    full = out.shape[0] // 4
    for g in prange(full):
        v0, v1, v2, v3 = philox.standard_normal_f32(stream, np.uint64(g) * philox.TRUNCATED_CALLS_32)
        philox.put4(out, 4 * g, v0, v1, v2, v3)
    for g in prange(full):
        i = 4 * g
        v0, v1, v2, v3 = out[i], out[i + 1], out[i + 2], out[i + 3]
        if not (_within_2(v0) and _within_2(v1) and _within_2(v2) and _within_2(v3)):
            v0, v1, v2, v3 = philox.truncated_rest_f32(stream, np.uint64(g) * philox.TRUNCATED_CALLS_32,
                                                       v0, v1, v2, v3)
        philox.put4(out, i, philox.affine_f32(v0, stddev, mean), philox.affine_f32(v1, stddev, mean),
                    philox.affine_f32(v2, stddev, mean), philox.affine_f32(v3, stddev, mean))
    if 4 * full < out.shape[0]:
        v0, v1, v2, v3 = philox.truncated_f32(stream, full, mean, stddev)
        philox.store4(out, 4 * full, v0, v1, v2, v3)


def _truncated_f64(out, stream, mean, stddev):
    # Two passes as _truncated_f32; here 91% of groups (2 values) keep their first call.
    full = out.shape[0] // 2
    for g in prange(full):
        v0, v1 = philox.standard_normal_f64(stream, np.uint64(g) * philox.TRUNCATED_CALLS_64)
        philox.put2(out, 2 * g, v0, v1)
    for g in prange(full):
        i = 2 * g
        v0, v1 = out[i], out[i + 1]
        if _within_2(v0) and _within_2(v1):
            philox.put2(out, i, philox.affine_f64(v0, stddev, mean), philox.affine_f64(v1, stddev, mean))
        else:
            v0, v1 = philox.truncated_f64(stream, g, mean, stddev)
            philox.put2(out, i, v0, v1)
    if 2 * full < out.shape[0]:
        v0, v1 = philox.truncated_f64(stream, full, mean, stddev)
        philox.store2(out, 2 * full, v0, v1)


@njit(inline="always")
def _within_2(v):
    return -2.0 < v < 2.0


def _drawing(group, size):
    """The kernel writing the groups of ``size`` values that ``group`` (philox's ``uniform_f32``...) draws."""
    return variant(_groups_of_4 if size == 4 else _groups_of_2, group.py_func.__name__, draw=group)


_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_FILL = twin(_fill)
_UNIFORM = {_F16: _drawing(philox.uniform_f16, 4), _F32: _drawing(philox.uniform_f32, 4),
            _F64: _drawing(philox.uniform_f64, 2)}
_UNIFORM_INT = {np.dtype(np.int32): _drawing(philox.uniform_i32, 4),
                np.dtype(np.int64): _drawing(philox.uniform_i64, 2)}
_NORMAL = {_F16: _drawing(philox.normal_f16, 4), _F32: _drawing(philox.normal_f32, 4),
           _F64: _drawing(philox.normal_f64, 2)}
_TRUNCATED = {_F16: _drawing(philox.truncated_f16, 4), _F32: twin(_truncated_f32), _F64: twin(_truncated_f64)}


def _flat(out, what):
    if not isinstance(out, np.ndarray) or out.ndim != 1 or not out.flags.c_contiguous:
        raise ValueError(f"{what} writes a 1-D C-contiguous numpy array; pass arr.reshape(-1)")
    if not out.flags.writeable:
        raise ValueError(f"{what} cannot write a read-only array")
    return out.view(np.uint16) if out.dtype == _F16 else out


def _kernel(table, out, what):
    try:
        return table[out.dtype]
    except KeyError:
        names = ", ".join(str(d) for d in table)
        raise TypeError(f"{what} supports {names} outputs, not {out.dtype}") from None


def fill(out, value):
    """Set every element of ``out`` to ``value`` cast to ``out.dtype`` (any numeric or bool dtype).

    >>> a = np.empty(3, np.float32); fill(a, 1.5); a.tolist()
    [1.5, 1.5, 1.5]
    """
    flat = _flat(out, "fill")
    if out.dtype == _F16:
        value = np.float16(value).view(np.uint16)
    elif out.dtype == np.bool_:
        flat, value = out.view(np.uint8), np.uint8(bool(value))
    else:
        value = out.dtype.type(value)
    launch(_FILL, out.size, flat, value)


def random_uniform(out, seed, seed2, minval=0.0, maxval=1.0, counter=0):
    """TensorFlow's ``random_uniform``: ``RandomUniform * (maxval - minval) + minval`` in ``out``.

    Parameters
    ----------
    out : ndarray of float16, float32 or float64, 1-D, C-contiguous
    seed, seed2 : int
        The op's seeds (TensorFlow draws fresh ones for ``(0, 0)``; that is the caller's job).
    minval, maxval : float
        Rounded to ``out.dtype``, and so is ``maxval - minval``.
    counter : int
        Philox counter of the first draw: 0 on an op's first run (see ``philox.make_stream``).

    >>> a = np.empty(4, np.float32); random_uniform(a, 1, 2); [round(float(v), 4) for v in a]
    [0.4064, 0.8576, 0.0554, 0.0859]
    """
    flat = _flat(out, "random_uniform")
    kernels = _kernel(_UNIFORM, out, "random_uniform")
    lo, scale = philox.uniform_args(out.dtype, minval, maxval)
    launch(kernels, out.size, flat, philox.make_stream(seed, seed2, counter), lo, scale)


def random_normal(out, seed, seed2, mean=0.0, stddev=1.0, counter=0):
    """TensorFlow's ``random_normal``: ``RandomStandardNormal * stddev + mean`` in ``out``.

    Arguments as :func:`random_uniform`; ``mean`` and ``stddev`` are rounded to ``out.dtype``.
    """
    flat = _flat(out, "random_normal")
    kernels = _kernel(_NORMAL, out, "random_normal")
    mean, stddev = philox.normal_args(out.dtype, mean, stddev)
    launch(kernels, out.size, flat, philox.make_stream(seed, seed2, counter), mean, stddev)


def truncated_normal(out, seed, seed2, mean=0.0, stddev=1.0, counter=0):
    """TensorFlow's ``truncated_normal``: ``TruncatedNormal * stddev + mean`` in ``out``.

    Standard normals outside (-2, 2) are redrawn, so every value is within 2 ``stddev`` of ``mean``.
    Arguments as :func:`random_normal`.
    """
    flat = _flat(out, "truncated_normal")
    kernels = _kernel(_TRUNCATED, out, "truncated_normal")
    mean, stddev = philox.normal_args(out.dtype, mean, stddev, "truncated_normal")
    launch(kernels, out.size, flat, philox.make_stream(seed, seed2, counter), mean, stddev)


def random_uniform_int(out, seed, seed2, minval, maxval, counter=0):
    """TensorFlow's ``RandomUniformInt``: integers in ``[minval, maxval)`` written to ``out``.

    ``out`` is int32 or int64. Raises ValueError ``"Need minval < maxval: 3 >= 1"`` (TensorFlow's
    InvalidArgumentError message) unless ``minval < maxval``. Like TensorFlow, this takes the
    random bits modulo the range, so a range that does not divide 2**32 (2**64) is slightly biased.
    """
    flat = _flat(out, "random_uniform_int")
    kernels = _kernel(_UNIFORM_INT, out, "random_uniform_int")
    lo, span = philox.int_uniform_args(out.dtype, minval, maxval)
    launch(kernels, out.size, flat, philox.make_stream(seed, seed2, counter), lo, span)
