"""A module's Numba loops, compiled when first called, so that importing the module imports no Numba."""

import threading


class LazyLoops:
    """``loops(fn)``: ``fn`` compiled by Numba with ``nogil``, ``cache`` and ``options``, once per process.

    Numba finds the functions a loop calls among its module's globals at compile time, so the names
    in ``helpers`` are compiled and put back into ``namespace`` (the module's ``globals()``) before
    the first loop compiles.
    """

    def __init__(self, namespace, helpers=(), **options):
        self._namespace = namespace
        self._helpers = helpers
        self._options = dict(nogil=True, cache=True, **options)
        self._loops = {}
        self._lock = threading.Lock()

    def __call__(self, fn):
        loop = self._loops.get(fn)
        if loop is None:
            with self._lock:
                if fn not in self._loops:
                    import numba

                    if not self._loops:
                        for name in self._helpers:
                            self._namespace[name] = numba.njit(**self._options)(self._namespace[name])
                    self._loops[fn] = numba.njit(**self._options)(fn)
                loop = self._loops[fn]
        return loop
