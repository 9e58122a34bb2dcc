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
    """``u @ diag(grad_s) @ v^T`` for singular values alone (``compute_uv=False``), as TensorFlow gives it."""
    if op._attrs["compute_uv"]:
        raise NotImplementedError(f"The gradient of {op.name} (Svd) is implemented for compute_uv=False only.")
    a = op.inputs[0]
    _, u, v = svd(a, compute_uv=True)
    grad_a = mm(u, mm(matrix_diag(grad_s), v, adjoint_b=True))
    grad_a.set_shape(a.shape)
    return [grad_a]


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


