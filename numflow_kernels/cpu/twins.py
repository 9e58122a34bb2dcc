"""Serial and parallel twins of CPU kernels, compiled when a kernel first runs.

A kernel module writes its loops with ``prange`` and sets ``prange = range`` at module level, so
that registering its kernels imports no Numba; :class:`LazyTwin` compiles the pair (and points the
module's ``prange`` at Numba's) on first use, and :func:`launch` picks one by size, as
``numflow_kernels.parallel.launch`` does.
"""

import types


def twin(fn):
    """``(serial, parallel)`` dispatchers of ``fn``, as ``parallel.twin`` builds them, with numpy's
    error model: a division by zero gives inf or nan as in TensorFlow, not ZeroDivisionError, and
    leaves the loops free to vectorize."""
    import numba

    fn.__globals__["prange"] = numba.prange  # read by the loops when Numba compiles them
    options = dict(nogil=True, cache=True, error_model="numpy")
    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__ + "_parallel"
    copy.__module__ = fn.__module__
    return numba.njit(**options)(fn), numba.njit(parallel=True, **options)(copy)


class LazyTwin:
    """``twin(fn)``, built when first unpacked as ``serial, parallel = kernels`` (by ``launch``)."""

    def __init__(self, fn):
        self._fn = fn
        self._pair = None

    def __iter__(self):
        if self._pair is None:
            self._pair = twin(self._fn)
        return iter(self._pair)


_parallel_launch = None


def launch(kernels, size, *args):
    """``parallel.launch(kernels, size, *args)``, imported (with Numba) on the first call."""
    global _parallel_launch
    if _parallel_launch is None:
        from numflow_kernels import parallel

        _parallel_launch = parallel.launch
    return _parallel_launch(kernels, size, *args)
