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

A kernel may also split its work itself: ``run_blocks`` runs a function of a block index over
blocks fixed by the kernel's shapes (never by the thread count), on the kernel helper threads beside
the calling one while no run holds kernels to one thread each, with BLAS on one thread meanwhile.
Each block writes its own part of the result, so the bits are the same however the blocks ran.
"""

import itertools
import os
import threading

# Op types whose CPU kernels call BLAS (numpy's matmul).
BLAS_OP_TYPES = frozenset({"MatMul", "BatchMatMulV2", "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput",
                           "Conv3D", "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2"})

_lock = threading.Lock()
_in_flight = 0
_blas_runs = 0
_saved = None
_controllers = None
_helpers = None


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


def cores():
    """How many threads ``run_blocks`` may use at once: the machine's cores."""
    return os.cpu_count() or 1


def _helper_pool():
    global _helpers
    if _helpers is None:
        from concurrent.futures import ThreadPoolExecutor

        with _lock:
            if _helpers is None:
                _helpers = ThreadPoolExecutor(cores() - 1, thread_name_prefix="numflow-kernel")
    return _helpers


def run_blocks(block, count):
    """Call ``block(i)`` for every ``i`` in ``range(count)``; return when all have returned.

    Unless a run holds kernels to one thread each, the kernel helper threads take blocks beside the
    calling thread, each the next one not yet taken, with BLAS on one thread and Numba kernels on
    their serial twins meanwhile; otherwise the calling thread runs them in order. Each block must
    write its own part of the result. The first error a block raises is raised here, once every
    block taken has finished.
    """
    threads = min(count, cores())
    if threads <= 1 or _in_flight > 0:
        for i in range(count):
            block(i)
        return
    taken = itertools.count()

    def work():
        for i in iter(taken.__next__, None):
            if i >= count:
                return
            block(i)

    with one_thread_each():
        futures = [_helper_pool().submit(work) for _ in range(threads - 1)]
        error = None
        try:
            work()
        except BaseException as e:  # noqa: BLE001 - raised once the helpers' blocks are done
            error = e
        for future in futures:
            try:
                future.result()
            except BaseException as e:  # noqa: BLE001
                error = error or e
    if error is not None:
        raise error
