"""Kernels of ``numflow/ops/linalg_more_ops.py``: ``SelfAdjointEigV2`` (LAPACK's syevd through numpy, the
lower triangle read), ``LogMatrixDeterminant`` and ``Lu`` (partial pivoting on the largest magnitude, the
first of ties, as Eigen's PartialPivLU chooses)."""

import numpy as np

from numflow_kernels.reference_math import kernel


def _square(x):
    if x.ndim < 2:
        raise ValueError(f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Input matrices must be squares, got {x.shape[-2]} != {x.shape[-1]}")


@kernel("SelfAdjointEigV2", calls_blas=True)
def self_adjoint_eig(ctx, x):
    _square(x)
    if not ctx.attrs["compute_v"]:
        return np.linalg.eigvalsh(x, UPLO="L").astype(x.dtype, copy=False), np.zeros([0], x.dtype)
    e, v = np.linalg.eigh(x, UPLO="L")
    return e.astype(x.dtype, copy=False), v.astype(x.dtype, copy=False)


@kernel("LogMatrixDeterminant", calls_blas=True)
def log_matrix_determinant(ctx, x):
    _square(x)
    sign, log_abs = np.linalg.slogdet(x)
    return np.asarray(sign, x.dtype), np.asarray(log_abs, x.dtype)


def _lu_one(a):
    """One matrix's packed LU factors and row permutation, computed in its own dtype."""
    n = a.shape[0]
    lu = a.copy()
    perm = np.arange(n)
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(lu[k:, k])))
        if pivot != k:
            lu[[k, pivot]] = lu[[pivot, k]]
            perm[[k, pivot]] = perm[[pivot, k]]
        if lu[k, k] != 0:
            lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, perm


@kernel("Lu")
def lu(ctx, x):
    _square(x)
    batch = x.reshape((-1,) + x.shape[-2:])
    packed = np.empty_like(batch)
    perms = np.empty(batch.shape[:-1], ctx.attrs["output_idx_type"])
    for i, matrix in enumerate(batch):
        packed[i], perms[i] = _lu_one(matrix)
    return packed.reshape(x.shape), perms.reshape(x.shape[:-1])
