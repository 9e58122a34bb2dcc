"""NumPy kernels of the linear-algebra ops: LAPACK through ``numpy.linalg`` (which releases the GIL) for
inverses, determinants, Cholesky factors, solves and SVDs, and numpy indexing for diagonals and bands.
Errors are plain ``ValueError`` (InvalidArgumentError to the user) in TensorFlow's words.
"""

import numpy as np

from numflow_kernels.errors import dims_text
from numflow_kernels.reference_math import kernel


def _square(x, what="Input matrix"):
    if x.ndim < 2:
        raise ValueError(f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{what} must be square.")


def _adjoint(x):
    return np.swapaxes(x, -1, -2)


@kernel("MatrixInverse", calls_blas=True)
def matrix_inverse(ctx, x):
    _square(x)
    if ctx.attrs["adjoint"]:
        x = _adjoint(x)
    try:
        return np.linalg.inv(x).astype(x.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise ValueError("Input is not invertible.") from None


@kernel("MatrixDeterminant", calls_blas=True)
def matrix_determinant(ctx, x):
    _square(x)
    return np.asarray(np.linalg.det(x), dtype=x.dtype)


@kernel("Cholesky", calls_blas=True)
def cholesky(ctx, x):
    """``L`` of each matrix; a matrix that is not positive definite gets NaN in its lower triangle (TF 2.21)."""
    _square(x)
    batch = x.reshape((-1,) + x.shape[-2:])
    out = np.empty_like(batch)
    failed = np.tril(np.full(x.shape[-2:], np.nan, dtype=x.dtype))
    for i, matrix in enumerate(batch):
        try:
            out[i] = np.linalg.cholesky(matrix)
        except np.linalg.LinAlgError:
            out[i] = failed
    return out.reshape(x.shape)


def _check_solve(matrix, rhs):
    _square(matrix)
    if rhs.ndim != matrix.ndim:
        raise ValueError(f"Input tensors must have the same rank: {dims_text(matrix.shape)} vs. "
                         f"{dims_text(rhs.shape)}")
    if matrix.shape[-1] != rhs.shape[-2]:
        raise ValueError("Input matrix and rhs are incompatible.")


@kernel("MatrixSolve", calls_blas=True)
def matrix_solve(ctx, matrix, rhs):
    _check_solve(matrix, rhs)
    if matrix.shape[:-2] != rhs.shape[:-2]:
        raise ValueError("All input tensors must have the same outer dimensions.")
    if ctx.attrs["adjoint"]:
        matrix = _adjoint(matrix)
    try:
        return np.linalg.solve(matrix, rhs).astype(rhs.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise ValueError("Input matrix is not invertible.") from None


@kernel("MatrixTriangularSolve")
def matrix_triangular_solve(ctx, matrix, rhs):
    """Forward (lower) or back (upper) substitution, row by row over the broadcast batch; a zero on the
    diagonal gives inf or NaN, as in TensorFlow."""
    _check_solve(matrix, rhs)
    lower, adjoint = ctx.attrs["lower"], ctx.attrs["adjoint"]
    a = np.tril(matrix) if lower else np.triu(matrix)
    if adjoint:
        a, lower = _adjoint(a), not lower
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    out = np.array(np.broadcast_to(rhs, batch + rhs.shape[-2:]), dtype=rhs.dtype)
    m = a.shape[-1]
    order = range(m) if lower else range(m - 1, -1, -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            done = slice(0, i) if lower else slice(i + 1, m)
            known = np.einsum("...k,...kj->...j", a[..., i, done], out[..., done, :])
            out[..., i, :] = (out[..., i, :] - known) / a[..., i, i][..., None]
    return out


@kernel("Svd", calls_blas=True)
def svd(ctx, x):
    if x.ndim < 2:
        raise ValueError(f"Input tensor 0 must have rank >= 2, got {x.ndim}")
    if not ctx.attrs["compute_uv"]:
        s = np.linalg.svd(x, compute_uv=False).astype(x.dtype, copy=False)
        return s, np.zeros([0], x.dtype), np.zeros([0], x.dtype)
    u, s, vh = np.linalg.svd(x, full_matrices=ctx.attrs["full_matrices"])
    return s.astype(x.dtype, copy=False), u.astype(x.dtype, copy=False), np.ascontiguousarray(_adjoint(vh), x.dtype)


# -- diagonals and bands ----------------------------------------------------------------------------------
@kernel("Diag")
def diag(ctx, diagonal):
    if diagonal.ndim == 0:
        raise ValueError("Input must be at least rank 1, got 0")
    n = diagonal.size
    out = np.zeros((n, n), dtype=diagonal.dtype)
    out[np.arange(n), np.arange(n)] = diagonal.reshape(-1)
    return out.reshape(diagonal.shape + diagonal.shape)


@kernel("DiagPart")
def diag_part(ctx, x):
    if x.ndim == 0 or x.ndim % 2:
        raise ValueError("The rank of the tensor should be                                          even and "
                         f"positive, got shape {dims_text(x.shape)}")
    half = x.ndim // 2
    for i in range(half):
        if x.shape[i] != x.shape[i + half]:
            raise ValueError(f"Invalid shape {dims_text(x.shape)}: dimensions {i} and {i + half} do not match.")
    n = int(np.prod(x.shape[:half]))
    return np.ascontiguousarray(x.reshape(n, n).diagonal().reshape(x.shape[:half]))


def _one_k(k):
    values = np.reshape(k, -1)
    if values.size == 0 or values.size > 2:
        raise ValueError("diag_index must be a scalar or vector with 1 or 2 elements. It has "
                         f"{values.size} elements.")
    if values.size == 2 and values[0] != values[1]:
        raise NotImplementedError("numflow's matrix_diag ops take one diagonal k, not a band of diagonals.")
    return int(values[0])


def _diag_positions(m, n, k):
    """Row and column indices of diagonal ``k`` of an ``m x n`` matrix."""
    length = max(min(m + min(k, 0), n - max(k, 0)), 0)
    rows = np.arange(length) - min(k, 0)
    return rows, rows + k


@kernel("MatrixDiagV3")
def matrix_diag(ctx, diagonal, k, num_rows, num_cols, padding_value):
    k = _one_k(k)
    length = diagonal.shape[-1]
    rows, cols = int(num_rows), int(num_cols)
    if rows < 0 and cols < 0:
        rows = cols = length + abs(k)
    elif rows < 0:
        rows = length - min(k, 0)
    elif cols < 0:
        cols = length + max(k, 0)
    r, c = _diag_positions(rows, cols, k)
    if r.size != length:
        raise ValueError(f"The number of diagonal elements {length} does not fit diagonal {k} of a {rows}x{cols} "
                         "matrix.")
    out = np.full(diagonal.shape[:-1] + (rows, cols), padding_value, dtype=diagonal.dtype)
    out[..., r, c] = diagonal
    return out


def _matrices(x):
    """The shape of each matrix of ``x``, a batch of matrices (TensorFlow's check)."""
    if x.ndim < 2:
        raise ValueError(f"input must be at least 2-dim, received shape: {dims_text(x.shape)}")
    return x.shape[-2:]


@kernel("MatrixDiagPartV3")
def matrix_diag_part(ctx, x, k, padding_value):
    r, c = _diag_positions(*_matrices(x), _one_k(k))
    return np.ascontiguousarray(x[..., r, c])


@kernel("MatrixSetDiagV3")
def matrix_set_diag(ctx, x, diagonal, k):
    r, c = _diag_positions(*_matrices(x), _one_k(k))
    if diagonal.shape != x.shape[:-2] + (r.size,):
        raise ValueError("Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] "
                         "is not equal to the longests diagonal in range [lower_diag_index:upper_diag_index].")
    out = np.array(x, copy=True)
    out[..., r, c] = diagonal
    return out


@kernel("MatrixBandPart")
def matrix_band_part(ctx, x, num_lower, num_upper):
    m, n = _matrices(x)
    lower, upper = int(num_lower), int(num_upper)
    if lower > m:
        raise ValueError(f"num_lower must be negative or less or equal to number of rows ({m}) got: {lower}")
    if upper > n:
        raise ValueError(f"num_upper must be negative or less or equal to number of columns ({n}) got: {upper}")
    offset = np.arange(n)[None, :] - np.arange(m)[:, None]  # column minus row
    keep = ((lower < 0) | (-offset <= lower)) & ((upper < 0) | (offset <= upper))
    return np.where(keep, x, np.zeros((), x.dtype))


@kernel("Einsum", calls_blas=True)
def einsum(ctx, *inputs):
    """Two operands as one batched matrix product (BLAS, as TensorFlow's kernel reduces an einsum to one);
    numpy's einsum for one operand or a repeated letter."""
    equation = ctx.attrs["equation"]
    try:
        out = _einsum_as_matmul(equation, *inputs) if len(inputs) == 2 else None
        if out is None:
            out = np.einsum(equation, *inputs)
        return np.asarray(out, dtype=inputs[0].dtype)
    except ValueError as e:
        shapes = ", ".join(dims_text(x.shape) for x in inputs)
        raise ValueError(f"Einsum '{equation}' of shapes {shapes}: {e}") from None


def _spelled_out(term, ndim, letters):
    """``term`` with its ``...`` replaced by the last ``ndim - len(term's letters)`` of ``letters``."""
    if "..." not in term:
        return term
    count = ndim - (len(term) - 3)
    return term.replace("...", letters[len(letters) - count:] if count else "")


def _einsum_as_matmul(equation, a, b):
    """``equation`` (explicit, two operands) as sums, transposes, reshapes and one ``np.matmul``; None when an
    operand repeats a letter."""
    lhs, out = equation.split("->")
    ta, tb = lhs.split(",")
    spare = "".join(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in equation)
    width = max(a.ndim - len(ta.replace("...", "")), b.ndim - len(tb.replace("...", "")), 0)
    ellipsis = spare[:width]
    ta, tb = _spelled_out(ta, a.ndim, ellipsis), _spelled_out(tb, b.ndim, ellipsis)
    out = out.replace("...", ellipsis)
    if len(set(ta)) != len(ta) or len(set(tb)) != len(tb):
        return None
    a, ta = _sum_out(a, ta, tb + out)
    b, tb = _sum_out(b, tb, ta + out)
    batch = [c for c in out if c in ta and c in tb]
    contract = [c for c in ta if c in tb and c not in out]
    free_a = [c for c in ta if c not in tb]
    free_b = [c for c in tb if c not in ta]
    size = {}
    for term, shape in ((ta, a.shape), (tb, b.shape)):
        for c, n in zip(term, shape):
            size[c] = max(size.get(c, 1), n)  # a batch letter of size 1 broadcasts
    am = np.transpose(a, [ta.index(c) for c in batch + free_a + contract])
    bm = np.transpose(b, [tb.index(c) for c in batch + contract + free_b])
    am = am.reshape(am.shape[:len(batch)] + (_prod(size, free_a), _prod(size, contract)))
    bm = bm.reshape(bm.shape[:len(batch)] + (_prod(size, contract), _prod(size, free_b)))
    product = np.matmul(am, bm)
    product = product.reshape(product.shape[:len(batch)] + tuple(size[c] for c in free_a + free_b))
    order = batch + free_a + free_b
    return np.transpose(product, [order.index(c) for c in out])


def _sum_out(x, term, kept):
    """``x`` summed over the letters of ``term`` that no other term has, and its remaining term."""
    axes = tuple(i for i, c in enumerate(term) if c not in kept)
    if not axes:
        return x, term
    return x.sum(axis=axes), "".join(c for c in term if c in kept)


def _prod(size, letters):
    return int(np.prod([size[c] for c in letters], dtype=np.int64))


@kernel("Cross")
def cross(ctx, a, b):
    if np.shape(a) != np.shape(b):
        raise ValueError(f"Both inputs must be of same shape: {dims_text(np.shape(a))} vs. {dims_text(np.shape(b))}")
    if np.shape(a)[-1:] != (3,):
        raise ValueError(f"Trailing dimension must be of size 3: {dims_text(np.shape(a))}")
    return np.cross(a, b).astype(a.dtype, copy=False)


@kernel("Qr")
def qr(ctx, x):
    q, r = np.linalg.qr(x, mode="complete" if ctx.attrs["full_matrices"] else "reduced")
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)
