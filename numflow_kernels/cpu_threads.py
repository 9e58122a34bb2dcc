"""How many threads one CPU kernel may use: all cores, or one while the executor runs ops at once.

BLAS libraries (OpenBLAS, MKL) and Numba's ``parallel=True`` kernels start threads of their own for
one operation. When the executor also runs several ops at once, both sets of threads fight for
the same cores: a small matrix product took ten times as long, and a parallel kernel half as long
as its serial twin. While any run schedules ops on the pool (``one_thread_each()``), BLAS is held
to one thread and ``parallel.launch`` takes the serial twins; a run on the calling thread alone
leaves kernels all the cores. BLAS's thread count is process-wide, so this counts the runs in
flight and restores it when the last one ends. Importing this module imports no Numba.

BLAS and Numba's threads also fight each other: OpenBLAS's threads spin for a while after each
product, and a parallel Numba kernel launched then waits for the core one of them holds (a
157k-element Adam step went from 0.1 ms to 0.3-3.5 ms). A run whose ops call BLAS
(``BLAS_OP_TYPES``) therefore leaves the cores to BLAS: ``blas_owns_cores()`` sends Numba kernels
to their serial twins for its duration.
"""

import threading

# Op types whose CPU kernels call BLAS (numpy's matmul).
BLAS_OP_TYPES = frozenset({"MatMul", "BatchMatMulV2", "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput"})

_lock = threading.Lock()
_in_flight = 0
_blas_runs = 0
_saved = None
_controllers = None


def serial_kernels():
    """True while Numba kernels should take their serial twins: kernels share the cores, or BLAS holds them."""
    return _in_flight > 0 or _blas_runs > 0


class blas_owns_cores:
    """Context manager: Numba kernels run serially until every run that entered it has left."""

    def __enter__(self):
        global _blas_runs
        with _lock:
            _blas_runs += 1
        return self

    def __exit__(self, *exc):
        global _blas_runs
        with _lock:
            _blas_runs -= 1


def _blas():
    global _controllers
    if _controllers is None:
        try:
            from threadpoolctl import ThreadpoolController

            _controllers = ThreadpoolController().select(user_api="blas").lib_controllers
        except Exception:  # noqa: BLE001 - without threadpoolctl (or BLAS info) there is nothing to tune
            _controllers = []
    return _controllers


class one_thread_each:
    """Context manager: every kernel uses one thread until every run that entered it has left."""

    def __enter__(self):
        global _in_flight, _saved
        with _lock:
            if _in_flight == 0:
                controllers = _blas()
                _saved = [c.num_threads for c in controllers]
                for c in controllers:
                    c.set_num_threads(1)
            _in_flight += 1
        return self

    def __exit__(self, *exc):
        global _in_flight
        with _lock:
            _in_flight -= 1
            if _in_flight == 0:
                for c, n in zip(_blas(), _saved):
                    c.set_num_threads(n)
