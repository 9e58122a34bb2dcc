"""Linear algebra on (batches of) matrices: inverse, determinant, Cholesky, solves, SVD, diagonals and
bands, ``eye``, ``trace``, ``matrix_transpose`` and ``norm``, with TensorFlow's op types
(``MatrixInverse``, ``MatrixDeterminant``, ``Cholesky``, ``MatrixSolve``, ``MatrixTriangularSolve``,
``Svd``, ``Diag``, ``DiagPart``, ``MatrixDiagV3``, ``MatrixDiagPartV3``, ``MatrixSetDiagV3``,
``MatrixBandPart``). The innermost two dimensions hold the matrices; the others are batch
dimensions. ``k`` of the ``matrix_diag`` family is one diagonal (0: the main one, > 0 above it).
Gradients are in ``linalg_grad.py``; kernels in ``numflow_kernels/reference_linalg.py``.
"""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops import array_ops, math_ops
from numflow.ops.complex_ops import conj
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, REAL
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, check_same_dtype, static_value


def _square(x, param="input"):
    """The dims of a batch of square matrices ``x``, after TensorFlow's checks (None: unknown rank)."""
    check_rank(x.shape, 2, at_least=True)
    if x.shape.ndims is None:
        return None
    dims = x.shape.dim_values
    m, n = dims[-2:]
    if m is not None and n is not None and m != n:
        raise ValueError(f"Dimensions must be equal, but are {m} and {n}")
    dims[-1] = dims[-2] = m if m is not None else n
    return dims


