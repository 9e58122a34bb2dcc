"""More of ``tf.linalg``: ``eigh``/``eigvalsh`` (op ``SelfAdjointEigV2``), ``slogdet`` (op
``LogMatrixDeterminant``), ``lu`` (op ``Lu``), and TensorFlow's compositions ``adjoint``, ``matvec``,
``normalize``, ``cholesky_solve``, ``lstsq``/``matrix_solve_ls``, ``pinv`` and ``matrix_rank``.
Kernels: ``numflow_kernels/reference_linalg_more.py``; gradients as TensorFlow's ``linalg_grad.py``.
"""

import collections

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.linalg_grad import _safe_reciprocal
from numflow.ops.linalg_ops import (
    _solve_inputs,
    _square,
    cholesky,
    eye,
    matrix_band_part,
    matrix_diag,
    matrix_diag_part,
    matrix_inverse,
    matrix_set_diag,
    matrix_transpose,
    norm,
    svd,
)
from numflow.ops.math_ops import FLOATS
from numflow.ops.op_util import _out, check_dtype
from numflow.ops.selection_ops import where_v2


@declare("SelfAdjointEigV2")
def _eig_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    dims = _square(x)
    if dims is None:
        return [(x.dtype, TensorShape(None)), (x.dtype, TensorShape(None))]
    v_shape = TensorShape(dims) if op._attrs["compute_v"] else TensorShape([0])
    return [(x.dtype, TensorShape(dims[:-1])), (x.dtype, v_shape)]


def self_adjoint_eig(tensor, name=None):
    """``(e, v)``: the eigenvalues (ascending) and eigenvectors (columns) of the self-adjoint matrices
    ``tensor``, of which only the lower triangle is read (op ``SelfAdjointEigV2``)."""
    with get_default_graph().name_scope(name or "SelfAdjointEigV2") as scope:
        tensor = convert_to_tensor(tensor, name="input")
        e, v = _out("SelfAdjointEigV2", [tensor], {"compute_v": True}, name=scope)
        return e, v


def self_adjoint_eigvals(tensor, name=None):
    """The eigenvalues (ascending) of the self-adjoint matrices ``tensor``."""
    with get_default_graph().name_scope(name or "SelfAdjointEigV2") as scope:
        tensor = convert_to_tensor(tensor, name="input")
        return _out("SelfAdjointEigV2", [tensor], {"compute_v": False}, name=scope)[0]


@declare("LogMatrixDeterminant")
def _slogdet_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    dims = _square(x)
    batch = TensorShape(None if dims is None else dims[:-2])
    return [(x.dtype, batch), (x.dtype, batch)]


