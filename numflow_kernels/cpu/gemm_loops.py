"""The compiled side of ``gemm_blocks``: atomic reads and writes of the block table, the indirect
``cblas_?gemm`` call, the caller's loop and the helper's.

Numba has no atomics or calls through an address of its own, so four small intrinsics emit them
(LLVM's ``cmpxchg``, ``load atomic``, ``store atomic``, x86's ``pause`` and a call through a
pointer). The BLAS addresses are arguments, never constants of the compiled code, so the loops are
cached on disk like every kernel.
"""

import threading

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from numflow_kernels.cpu.gemm_blocks import (
    CLAIMED,
    DONE,
    DOUBLE,
    FREE,
    LDA,
    LDB,
    LDC,
    MAX_BLOCKS,
    PARKED,
    POSTED,
    ROW_MAJOR,
    STATE,
    TRANS_A,
    TRANS_B,
    A,
    B,
    C,
    K,
    M,
    N,
)


def _cell(context, builder, signature, table, row, column):
    array = context.make_array(signature.args[0])(context, builder, table)
    return cgutils.get_item_pointer(context, builder, signature.args[0], array, [row, column], wraparound=False)


@intrinsic
def _load(typingctx, table, row, column):
    """``table[row, column]``, read atomically (acquire)."""

    def codegen(context, builder, signature, args):
        return builder.load_atomic(_cell(context, builder, signature, *args), "acquire", 8)

    return types.int64(table, row, column), codegen


@intrinsic
def _store(typingctx, table, row, column, value):
    """``table[row, column] = value``, written atomically (release)."""

    def codegen(context, builder, signature, args):
        table, row, column, value = args
        builder.store_atomic(value, _cell(context, builder, signature, table, row, column), "release", 8)
        return context.get_dummy_value()

    return types.void(table, row, column, value), codegen


@intrinsic
def _compare_and_swap(typingctx, table, row, column, expected, new):
    """Set ``table[row, column]`` to ``new`` if it holds ``expected``; the value it held."""

    def codegen(context, builder, signature, args):
        table, row, column, expected, new = args
        pointer = _cell(context, builder, signature, table, row, column)
        return builder.extract_value(builder.cmpxchg(pointer, expected, new, "seq_cst", "seq_cst"), 0)

    return types.int64(table, row, column, expected, new), codegen


@intrinsic
def _pause(typingctx):
    """x86's spin-wait hint."""

    def codegen(context, builder, signature, args):
        pause = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []),
                                               "llvm.x86.sse2.pause")
        builder.call(pause, [])
        return context.get_dummy_value()

    return types.void(), codegen


def _gemm_call(double, wide):
    """An intrinsic calling ``cblas_{d,s}gemm`` at an address, row-major, alpha 1, beta 0, its integers
    64-bit (``wide``) or C ints."""
    real = ir.DoubleType() if double else ir.FloatType()
    integer = ir.IntType(64 if wide else 32)
    pointer = ir.IntType(8).as_pointer()
    c_int = ir.IntType(32)
    function_type = ir.FunctionType(ir.VoidType(), [c_int, c_int, c_int, integer, integer, integer, real, pointer,
                                                    integer, pointer, integer, real, pointer, integer])

    @intrinsic
    def call(typingctx, address, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc):
        def codegen(context, builder, signature, args):
            address, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc = args

            def size(value):
                return value if wide else builder.trunc(value, integer)

            def at(value):
                return builder.inttoptr(value, pointer)

            function = builder.inttoptr(address, function_type.as_pointer())
            builder.call(function, [c_int(ROW_MAJOR), builder.trunc(trans_a, c_int), builder.trunc(trans_b, c_int),
                                    size(m), size(n), size(k), real(1.0), at(a), size(lda), at(b), size(ldb),
                                    real(0.0), at(c), size(ldc)])
            return context.get_dummy_value()

        return types.void(*([types.int64] * 12)), codegen

    return call


_sgemm, _sgemm_wide, _dgemm, _dgemm_wide = (_gemm_call(double, wide) for double in (False, True)
                                             for wide in (False, True))


def _run_block(table, i, sgemm, dgemm, wide):
    r = table[i]
    if r[DOUBLE]:
        if wide:
            _dgemm_wide(dgemm, r[TRANS_A], r[TRANS_B], r[M], r[N], r[K], r[A], r[LDA], r[B], r[LDB], r[C], r[LDC])
        else:
            _dgemm(dgemm, r[TRANS_A], r[TRANS_B], r[M], r[N], r[K], r[A], r[LDA], r[B], r[LDB], r[C], r[LDC])
    elif wide:
        _sgemm_wide(sgemm, r[TRANS_A], r[TRANS_B], r[M], r[N], r[K], r[A], r[LDA], r[B], r[LDB], r[C], r[LDC])
    else:
        _sgemm(sgemm, r[TRANS_A], r[TRANS_B], r[M], r[N], r[K], r[A], r[LDA], r[B], r[LDB], r[C], r[LDC])


def _take(table, i, sgemm, dgemm, wide):
    """Run block ``i`` if it is posted and this thread is the one to claim it."""
    if _load(table, i, STATE) == POSTED and _compare_and_swap(table, i, STATE, POSTED, CLAIMED) == POSTED:
        _run_block(table, i, sgemm, dgemm, wide)
        _store(table, i, STATE, DONE)
        return True
    return False


def run_serially(rows, sgemm, dgemm, wide):
    """Every block of ``rows``, in order, on this thread."""
    for i in range(rows.shape[0]):
        _run_block(rows, i, sgemm, dgemm, wide)


def run_shared(table, count, sgemm, dgemm, wide):
    """Post the table's first ``count`` blocks, take those the helper has not, wait for the rest."""
    for i in range(count):
        _store(table, i, STATE, POSTED)
    for i in range(count):
        _take(table, i, sgemm, dgemm, wide)
    for i in range(count):
        while _load(table, i, STATE) != DONE:
            _pause()
    for i in range(count):
        _store(table, i, STATE, FREE)


def serve(table, sgemm, dgemm, wide, idle_spins):
    """The helper's loop: take posted blocks until ``idle_spins`` scans in a row found none, then mark
    the helper parked."""
    idle = 0
    while True:
        took = False
        for i in range(MAX_BLOCKS):
            took |= _take(table, i, sgemm, dgemm, wide)
        if took:
            idle = 0
        else:
            idle += 1
            if idle >= idle_spins:
                _store(table, MAX_BLOCKS, PARKED, 1)
                return
            _pause()


_HELPERS = ("_run_block", "_take")
_compiled = {}
_compile_lock = threading.Lock()


def compiled(name):
    """The loop ``name`` of this module compiled by Numba (once per process; cached on disk)."""
    loop = _compiled.get(name)
    if loop is None:
        with _compile_lock:
            if not _compiled:
                for helper in _HELPERS:
                    globals()[helper] = njit(nogil=True, cache=True)(globals()[helper])
            if name not in _compiled:
                _compiled[name] = njit(nogil=True, cache=True)(globals()[name])
            loop = _compiled[name]
    return loop