def _same_square(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    dims = _square(x)
    return [(x.dtype, TensorShape(dims))]


declare("MatrixInverse")(_same_square)
declare("Cholesky")(_same_square)


@declare("MatrixDeterminant")
def _determinant_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    dims = _square(x)
    return [(x.dtype, TensorShape(None if dims is None else dims[:-2]))]


def _solve_infer(op):
    matrix, rhs = op.inputs
    check_dtype(matrix, FLOATS, "matrix")
    check_same_dtype(matrix, rhs, op.type, "matrix", "rhs")
    dims = _square(matrix)
    check_rank(rhs.shape, 2, at_least=True)
    if dims is None or rhs.shape.ndims is None:
        return [(rhs.dtype, TensorShape(None))]
    m, k = rhs.shape.dim_values[-2:]
    if dims[-1] is not None and m is not None and dims[-1] != m:
        raise ValueError(f"Dimensions must be equal, but are {dims[-1]} and {m}")
    batch = broadcast_shapes(dims[:-2], rhs.shape.dim_values[:-2])
    return [(rhs.dtype, batch.concatenate([dims[-1] if dims[-1] is not None else m, k]))]


declare("MatrixSolve")(_solve_infer)
declare("MatrixTriangularSolve")(_solve_infer)


def _unary(op_type, input, name, attrs=None):  # noqa: A002 - TensorFlow's argument name
    with get_default_graph().name_scope(name or op_type) as scope:
        return _out(op_type, [convert_to_tensor(input, name="input")], attrs, name=scope)[0]


def matrix_inverse(input, adjoint=False, name=None):  # noqa: A002 - TensorFlow's argument name
    """The inverse of each square matrix of ``input`` (of its adjoint with ``adjoint=True``; op
    ``MatrixInverse``). A matrix with an exact zero pivot fails at run time: "Input is not invertible."."""
    return _unary("MatrixInverse", input, name, {"adjoint": bool(adjoint)})


def matrix_determinant(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The determinant of each square matrix of ``input`` (op ``MatrixDeterminant``)."""
    return _unary("MatrixDeterminant", input, name)


def cholesky(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The lower-triangular Cholesky factor ``L`` of each symmetric positive-definite matrix of ``input``
    (``input = L @ L^T``; op ``Cholesky``). Only the lower triangle is read. A matrix that is not
    positive definite gives NaN in its lower triangle, as TensorFlow 2.21 gives it."""
    return _unary("Cholesky", input, name)


def _solve_inputs(matrix, rhs):
    matrix = convert_to_tensor(matrix, name="matrix")
    return [matrix, convert_to_tensor(rhs, name="rhs", preferred_dtype=matrix.dtype.base_dtype)]


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """``X`` with ``matrix @ X = rhs`` for each square ``matrix`` (``adjoint(matrix) @ X = rhs`` with
    ``adjoint=True``; op ``MatrixSolve``)."""
    with get_default_graph().name_scope(name or "MatrixSolve") as scope:
        return _out("MatrixSolve", _solve_inputs(matrix, rhs), {"adjoint": bool(adjoint)}, name=scope)[0]


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """``X`` with ``matrix @ X = rhs`` for each lower (``lower=True``) or upper triangular ``matrix``; the
    other triangle is not read (op ``MatrixTriangularSolve``)."""
    with get_default_graph().name_scope(name or "triangular_solve"):
        attrs = {"lower": bool(lower), "adjoint": bool(adjoint)}
        return _out("MatrixTriangularSolve", _solve_inputs(matrix, rhs), attrs)[0]


@declare("Svd")
def _svd_infer(op):
    x = op.inputs[0]
    check_dtype(x, FLOATS, "input")
    check_rank(x.shape, 2, at_least=True)
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))] * 3
    batch, (m, n) = x.shape.dim_values[:-2], x.shape.dim_values[-2:]
    p = None if m is None or n is None else min(m, n)
    if not op._attrs["compute_uv"]:
        return [(x.dtype, TensorShape(batch + [p])), (x.dtype, TensorShape([0])), (x.dtype, TensorShape([0]))]
    full = op._attrs["full_matrices"]
    u = batch + [m, m if full else p]
    v = batch + [n, n if full else p]
    return [(x.dtype, TensorShape(batch + [p])), (x.dtype, TensorShape(u)), (x.dtype, TensorShape(v))]


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular values ``s`` of each matrix of ``tensor`` (descending), and with ``compute_uv`` the
    ``(s, u, v)`` with ``tensor = u @ diag(s) @ transpose(v)`` (op ``Svd``)."""
    with get_default_graph().name_scope(name or "Svd") as scope:
        x = convert_to_tensor(tensor, name="input")
        s, u, v = _out("Svd", [x], {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                       name=scope)
        return (s, u, v) if compute_uv else s


# -- diagonals and bands ----------------------------------------------------------------------------------
def _diag_infer(op):
    x = op.inputs[0]
    check_dtype(x, REAL, "diagonal")
    check_rank(x.shape, 1, at_least=True)
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))]
    return [(x.dtype, TensorShape(x.shape.dim_values + x.shape.dim_values))]


declare("Diag")(_diag_infer)


@declare("DiagPart")
def _diag_part_infer(op):
    x = op.inputs[0]
    check_dtype(x, REAL, "input")
    rank = x.shape.ndims
    if rank is None:
        return [(x.dtype, TensorShape(None))]
    if rank % 2 or rank == 0:
        raise ValueError(f"Input must have even rank <= 6, input rank is {rank}")
    half = rank // 2
    dims = x.shape.dim_values
    for i in range(half):
        a, b = dims[i], dims[i + half]
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return [(x.dtype, TensorShape([a if a is not None else b for a, b in zip(dims[:half], dims[half:])]))]


def diag(diagonal, name=None):
    """A tensor of rank ``2k`` with ``diagonal`` (rank ``k``) on its diagonal and zeros elsewhere (op ``Diag``)."""
    with get_default_graph().name_scope(name or "Diag") as scope:
        return _out("Diag", [convert_to_tensor(diagonal, name="diagonal")], name=scope)[0]


def diag_part(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The diagonal of a tensor of rank ``2k``, the inverse of :func:`diag` (op ``DiagPart``)."""
    with get_default_graph().name_scope(name or "DiagPart") as scope:
        return _out("DiagPart", [convert_to_tensor(input, name="input")], name=scope)[0]


def _diag_len(m, n, k):
    """The length of diagonal ``k`` of an ``m x n`` matrix (None when unknown)."""
    if m is None or n is None or k is None:
        return None
    return max(min(m + min(k, 0), n - max(k, 0)), 0)


def _scalar_k(k_tensor):
    value = static_value(k_tensor)
    if value is None:
        return None
    value = np.reshape(value, -1)
    if value.size == 2 and value[0] != value[1]:
        raise NotImplementedError("matrix_diag and its kin support one diagonal k, not a band of diagonals.")
    return int(value[0])


@declare("MatrixDiagV3")
def _matrix_diag_infer(op):
    diagonal, k, num_rows, num_cols, padding = op.inputs
    check_rank(diagonal.shape, 1, at_least=True)
    check_same_dtype(diagonal, padding, "MatrixDiagV3", "diagonal", "padding_value")
    if diagonal.shape.ndims is None:
        return [(diagonal.dtype, TensorShape(None))]
    k, length = _scalar_k(k), diagonal.shape.dim_values[-1]
    rows, cols = static_value(num_rows), static_value(num_cols)
    rows, cols = (None if v is None or int(v) < 0 else int(v) for v in (rows, cols))
    if k is not None and length is not None:  # -1 rows or columns: as many as diagonal k needs
        if rows is None and cols is None:
            rows = cols = length + abs(k)
        elif rows is None:
            rows = length - min(k, 0)
        elif cols is None:
            cols = length + max(k, 0)
    return [(diagonal.dtype, TensorShape(diagonal.shape.dim_values[:-1] + [rows, cols]))]


