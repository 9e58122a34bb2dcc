"""Gradients of the linear-algebra ops, as TensorFlow's ``linalg_grad.py`` and ``array_grad.py`` build them."""

from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, sum_to
from numflow.ops.linalg_ops import (
    diag,
    diag_part,
    eye,
    matrix_band_part,
    matrix_diag,
    matrix_diag_part,
    matrix_inverse,
    matrix_set_diag,
    matrix_solve,
    matrix_transpose,
    matrix_triangular_solve,
    svd,
)

mm = math_ops.matmul


@gradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    adjoint = op._attrs["adjoint"]
    inner = mm(grad, ainv, adjoint_a=adjoint, adjoint_b=not adjoint)
    return [math_ops.negative(mm(ainv, inner, adjoint_a=not adjoint))]


@gradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    """``grad * det(a) * inverse(a)^T``."""
    a, c = op.inputs[0], op.outputs[0]
    a_adj_inv = matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad * c, array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return [multipliers * a_adj_inv]


@gradient("Cholesky")
def _cholesky_grad(op, grad):
    """``L^-T @ Phi(L^T @ grad) @ L^-1``, symmetrized, with Phi the lower triangle and half the diagonal."""
    lower = op.outputs[0]
    shape = array_ops.shape(lower)
    l_inverse = matrix_triangular_solve(lower, eye(shape[-1], batch_shape=shape[:-2], dtype=lower.dtype.base_dtype))
    middle = mm(lower, grad, adjoint_a=True)
    middle = matrix_set_diag(middle, 0.5 * matrix_diag_part(middle))
    middle = matrix_band_part(middle, -1, 0)
    grad_a = mm(mm(l_inverse, middle, adjoint_a=True), l_inverse)
    grad_a += matrix_transpose(grad_a)
    return [grad_a * 0.5]


@gradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adjoint = op._attrs["adjoint"]
    grad_b = matrix_solve(a, grad, adjoint=not adjoint)
    grad_a = mm(c, grad_b, adjoint_b=True) if adjoint else mm(grad_b, c, adjoint_b=True)
    return [math_ops.negative(grad_a), grad_b]


@gradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
    a, b = op.inputs
    c = op.outputs[0]
    adjoint, lower = op._attrs["adjoint"], op._attrs["lower"]
    grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adjoint)
    grad_a = math_ops.negative(mm(c, grad_b, adjoint_b=True) if adjoint else mm(grad_b, c, adjoint_b=True))
    grad_a = matrix_band_part(grad_a, -1, 0) if lower else matrix_band_part(grad_a, 0, -1)
    if a.shape.is_fully_defined() and b.shape.is_fully_defined() and a.shape[:-2] == b.shape[:-2]:
        return [grad_a, grad_b]
    return [sum_to(grad_a, a), sum_to(grad_b, b)]


@gradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    """TensorFlow's: ``u @ diag(grad_s) @ v^T`` for singular values alone (``compute_uv=False``), else the
    full expression for real matrices of known inner dimensions."""
    a = op.inputs[0]
    s, u, v = op.outputs
    grad_s = array_ops.zeros_like(s) if grad_s is None else math_ops.cast(grad_s, a.dtype)
    grad_s_mat = matrix_diag(grad_s)
    if not op._attrs["compute_uv"]:
        _, u, v = svd(a, compute_uv=True)
        grad_a = mm(u, mm(grad_s_mat, v, adjoint_b=True))
        grad_a.set_shape(a.shape)
        return [grad_a]
    grad_u = array_ops.zeros_like(u) if grad_u is None else grad_u
    grad_v = array_ops.zeros_like(v) if grad_v is None else grad_v
    m, n = (a.shape.dim_values[-2:] if a.shape.ndims else (None, None))
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix shape.")
    full_matrices = op._attrs["full_matrices"]
    use_adjoint = m > n
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(f"svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
                                  f"Received: m={m} and n={n} from op input={a} with shape={a.shape}.")
    s_mat = matrix_diag(s)
    s2 = math_ops.square(s)
    f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(s2, -2) - array_ops.expand_dims(s2, -1)),
                        array_ops.zeros_like(s))
    s_inv_mat = matrix_diag(_safe_reciprocal(s))
    v1 = v[..., :, :m]
    grad_v1 = grad_v[..., :, :m]
    f_u = f * mm(u, grad_u, adjoint_a=True)
    f_v = f * mm(v1, grad_v1, adjoint_a=True)
    term1_nouv = (grad_s_mat + mm(f_u + matrix_transpose(f_u), s_mat)
                  + mm(s_mat, f_v + matrix_transpose(f_v)))
    grad_a = mm(u, mm(term1_nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = matrix_transpose(grad_v1)
        term2_nous = gv1t - mm(mm(gv1t, v1), v1, adjoint_b=True)
        if full_matrices:
            v2 = v[..., :, m:n]
            term2_nous -= mm(mm(v1, grad_v[..., :, m:n], adjoint_a=True), v2, adjoint_b=True)
        grad_a = grad_a + mm(mm(u, s_inv_mat), term2_nous)
    if use_adjoint:
        grad_a = matrix_transpose(grad_a)
    grad_a.set_shape(a.shape)
    return [grad_a]


def _safe_reciprocal(x, epsilon=1e-20):
    return x * math_ops.reciprocal(x * x + epsilon)


@gradient("Diag")
def _diag_grad(op, grad):
    return [diag_part(grad)]


@gradient("DiagPart")
def _diag_part_grad(op, grad):
    return [diag(grad)]


@gradient("MatrixDiagV3")
def _matrix_diag_grad(op, grad):
    return [matrix_diag_part(grad, k=op.inputs[1]), None, None, None, None]


@gradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, grad):
    x, k = op.inputs[:2]
    rows, cols = x.shape.dim_values[-2:] if x.shape.ndims is not None else (None, None)
    if rows is not None and cols is not None:
        return [matrix_diag(grad, k=k, num_rows=rows, num_cols=cols), None, None]
    return [matrix_set_diag(array_ops.zeros_like(x), grad, k=k), None, None]


@gradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, grad):
    diagonal, k = op.inputs[1:]
    grad_input = matrix_set_diag(grad, array_ops.zeros_like(diagonal), k=k)
    return [grad_input, matrix_diag_part(grad, k=k), None]


@gradient("MatrixBandPart")
def _matrix_band_part_grad(op, grad):
    return [matrix_band_part(grad, op.inputs[1], op.inputs[2]), None, None]


