"""The compiled side of ``gemm_blocks``: atomic reads and writes of the block table, the indirect
``cblas_?gemm`` call, the caller's loop and the helper's.

Numba has no atomics or calls through an address of its own, so four small intrinsics emit them
(LLVM's ``cmpxchg``, ``load atomic``, ``store atomic``, x86's ``pause`` and a call through a
pointer). The BLAS addresses are arguments, never constants of the compiled code, so the loops are
cached on disk like every kernel.
"""

import numpy as np
from llvmlite import ir
from numba import types
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
    NO_TRANS,
    PARKED,
    POSTED,
    ROW_MAJOR,
    STATE,
    TRANS,
    TRANS_A,
    TRANS_B,
    A,
    B,
    C,
    K,
    M,
    N,
)
from numflow_kernels.cpu.lazy_loops import LazyLoops


def _cell(context, builder, arg_types, table, row, column):
    """A pointer to ``table[row, column]`` (``arg_types[0]``: the table's type)."""
    array = context.make_array(arg_types[0])(context, builder, table)
    return cgutils.get_item_pointer(context, builder, arg_types[0], array, [row, column], wraparound=False)


@intrinsic
def _load(typingctx, table, row, column):
    """``table[row, column]``, read atomically (acquire)."""

    def codegen(context, builder, signature, args):
        return builder.load_atomic(_cell(context, builder, signature.args, *args), "acquire", 8)

    return types.int64(table, row, column), codegen


@intrinsic
def _store(typingctx, table, row, column, value):
    """``table[row, column] = value``, written atomically (release)."""

    def codegen(context, builder, signature, args):
        table, row, column, value = args
        builder.store_atomic(value, _cell(context, builder, signature.args, table, row, column), "release", 8)
        return context.get_dummy_value()

    return types.void(table, row, column, value), codegen


@intrinsic
def _compare_and_swap(typingctx, table, row, column, expected, new):
    """Set ``table[row, column]`` to ``new`` if it holds ``expected``; the value it held."""

    def codegen(context, builder, signature, args):
        table, row, column, expected, new = args
        pointer = _cell(context, builder, signature.args, table, row, column)
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


@intrinsic
def _futex(typingctx, syscall, table, row, column, operation, value):
    """``syscall(SYS_futex, &table[row, column], operation, value, NULL)`` through the address of the C
    library's ``syscall``: wait while the cell's low 32 bits hold ``value``, or wake ``value`` waiters."""

    def codegen(context, builder, signature, args):
        syscall, table, row, column, operation, value = args
        long = ir.IntType(64)
        cell = builder.bitcast(_cell(context, builder, signature.args[1:], table, row, column),
                               ir.IntType(32).as_pointer())
        function_type = ir.FunctionType(long, [long], var_arg=True)
        function = builder.inttoptr(syscall, function_type.as_pointer())
        builder.call(function, [long(SYS_FUTEX), cell, builder.trunc(operation, ir.IntType(32)),
                                builder.trunc(value, ir.IntType(32)), ir.IntType(8).as_pointer()(None)])
        return context.get_dummy_value()

    return types.void(syscall, table, row, column, operation, value), codegen


@intrinsic
def _sched_yield(typingctx, syscall):
    """``syscall(SYS_sched_yield)``: the core goes to another thread that is ready to run, if any."""

    def codegen(context, builder, signature, args):
        long = ir.IntType(64)
        function = builder.inttoptr(args[0], ir.FunctionType(long, [long], var_arg=True).as_pointer())
        builder.call(function, [long(SYS_SCHED_YIELD)])
        return context.get_dummy_value()

    return types.void(syscall), codegen


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


def _layout(x, itemsize):
    """``(transposed, leading dimension)`` of 2-D ``x`` as BLAS reads it, in elements; (0, 0) where BLAS
    cannot read it in place (neither axis contiguous)."""
    s0, s1 = x.strides
    if s1 == itemsize and s0 % itemsize == 0 and s0 >= itemsize * max(1, x.shape[1]):
        return NO_TRANS, s0 // itemsize
    if s0 == itemsize and s1 % itemsize == 0 and s1 >= itemsize * max(1, x.shape[0]):
        return TRANS, s1 // itemsize
    return 0, 0