@declare("MatrixDiagPartV3")
def _matrix_diag_part_infer(op):
    x, k, padding = op.inputs
    check_rank(x.shape, 2, at_least=True)
    check_same_dtype(x, padding, "MatrixDiagPartV3", "input", "padding_value")
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))]
    m, n = x.shape.dim_values[-2:]
    return [(x.dtype, TensorShape(x.shape.dim_values[:-2] + [_diag_len(m, n, _scalar_k(k))]))]


@declare("MatrixSetDiagV3")
def _matrix_set_diag_infer(op):
    x, diagonal, _ = op.inputs
    check_rank(x.shape, 2, at_least=True)
    check_same_dtype(x, diagonal, "MatrixSetDiagV3", "input", "diagonal")
    return [(x.dtype, x.shape)]


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_tensor(k):
    return convert_to_tensor(k, name="k", dtype=dtypes.int32)


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices with ``diagonal``'s last dimension on diagonal ``k`` and ``padding_value`` elsewhere
    (op ``MatrixDiagV3``); they are square unless ``num_rows``/``num_cols`` say otherwise."""
    if align not in _ALIGNS:
        raise ValueError(f"align must be one of {', '.join(_ALIGNS)}, got {align}")
    with get_default_graph().name_scope(name or "diag") as scope:
        diagonal = convert_to_tensor(diagonal, name="diagonal")
        inputs = [diagonal, _k_tensor(k), convert_to_tensor(num_rows, name="num_rows", dtype=dtypes.int32),
                  convert_to_tensor(num_cols, name="num_cols", dtype=dtypes.int32),
                  convert_to_tensor(padding_value, name="padding_value", dtype=diagonal.dtype.base_dtype)]
        return _out("MatrixDiagV3", inputs, {"align": align}, name=scope)[0]


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """Diagonal ``k`` of each matrix of ``input`` (op ``MatrixDiagPartV3``)."""
    with get_default_graph().name_scope(name or "diag_part") as scope:
        x = convert_to_tensor(input, name="input")
        padding = convert_to_tensor(padding_value, name="padding_value", dtype=x.dtype.base_dtype)
        return _out("MatrixDiagPartV3", [x, _k_tensor(k), padding], {"align": align}, name=scope)[0]


def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002
    """``input`` with diagonal ``k`` of each matrix replaced by ``diagonal`` (op ``MatrixSetDiagV3``)."""
    with get_default_graph().name_scope(name or "set_diag") as scope:
        x = convert_to_tensor(input, name="input")
        diagonal = convert_to_tensor(diagonal, name="diagonal", dtype=x.dtype.base_dtype)
        return _out("MatrixSetDiagV3", [x, diagonal, _k_tensor(k)], {"align": align}, name=scope)[0]


@declare("MatrixBandPart")
def _band_infer(op):
    x, lower, upper = op.inputs
    check_rank(x.shape, 2, at_least=True)
    check_dtype(lower, INDEX_TYPES, "num_lower")
    check_same_dtype(lower, upper, "MatrixBandPart", "num_lower", "num_upper")
    check_rank(lower.shape, 0)
    check_rank(upper.shape, 0)
    return [(x.dtype, x.shape)]


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002 - TensorFlow's argument name
    """Each matrix of ``input`` with zeros outside its ``num_lower`` subdiagonals and ``num_upper``
    superdiagonals (a negative count keeps the whole triangle; op ``MatrixBandPart``)."""
    with get_default_graph().name_scope(name or "MatrixBandPart") as scope:
        x = convert_to_tensor(input, name="input")
        lower = convert_to_tensor(num_lower, name="num_lower", preferred_dtype=dtypes.int64)
        upper = convert_to_tensor(num_upper, name="num_upper", dtype=lower.dtype.base_dtype)
        return _out("MatrixBandPart", [x, lower, upper], name=scope)[0]


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Identity matrices of ``num_rows`` rows (and ``num_columns`` columns), in a batch of ``batch_shape``.

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.eye(2, 3)).tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """
    with get_default_graph().name_scope(name or "eye"):
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        tensors = any(hasattr(v, "dtype") and hasattr(v, "op") for v in (num_rows, num_columns, batch_shape))
        if tensors:
            diag_size = math_ops.minimum(num_rows, num_columns)
            batch = convert_to_tensor(batch_shape, name="shape", dtype=dtypes.int32)
            diag_shape = array_ops.concat([batch, array_ops.reshape(diag_size, [1])], 0)
            shape = array_ops.concat([batch, array_ops.stack([num_rows, num_columns])], 0)
        else:
            if not isinstance(num_rows, numbers.Integral) or not isinstance(num_columns, numbers.Integral):
                raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                                f"num_rows={num_rows}, num_columns={num_columns}")
            is_square = num_rows == num_columns
            diag_shape = list(batch_shape) + [min(num_rows, num_columns)]
            shape = list(batch_shape) + [num_rows, num_columns]
        ones = array_ops.ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(ones)
        return matrix_set_diag(array_ops.zeros(shape, dtype=dtype), ones)


