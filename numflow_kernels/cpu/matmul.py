"""The CPU MatMul kernel: medium and large products split into blocks fixed by their shapes, one BLAS call each.

Spec: TensorFlow's ``MatMul`` (``transpose_a``/``transpose_b``; 0 * inf and overflows give NaN and
inf). BLAS runs on one thread in every run (``cpu_threads``): its result with several threads
differs from its result with one, and depends on how many it got. A product of
``tuning.MATMUL_SHARED_WORK`` multiply-adds or more is split instead along the longer of its
output's two sides (``spans``; each block recomputes its slice of that side against the whole of
the other input, so the shorter side's input, packed once per block, is the smaller). The blocks
run on the caller's thread and ``gemm_blocks``' helper thread, or, where there are more than its
table holds or its BLAS calls cannot be made, by ``cpu_threads.run_blocks`` on every free core. The
blocks depend on the shapes alone, so the bits are the same on one core or many, and with any load.
"""

import numpy as np

from numflow_kernels import cpu_threads, tuning
from numflow_kernels.cpu import eigen_float32, gemm_blocks
from numflow_kernels.float_errors import quiet_call
from numflow_kernels.reference import matmul_operands
from numflow_kernels.registry import register

_FLOAT32 = np.dtype(np.float32)
_REAL_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64))
_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))
_SMALL = 1 << 17  # multiply-adds: a product with fewer is neither swapped nor split (a Keras cell's gate: 32K)


def spans(m, k, n):
    """``[(start, stop), ...]``: the blocks of a (m, k) x (k, n) product along its rows when ``m >= n``,
    else its columns; ``[]`` for a product computed whole. A function of the shape alone.

    A large product (``2 * tuning.MATMUL_BLOCK_WORK`` multiply-adds or more) takes blocks of about
    ``MATMUL_BLOCK_WORK`` each; a medium one (``tuning.MATMUL_SHARED_WORK``) two halves, or four
    quarters of a side of ``4 * MATMUL_MIN_SPAN`` or more, for the caller and the helper thread of
    ``gemm_blocks``.

    >>> spans(1024, 784, 200)[:2], len(spans(1024, 784, 200))
    ([(0, 128), (128, 256)], 8)
    >>> spans(32, 192, 512)
    [(0, 128), (128, 256), (256, 384), (384, 512)]
    >>> spans(64, 784, 200)
    [(0, 100), (100, 200)]
    >>> spans(16, 64, 512)
    []
    """
    side = max(m, n)
    count = min(m * k * n // tuning.MATMUL_BLOCK_WORK, side // tuning.MATMUL_MIN_SPAN)
    if count >= 2:
        step = -(-side // count)
        step = -(-step // tuning.MATMUL_MIN_SPAN) * tuning.MATMUL_MIN_SPAN
    elif m * k * n >= tuning.MATMUL_SHARED_WORK and side >= tuning.MATMUL_MIN_SPAN:
        step = -(-side // (4 if side >= 4 * tuning.MATMUL_MIN_SPAN else 2))
        step = -(-step // 4) * 4  # whole 16-byte vectors of float32
    else:
        return []
    return [(lo, min(lo + step, side)) for lo in range(0, side, step)]


def _swapped(a, b):
    """Whether ``a @ b`` is faster computed as ``(b.T @ a.T).T``: a product by a transposed float32
    matrix (``b`` in Fortran order) of 8 to 48 rows into 192 columns or more. Measured with numpy's
    OpenBLAS on one core: (32, 512) x (512, 192) took 108 us straight and 77 us swapped (copy
    included), (16, 192) x (192, 1024) 208 and 114 us; 64 rows or more, or fewer columns, gain
    nothing or lose."""
    m, k = a.shape
    n = b.shape[1]
    return (8 <= m <= 48 and n >= 192 and m * k * n >= _SMALL and a.dtype == _FLOAT32 and b.dtype == _FLOAT32
            and b.flags.f_contiguous and not b.flags.c_contiguous)


def _outer(a, b):
    """``a @ b`` for ``a`` of one column (a linear layer's input gradient from one output): each element
    is one product, as BLAS rounds it, plus zero as BLAS starts its sums (a zero product is +0), by
    numpy's broadcast multiply, which took 61 us for (1600, 1) x (1, 128) where BLAS took 234 us."""
    out = quiet_call(np.multiply, a, b)
    return np.add(out, 0, out=out)


def matmul(a, b):
    """``a @ b`` for 2-D arrays, by blocks when the product is large (see ``spans``), the other way
    round where that is faster (see ``_swapped``).

    >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> matmul(a, a.T).tolist()
    [[5.0, 14.0], [14.0, 50.0]]
    """
    m, k = a.shape
    n = b.shape[1]
    if k == 1 and a.dtype == b.dtype and a.dtype in _REAL_BLAS_DTYPES:
        return _outer(a, b)
    if m * k * n < _SMALL:
        return quiet_call(np.matmul, a, b)
    if _swapped(a, b):
        return np.ascontiguousarray(matmul(b.T, a.T).T)
    out_dtype = np.result_type(a, b)
    bounds = spans(m, k, n) if out_dtype in _BLAS_DTYPES else []
    if not bounds:
        return quiet_call(np.matmul, a, b)
    out = np.empty((m, n), out_dtype)
    by_rows = m >= n
    if (a.dtype == b.dtype == out_dtype and out_dtype in _REAL_BLAS_DTYPES
            and gemm_blocks.run(a, b, out, bounds[0][1], by_rows, not cpu_threads.serial_kernels())):
        return out

    def block(i):
        lo, hi = bounds[i]
        if by_rows:
            quiet_call(np.matmul, a[lo:hi], b, out=out[lo:hi])
        else:
            quiet_call(np.matmul, a, b[:, lo:hi], out=out[:, lo:hi])

    cpu_threads.run_blocks(block, len(bounds))
    return out


@register("MatMul", calls_blas=True)
def matmul_kernel(ctx, a, b):
    a, b = matmul_operands(ctx, a, b)
    if (b.shape[1] == 1 and a.shape[0] > 1 and a.dtype == _FLOAT32 and b.dtype == _FLOAT32
            and not (ctx.attrs["transpose_a"] or ctx.attrs["transpose_b"])):
        # A matrix times a column (a linear regression's X @ W): BLAS's gemv sums each row otherwise
        # than TensorFlow, which sums it as Eigen's row-major matrix-vector product.
        out = np.empty((a.shape[0], 1), _FLOAT32)
        eigen_float32.compiled(eigen_float32.matrix_vector)(np.ascontiguousarray(a), b[:, 0].copy(), out[:, 0])
        return out
    return matmul(a, b)
