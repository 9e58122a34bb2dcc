"""``tf.linalg``: linear algebra under the names ``tf.compat.v1.linalg`` gives them; re-exports only."""

from numflow.ops.clip_ops import global_norm
from numflow.ops.einsum_ops import einsum, tensordot
from numflow.ops.linalg_cross_ops import cross, logdet
from numflow.ops.linalg_more_ops import (
    adjoint,
    cholesky_solve,
    lu,
    matrix_rank,
    matvec,
    normalize,
    pinv,
    slogdet,
)
from numflow.ops.linalg_more_ops import matrix_solve_ls as lstsq
from numflow.ops.linalg_more_ops import self_adjoint_eig as eigh
from numflow.ops.linalg_more_ops import self_adjoint_eigvals as eigvalsh
from numflow.ops.linalg_ops import cholesky, eye, matrix_transpose, norm, svd, trace
from numflow.ops.linalg_ops import diag as tensor_diag
from numflow.ops.linalg_ops import diag_part as tensor_diag_part
from numflow.ops.linalg_ops import matrix_band_part as band_part
from numflow.ops.linalg_ops import matrix_determinant as det
from numflow.ops.linalg_ops import matrix_diag as diag
from numflow.ops.linalg_ops import matrix_diag_part as diag_part
from numflow.ops.linalg_ops import matrix_inverse as inv
from numflow.ops.linalg_ops import matrix_set_diag as set_diag
from numflow.ops.linalg_ops import matrix_solve as solve
from numflow.ops.linalg_ops import matrix_transpose as transpose
from numflow.ops.linalg_ops import matrix_triangular_solve as triangular_solve
from numflow.ops.linalg_qr_ops import qr
from numflow.ops.math_ops import matmul
from numflow.ops.nn_impl import l2_normalize

__all__ = [
    "adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag", "diag_part", "eigh", "eigvalsh",
    "einsum", "eye", "global_norm", "inv", "l2_normalize", "logdet", "lstsq", "lu", "matmul", "matrix_rank",
    "matrix_transpose", "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd",
    "tensor_diag", "tensor_diag_part", "tensordot", "trace", "transpose", "triangular_solve"
]