def trace(x, name=None):
    """The sum of the main diagonal of each matrix of ``x`` (``reduce_sum(matrix_diag_part(x), [-1])``)."""
    with get_default_graph().name_scope(name or "Trace") as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.reduce_sum(matrix_diag_part(x), [-1], name=scope)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """``a`` with its innermost two dimensions swapped (op ``Transpose``)."""
    with get_default_graph().name_scope(name or "matrix_transpose"):
        a = convert_to_tensor(a, name="a")
        ndims = a.shape.ndims
        if ndims is not None:
            if ndims < 2:
                raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {a} with "
                                 f"shape: {a.shape}")
            perm = list(range(ndims - 2)) + [ndims - 1, ndims - 2]
        else:
            r = array_ops.rank(a)
            perm = array_ops.concat([math_ops.range(0, r - 2, 1), array_ops.stack([r - 1, r - 2])], 0)
        return array_ops.transpose(a, perm=perm, conjugate=conjugate)


_VECTOR_NORMS = ("euclidean", 1, 2, np.inf)
_MATRIX_NORMS = ("euclidean", "fro", 1, 2, np.inf)


def _check_norm_args(ord, axis):  # noqa: A002 - TensorFlow's argument name
    """Whether ``axis`` names a matrix norm, after TensorFlow's checks of ``ord`` and ``axis``."""
    is_matrix = isinstance(axis, tuple | list) and len(axis) == 2
    if is_matrix:
        if not all(isinstance(a, int) for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {tuple(axis)}")
        if ord not in _MATRIX_NORMS:
            raise ValueError(f"'ord' must be a supported matrix norm in {list(_MATRIX_NORMS)}, got {ord}")
        return True
    if not (isinstance(axis, int) or axis is None):
        raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
    if (isinstance(ord, str) or not np.isreal(ord) or ord <= 0) and ord not in _VECTOR_NORMS:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return False


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    """The vector norm of ``tensor`` over ``axis`` (an int; all elements when None), or its matrix norm
    over ``axis`` given as two ints, as TensorFlow builds them.

    Vector ``ord``: ``"euclidean"``/2, 1, ``np.inf`` or any positive p. Matrix ``ord``: ``"fro"`` or
    ``"euclidean"`` (Frobenius), 1 (largest column sum), ``np.inf`` (largest row sum) or 2 (largest
    singular value).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     float(sess.run(tf.norm([[3.0, 4.0]])))
    5.0
    """
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'.")
    keepdims = bool(keepdims if keepdims is not None else keep_dims)
    is_matrix = _check_norm_args(ord, axis)
    axis = tuple(axis) if is_matrix else (None if axis is None else (axis,))
    with get_default_graph().name_scope(name or "norm"):
        x = convert_to_tensor(tensor)
        if is_matrix and ord == 2:
            result = _spectral_norm(x, axis)
        elif ord in ("fro", "euclidean", 2, 2.0):
            result = math_ops.sqrt(math_ops.reduce_sum(x * conj(x), axis, keepdims=True))
        else:
            result = math_ops.abs(x)
            if ord == 1:
                result = math_ops.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
                if is_matrix:
                    result = math_ops.reduce_max(result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix:
                    result = math_ops.reduce_sum(result, axis[1], keepdims=True)
                result = math_ops.reduce_max(result, None if axis is None else axis[0], keepdims=True)
            else:
                result = math_ops.pow(math_ops.reduce_sum(math_ops.pow(result, ord), axis, keepdims=True), 1.0 / ord)
        if not keepdims:
            result = array_ops.squeeze(result, axis)
        return result


def _spectral_norm(x, axis):
    """The largest singular value of the matrices spanning ``axis``, with both axes kept (size 1)."""
    rank = x.shape.ndims
    if rank is None:
        raise ValueError("The matrix 2-norm needs the rank of its input when the graph is built.")
    axes = [a % rank for a in axis]
    perm = [i for i in range(rank) if i not in axes] + axes
    s = svd(array_ops.transpose(x, perm), compute_uv=False)
    largest = array_ops.expand_dims(math_ops.reduce_max(math_ops.abs(s), axis=-1, keepdims=True), -1)
    return array_ops.transpose(largest, np.argsort(perm).astype(np.int32))
