"""Blocks of a matrix product shared by the calling thread and one helper thread that spins between them.

A product of a few tens of microseconds (an LSTM's gates: (32, 192) x (192, 512), 80 us on one core)
gains nothing from ``cpu_threads.run_blocks``: waking a pool thread and collecting its future took
about 21 us, so two blocks took 129 us. Here the caller posts the blocks in a table of int64 rows
(filled in compiled code: in Python, four took 11.5 us), takes them itself one by one, and a helper
thread, spinning in compiled code without the GIL, takes the others: a block it takes starts about
3 us after it is posted, and (32, 192) x (192, 512) in blocks of 128 columns took 34-35 us. The
helper parks on a futex after ``tuning.GEMM_IDLE_SPINS`` empty scans (about 0.17 ms), and the next
product wakes it, all in compiled code: the helper never needs the GIL.

Each block is one ``cblas_?gemm`` call of numpy's own BLAS (its address found as threadpoolctl finds
the library), the same call whichever thread makes it, and a block is claimed by one thread alone
(a compare-and-swap on its state): the bits depend on the blocks, which depend on the shapes.
Off x86-64, while the cores are taken (a run scheduling ops on its pool), or while another product
holds the table, the caller makes the same calls in order; where the symbols are not found (another
BLAS), ``available()`` is False and ``matmul`` hands the same blocks to numpy.
"""

import ctypes
import os
import platform
import sys
import threading

import numpy as np

from numflow_kernels import tuning

FREE, POSTED, CLAIMED, DONE = 0, 1, 2, 3
# A block's row: its state, then the arguments of its gemm call.
STATE, DOUBLE, TRANS_A, TRANS_B, M, N, K, A, LDA, B, LDB, C, LDC = range(13)
MAX_BLOCKS = 64
ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112
PARKED = 0  # the control row's (the table's last) one cell: 1 while the helper is parked (or parking)

# The helper's atomics order memory as it needs on x86-64, and it parks on a Linux futex (its number
# and operations are x86-64 Linux's); elsewhere the blocks run in order on the caller's thread.
_SPINS = sys.platform == "linux" and platform.machine().lower() in ("x86_64", "amd64")
_SYSCALL = ctypes.cast(ctypes.CDLL(None).syscall, ctypes.c_void_p).value if _SPINS else 0
_lock = threading.Lock()  # held by the product using the table
_find_lock = threading.Lock()
_blas = None  # (sgemm address, dgemm address, 64-bit integers) or () when not found
_table = None
_helper = None


def _find_blas():
    """The addresses of numpy's BLAS's ``cblas_sgemm`` and ``cblas_dgemm`` and whether it takes 64-bit
    integers; () where they cannot be found."""
    import numpy  # noqa: F401 - threadpoolctl lists the BLAS of the libraries already loaded
    from threadpoolctl import ThreadpoolController

    for controller in ThreadpoolController().select(user_api="blas").lib_controllers:
        library = ctypes.CDLL(controller.filepath)
        for prefix in ("", "scipy_"):
            for suffix in ("", "64_", "_64"):
                sgemm = getattr(library, f"{prefix}cblas_sgemm{suffix}", None)
                dgemm = getattr(library, f"{prefix}cblas_dgemm{suffix}", None)
                if sgemm is not None and dgemm is not None:
                    wide = "64" in suffix
                    return (ctypes.cast(sgemm, ctypes.c_void_p).value, ctypes.cast(dgemm, ctypes.c_void_p).value,
                            wide)
    return ()


def available():
    """Whether products can be run as blocks of direct BLAS calls here."""
    global _blas
    if _blas is None:
        with _find_lock:
            if _blas is None:
                try:
                    _blas = _find_blas()
                except Exception:  # noqa: BLE001 - no threadpoolctl, no BLAS info: numpy's matmul then
                    _blas = ()
    return bool(_blas)


def run(a, b, out, step, by_rows, cores_free):
    """``out = a @ b`` (float32 or float64, ``out`` C-contiguous) in blocks of ``step`` rows of ``out``
    (``by_rows``) or columns, with the helper thread where ``cores_free`` and the table is not in use,
    else in order on this thread: the same bits either way. False (nothing written) where BLAS was
    not found or cannot read an operand in place, or where more blocks than the table holds could
    take the cores of a thread pool."""
    from numflow_kernels.cpu import gemm_loops

    count = -(-(out.shape[0] if by_rows else out.shape[1]) // step)
    if not available() or cores_free and count > MAX_BLOCKS:
        return False
    sgemm, dgemm, wide = _blas
    if not (cores_free and count > 1 and _SPINS and _lock.acquire(blocking=False)):
        return gemm_loops.compiled(gemm_loops.run_serially)(a, b, out, step, by_rows, sgemm, dgemm, wide)
    try:
        return gemm_loops.compiled(gemm_loops.run_shared)(_shared_table(), a, b, out, step, by_rows, sgemm, dgemm, wide,
                                                 _SYSCALL)
    finally:
        _lock.release()


def _shared_table():
    """The block table (its last row the control row), its helper thread started on first use."""
    global _table, _helper
    if _helper is None:
        from numflow_kernels.cpu import gemm_loops

        _table = np.zeros((MAX_BLOCKS + 1, LDC + 1), np.int64)
        # Compiled (or loaded from the cache) in the product that starts the helper, whose run the
        # executor leaves out of its timing of the ways to run a plan, rather than beside the runs after it.
        serve = gemm_loops.compiled(gemm_loops.serve)
        _helper = threading.Thread(target=serve, args=(_table, *_blas, tuning.GEMM_IDLE_SPINS, _SYSCALL),
                                   name="numflow-gemm", daemon=True)
        _helper.start()
    return _table


def _forget_in_child():
    # A forked child has the table but not the helper thread; its lock may have been held mid-product.
    global _lock, _table, _helper
    _lock, _table, _helper = threading.Lock(), None, None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
