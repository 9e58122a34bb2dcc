"""How CPU kernels use threads, so that their numbers never depend on thread counts or timing.

The same program, seeds and config give the same bits whatever the load, the executor's way of
running a plan, and ``inter_op_parallelism_threads`` or ``intra_op_parallelism_threads``. Three
rules give that:

- **BLAS runs on one thread** in every run whose ops call it or LAPACK (their kernels are
  registered with ``calls_blas=True``):
  ``one_blas_thread()``, counted over the runs in flight, restores BLAS's own count when the last
  one ends. BLAS rounds a product differently with one thread and with several: OpenBLAS 0.3 on an
  AVX-512 machine takes another kernel for a (64, 784) x (784, 200) float32 product once it may use
  two threads. And a multithreaded product on a busy machine waits for whichever of its threads
  lost its core: beside other work the example MLP's step took 13-54 ms with two BLAS threads
  against 1 ms with one.
- **A kernel parallelizes by blocks fixed by its shapes**, never by the thread count: it hands
  ``run_blocks`` a function of the block index, and each block writes its own part of the result
  (``numflow_kernels.cpu.conv`` splits its patch matrices this way; ``cpu.matmul`` hands its
  one-thread BLAS calls to ``cpu.gemm_blocks``, whose helper thread spins between products).
  Blocks run on the kernel helper threads as well as the calling one while the cores are free, else
  one after another: the same bits either way.
- **Numba kernels give the same bits on any thread count**: each ``parallel=True`` kernel computes
  every element on its own (or splits by fixed blocks) and has a serial twin with the same results.

While a run schedules ops on the executor's pool the cores are taken: ``one_thread_each()`` sends
Numba kernels to their serial twins and ``run_blocks`` to the calling thread. Importing this module
imports no Numba.
"""

import itertools
import os
import threading

_lock = threading.Lock()
_one_each = 0  # runs in flight scheduling ops on the pool
_blas_runs = 0  # runs in flight that call BLAS
_blas_found = None  # BLAS's counts when the first of them started, restored when the last ends
_libraries = None
_helpers = None


def serial_kernels():
    """True while kernels should keep to their calling thread: a run is scheduling ops on the pool."""
    return _one_each > 0


class one_thread_each:
    """Context manager: every kernel keeps to its calling thread until every run that entered it has left."""

    def __enter__(self):
        global _one_each
        with _lock:
            _one_each += 1
        return self

    def __exit__(self, *exc):
        global _one_each
        with _lock:
            _one_each -= 1


class _Library:
    """One BLAS library's thread count: ``get()`` and ``set(count)``, process-wide.

    threadpoolctl (3.8 on) lets only the first thread that sets OpenBLAS's count change it, and
    silently ignores the others; a session may run on any thread, so OpenBLAS's own setter is
    called here (found under the prefixes and suffixes threadpoolctl searches).
    """

    __slots__ = ("get", "set", "filepath")

    def __init__(self, controller):
        self.filepath = controller.filepath
        self.get = controller.get_num_threads
        self.set = controller.set_num_threads
        if controller.internal_api == "openblas" and getattr(controller, "threading_layer", "") != "openmp":
            for prefix in ("", "scipy_"):
                for suffix in ("", "64_", "_64"):
                    setter = getattr(controller.dynlib, f"{prefix}openblas_set_num_threads{suffix}", None)
                    if setter is not None:
                        self.set = setter
                        return


def _blas():
    global _libraries
    if _libraries is None:
        try:
            from threadpoolctl import ThreadpoolController

            libraries = [_Library(c) for c in ThreadpoolController().select(user_api="blas").lib_controllers]
        except Exception:  # noqa: BLE001 - without threadpoolctl (or BLAS info) there is nothing to tune
            libraries = []
        _libraries = libraries
    return _libraries


class one_blas_thread:
    """Context manager: BLAS uses one thread until every run that entered it has left."""

    def __enter__(self):
        global _blas_runs, _blas_found
        with _lock:
            if _blas_runs == 0:
                libraries = _blas()
                _blas_found = [lib.get() for lib in libraries]
                for lib, found in zip(libraries, _blas_found):
                    if found != 1:
                        lib.set(1)
            _blas_runs += 1
        return self

    def __exit__(self, *exc):
        global _blas_runs
        with _lock:
            _blas_runs -= 1
            if _blas_runs == 0:
                for lib, found in zip(_libraries, _blas_found):
                    if found != 1:
                        lib.set(found)


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

    While the cores are free (``serial_kernels()`` is False) the kernel helper threads take blocks
    beside the calling thread, each the next one not yet taken, so a thread that lost its core
    delays only the block it holds; otherwise the calling thread runs them in order. Each block
    must write its own part of the result, so the bits never depend on which thread ran which.
    The first error a block raises is raised here, once every block taken has finished.
    """
    threads = min(count, cores())
    if threads <= 1 or serial_kernels():
        for i in range(count):
            block(i)
        return
    taken = itertools.count()  # next() on it is atomic: the GIL is held

    def drain():
        i = next(taken)
        while i < count:
            block(i)
            i = next(taken)

    futures = [_helper_pool().submit(drain) for _ in range(threads - 1)]
    try:
        drain()
    finally:
        for future in futures:
            if not future.cancel():
                future.result()
