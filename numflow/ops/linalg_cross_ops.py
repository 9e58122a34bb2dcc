"""``tf.cross`` (op ``Cross``: the cross product of the last, size-3 axes, with its gradient) and
``tf.linalg.logdet`` (twice the summed log of a Cholesky factor's diagonal, as TensorFlow builds it)."""

from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import math_ops
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.linalg_ops import cholesky, matrix_diag_part
from numflow.ops.math_ops import REAL
from numflow.ops.op_util import _out, check_dtype, check_same_dtype, merge_dims


@declare("Cross")
def _cross_infer(op):
    a, b = op.inputs
    check_dtype(a, REAL, "a")
    check_same_dtype(a, b, "Cross", "a", "b")
    if a.shape.ndims is None or b.shape.ndims is None:
        known = a.shape if a.shape.ndims is not None else b.shape
        return [(a.dtype, known if known.ndims is not None else TensorShape(None))]
    if a.shape.ndims != b.shape.ndims:
        raise ValueError(f"Shape must be rank {a.shape.ndims} but is rank {b.shape.ndims} for 'Cross'")
    if a.shape.ndims < 1:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    dims = [merge_dims(x, y, i, a.shape.dim_values, b.shape.dim_values)
            for i, (x, y) in enumerate(zip(a.shape.dim_values, b.shape.dim_values))]
    if dims[-1] is not None and dims[-1] != 3:
        raise ValueError(f"Dimension must be 3 but is {dims[-1]}")
    return [(a.dtype, TensorShape(dims))]


def cross(a, b, name=None):
    """The cross product of the 3-vectors along the last axis of ``a`` and ``b`` (one shape; op ``Cross``)."""
    with get_default_graph().name_scope(name or "Cross") as scope:
        a = convert_to_tensor(a, name="a")
        b = convert_to_tensor(b, name="b") if is_tensor(b) else convert_to_tensor(b, dtype=a.dtype, name="b")
        return _out("Cross", [a, b], name=scope)[0]


@gradient("Cross")
def _cross_grad(op, grad):
    a, b = op.inputs
    return [cross(b, grad), cross(grad, a)]


def logdet(matrix, name=None):
    """The log of the determinant of each Hermitian positive definite ``matrix``, computed from its Cholesky
    factor ``L`` as ``2 * sum(log(diag(L)))`` (stable where the determinant itself would under- or overflow)."""
    with get_default_graph().name_scope(name or "logdet"):
        factor = cholesky(convert_to_tensor(matrix, name="matrix"))
        return 2.0 * math_ops.reduce_sum(math_ops.log(matrix_diag_part(factor)), axis=[-1])