def slogdet(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """``(sign, log_abs_determinant)`` of the square matrices ``input`` (op ``LogMatrixDeterminant``)."""
    with get_default_graph().name_scope(name or "LogMatrixDeterminant") as scope:
        input = convert_to_tensor(input, name="input")
        sign, log_abs_det = _out("LogMatrixDeterminant", [input], name=scope)
        return sign, log_abs_det


Lu = collections.namedtuple("Lu", ["lu", "p"])


@declare("Lu")
def _lu_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    dims = _square(x)
    index_type = op._attrs["output_idx_type"]
    if dims is None:
        return [(x.dtype, TensorShape(None)), (index_type, TensorShape(None))]
    return [(x.dtype, TensorShape(dims)), (index_type, TensorShape(dims[:-1]))]


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002 - TensorFlow's argument name
    """``(lu, p)``: the LU decomposition with partial pivoting of the square matrices ``input``: unit lower
    triangle ``L`` and upper triangle ``U`` packed in ``lu``, and ``input[p] == L @ U`` (op ``Lu``)."""
    output_idx_type = dtypes.as_dtype(output_idx_type)
    with get_default_graph().name_scope(name or "Lu") as scope:
        input = convert_to_tensor(input, name="input")
        return Lu(*_out("Lu", [input], {"output_idx_type": output_idx_type}, name=scope))


# -- compositions, as TensorFlow writes them -----------------------------------------------------------------
def adjoint(matrix, name=None):
    """The conjugate transpose of the innermost two dimensions of ``matrix``."""
    with get_default_graph().name_scope(name or "adjoint"):
        matrix = convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """The product of the matrices ``a`` and the vectors ``b``: ``matmul(a, b[..., None])[..., 0]``."""
    with get_default_graph().name_scope(name or "MatVec"):
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b")
        output = math_ops.matmul(a, array_ops.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a,
                                 a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
        return array_ops.squeeze(output, axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TensorFlow's argument name
    """``(tensor / norm, norm)``, the norm kept in the reduced dimensions (``tf.linalg.normalize``)."""
    with get_default_graph().name_scope(name or "normalize"):
        tensor = convert_to_tensor(tensor)
        tensor_norm = math_ops.cast(norm(tensor, ord, axis, keepdims=True), tensor.dtype)
        return tensor / tensor_norm, tensor_norm


def cholesky_solve(chol, rhs, name=None):
    """The solution ``x`` of ``A x = rhs`` given the Cholesky factor ``chol`` of ``A``: two triangular solves."""
    with get_default_graph().name_scope(name or "cholesky_solve"):
        y = _out("MatrixTriangularSolve", _solve_inputs(chol, rhs), {"lower": True, "adjoint": False})[0]
        return _out("MatrixTriangularSolve", _solve_inputs(chol, y), {"lower": True, "adjoint": True})[0]


def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    gramian = math_ops.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if isinstance(l2_regularizer, Tensor) or l2_regularizer != 0:
        matrix_shape = array_ops.shape(matrix)
        small_dim = matrix_shape[-1] if first_kind else matrix_shape[-2]
        identity = eye(small_dim, batch_shape=matrix_shape[:-2], dtype=matrix.dtype.base_dtype)
        small_dim_static = matrix.shape[-1 if first_kind else -2]
        identity.set_shape(matrix.shape[:-2].concatenate([small_dim_static, small_dim_static]))
        gramian += l2_regularizer * identity
    return cholesky(gramian)


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solutions ``x`` of ``matrix @ x = rhs`` (minimum norm where underdetermined), with
    Tikhonov regularization ``l2_regularizer``: the Cholesky factor of the normal equations, as TensorFlow's
    fast path computes them; ``fast=False`` is not supported."""
    if not fast:
        raise NotImplementedError("matrix_solve_ls with fast=False (a complete orthogonal decomposition) is not "
                                  "supported; use fast=True.")
    matrix = convert_to_tensor(matrix, name="matrix")

    def overdetermined():
        chol = _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=True)
        return cholesky_solve(chol, math_ops.matmul(matrix, rhs, adjoint_a=True))

    def underdetermined():
        chol = _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind=False)
        return math_ops.matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)

    with get_default_graph().name_scope(name or "matrix_solve_ls"):
        matrix_shape = matrix.shape[-2:]
        if matrix_shape.is_fully_defined():
            return overdetermined() if matrix_shape[-2] >= matrix_shape[-1] else underdetermined()
        from numflow.ops.cond import cond

        dims = array_ops.shape(matrix)[-2:]
        return cond(dims[-2] >= dims[-1], overdetermined, underdetermined)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of the matrices ``a``, from their singular values above ``rcond``
    times the largest (default: ``10 * max(rows, cols) * eps``)."""
    with get_default_graph().name_scope(name or "pinv"):
        a = convert_to_tensor(a, name="a")
        numpy_dtype = a.dtype.base_dtype.as_numpy_dtype
        if rcond is None:
            dims = [dimension_value(a.shape[d]) for d in (-2, -1)]
            if None in dims:
                shape = array_ops.shape(a)
                max_rows_cols = math_ops.cast(math_ops.maximum(shape[-2], shape[-1]), a.dtype.base_dtype)
            else:
                max_rows_cols = float(max(dims))
            rcond = 10.0 * max_rows_cols * np.finfo(numpy_dtype).eps
        rcond = convert_to_tensor(rcond, dtype=a.dtype.base_dtype, name="rcond")
        singular_values, left, right = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * math_ops.reduce_max(singular_values, axis=-1)
        singular_values = where_v2(singular_values > array_ops.expand_dims(cutoff, -1), singular_values,
                                   np.array(np.inf, numpy_dtype))
        a_pinv = math_ops.matmul(right / array_ops.expand_dims(singular_values, -2), left, adjoint_b=True)
        if a.shape.ndims is not None:
            a_pinv.set_shape(a.shape[:-2].concatenate([a.shape[-1], a.shape[-2]]))
        return a_pinv


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of the matrices ``a`` above ``tol`` (default: ``eps * max(rows, cols)``
    times the largest)."""
    with get_default_graph().name_scope(name or "matrix_rank"):
        a = convert_to_tensor(a, name="a", preferred_dtype=dtypes.float32)
        s = svd(a, compute_uv=False)
        if tol is None:
            if a.shape[-2:].is_fully_defined():
                m = np.max(a.shape[-2:].as_list())
            else:
                m = math_ops.reduce_max(array_ops.shape(a)[-2:])
            eps = np.finfo(a.dtype.base_dtype.as_numpy_dtype).eps
            tol = eps * math_ops.cast(m, a.dtype.base_dtype) * math_ops.reduce_max(s, axis=-1, keepdims=True)
        return math_ops.reduce_sum(math_ops.cast(s > tol, dtypes.int32), axis=-1)


# -- gradients: TensorFlow's (linalg_grad.py) ------------------------------------------------------------------
@gradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    with get_default_graph().control_dependencies([g for g in (grad_e, grad_v) if g is not None]):
        if grad_e is None:
            grad_e = array_ops.zeros_like(e)
        if op._attrs["compute_v"]:
            v = op.outputs[1]
            f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
                                array_ops.zeros_like(e))
            inner = matrix_diag(grad_e)
            if grad_v is not None:
                inner = inner + f * math_ops.matmul(v, grad_v, adjoint_a=True)
            grad_a = math_ops.matmul(v, math_ops.matmul(inner, v, adjoint_b=True))
        else:
            _, v = self_adjoint_eig(op.inputs[0])
            grad_a = math_ops.matmul(v, math_ops.matmul(matrix_diag(grad_e), v, adjoint_b=True))
        grad_a = matrix_band_part(grad_a + adjoint(grad_a), -1, 0)
        return [matrix_set_diag(grad_a, 0.5 * matrix_diag_part(grad_a))]


@gradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
    a, c = op.inputs[0], op.outputs[1]
    a_adj_inv = matrix_inverse(a, adjoint=True)
    multipliers = array_ops.reshape(grad_b, array_ops.concat([array_ops.shape(c), [1, 1]], 0))
    return [multipliers * a_adj_inv]