def _fill(rows, a, b, out, step, by_rows):
    """Write into ``rows`` the gemm call of each block of ``out = a @ b`` (C-ordered ``out``): ``step``
    rows of ``out`` at a time when ``by_rows``, else columns. The count of blocks; -1 (nothing
    written) where BLAS cannot read an operand in place."""
    itemsize = out.itemsize
    trans_a, lda = _layout(a, itemsize)
    trans_b, ldb = _layout(b, itemsize)
    if trans_a == 0 or trans_b == 0:
        return -1
    side = out.shape[0] if by_rows else out.shape[1]
    count = (side + step - 1) // step
    ldc = out.strides[0] // itemsize
    for i in range(count):
        lo = i * step
        width = min(step, side - lo)
        r = rows[i]
        r[DOUBLE] = itemsize == 8
        r[TRANS_A], r[TRANS_B], r[K], r[LDA], r[LDB], r[LDC] = trans_a, trans_b, a.shape[1], lda, ldb, ldc
        if by_rows:
            r[M], r[N] = width, b.shape[1]
            r[A] = a.ctypes.data + lo * itemsize * (lda if trans_a == NO_TRANS else 1)
            r[B], r[C] = b.ctypes.data, out.ctypes.data + lo * ldc * itemsize
        else:
            r[M], r[N] = a.shape[0], width
            r[A] = a.ctypes.data
            r[B] = b.ctypes.data + lo * itemsize * (1 if trans_b == NO_TRANS else ldb)
            r[C] = out.ctypes.data + lo * itemsize
    return count


def run_serially(a, b, out, step, by_rows, sgemm, dgemm, wide):
    """``out = a @ b`` as its blocks (see ``_fill``), in order on this thread; False where BLAS cannot
    read an operand in place."""
    side = out.shape[0] if by_rows else out.shape[1]
    rows = np.zeros(((side + step - 1) // step, LDC + 1), np.int64)
    if _fill(rows, a, b, out, step, by_rows) < 0:
        return False
    for i in range(rows.shape[0]):
        _run_block(rows, i, sgemm, dgemm, wide)
    return True


def run_shared(table, a, b, out, step, by_rows, sgemm, dgemm, wide, syscall):
    """``out = a @ b`` as its blocks, posted in ``table``: this thread wakes the helper if it is parked,
    takes the blocks it has not, and waits for the rest. False where BLAS cannot read an operand in place."""
    count = _fill(table, a, b, out, step, by_rows)
    if count < 0:
        return False
    for i in range(count):
        _store(table, i, STATE, POSTED)
    if _load(table, MAX_BLOCKS, PARKED) == 1 and _compare_and_swap(table, MAX_BLOCKS, PARKED, 1, 0) == 1:
        _futex(syscall, table, MAX_BLOCKS, PARKED, FUTEX_WAKE_PRIVATE, 1)
    for i in range(count):
        _take(table, i, sgemm, dgemm, wide)
    for i in range(count):
        while _load(table, i, STATE) != DONE:
            _pause()
    for i in range(count):
        _store(table, i, STATE, FREE)
    return True


def serve(table, sgemm, dgemm, wide, idle_spins, syscall):
    """The helper's loop, for good: take posted blocks; after ``idle_spins`` scans in a row found none,
    mark the helper parked and sleep on the futex of that mark until a product clears it."""
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
                while _load(table, MAX_BLOCKS, PARKED) == 1:  # a wait returns early on a signal, say
                    _futex(syscall, table, MAX_BLOCKS, PARKED, FUTEX_WAIT_PRIVATE, 1)
                idle = 0
            elif idle % YIELD_EVERY == 0:
                _sched_yield(syscall)  # a kernel's own threads, say, may be waiting for this core
            else:
                _pause()


SYS_SCHED_YIELD, SYS_FUTEX, FUTEX_WAIT_PRIVATE, FUTEX_WAKE_PRIVATE = 24, 202, 128, 129  # x86-64 Linux
YIELD_EVERY = 4  # idle scans: one in this many gives the core away
_HELPERS = ("_run_block", "_take", "_layout", "_fill")
compiled = LazyLoops(globals(), _HELPERS)  # compiled(fn): fn's loop, with the helpers it calls
