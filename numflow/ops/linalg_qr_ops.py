"""``tf.qr`` (op ``Qr``): the QR factorization of (batches of) matrices, reduced or full, with the gradient
TensorFlow's ``linalg_grad.py`` gives it (square, deep and wide matrices; not deep ones with
``full_matrices=True``). Householder reflections, the diagonal of ``r`` signed as LAPACK and Eigen sign it."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.linalg_ops import matrix_band_part, matrix_transpose, matrix_triangular_solve
from numflow.ops.op_util import _out, check_dtype, check_rank

mm = math_ops.matmul


@declare("Qr")
def _qr_infer(op):
    x = op.inputs[0]
    check_dtype(x, (dtypes.float16, dtypes.float32, dtypes.float64), "input")
    check_rank(x.shape, 2, at_least=True)
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))] * 2
    *batch, rows, cols = x.shape.dim_values
    inner = rows if op._attrs["full_matrices"] else (None if None in (rows, cols) else min(rows, cols))
    return [(x.dtype, TensorShape([*batch, rows, inner])), (x.dtype, TensorShape([*batch, inner, cols]))]


def qr(input, full_matrices=False, name=None):  # noqa: A002 - TensorFlow's argument name
    """``q, r`` with ``input = q @ r``: ``q`` with orthonormal columns, ``r`` upper triangular; ``q`` is
    ``[..., M, min(M, N)]`` and ``r`` ``[..., min(M, N), N]``, or ``[..., M, M]`` and ``[..., M, N]`` with
    ``full_matrices`` (op ``Qr``)."""
    with get_default_graph().name_scope(name or "Qr") as scope:
        x = convert_to_tensor(input, name="input")
        return tuple(_out("Qr", [x], {"full_matrices": bool(full_matrices)}, name=scope))


def _triangular_solve(x, r):
    """``x @ inv(r)`` for upper-triangular ``r``."""
    return matrix_transpose(matrix_triangular_solve(r, matrix_transpose(x), lower=False, adjoint=False))


def _square_and_deep_grad(q, r, dq, dr):
    qdq = mm(q, dq, adjoint_a=True)
    qdq_ = qdq - matrix_transpose(qdq)
    rdr = mm(r, dr, adjoint_b=True)
    rdr_ = rdr - matrix_transpose(rdr)
    tril = matrix_band_part(qdq_ + rdr_, -1, 0)
    return mm(q, dr + _triangular_solve(tril, r)) + _triangular_solve(dq - mm(q, qdq), r)


@gradient("Qr")
def _qr_grad(op, dq, dr):
    a = op.inputs[0]
    q, r = op.outputs
    rows, cols = q.shape.dim_values[-2], r.shape.dim_values[-1] if r.shape.ndims is not None else None
    if r.shape.ndims is None or None in r.shape.dim_values[-2:]:
        raise NotImplementedError(f"QrGrad not implemented with dynamic shapes. Received r.shape: {r.shape}")
    if r.shape.dim_values[-2] > cols and q.shape.dim_values[-2] == q.shape.dim_values[-1]:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
                                  f"r.shape={r.shape} with nrows={r.shape.dim_values[-2]}and ncols={cols}.")
    dq = array_ops.zeros_like(q) if dq is None else dq
    dr = array_ops.zeros_like(r) if dr is None else dr
    if rows >= cols:
        return [_square_and_deep_grad(q, r, dq, dr)]
    y, u = a[..., :, rows:], r[..., :, :rows]
    dv, du = dr[..., :, rows:], dr[..., :, :rows]
    dx = _square_and_deep_grad(q, u, dq + mm(y, dv, adjoint_b=True), du)
    return [array_ops.concat([dx, mm(q, dv)], axis=-1)]
