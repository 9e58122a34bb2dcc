"""The graphs behind ``data/tf_math_golden.npz``, written once for both engines: each case builds its
outputs from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the
tests) and the case's input tensors.

``CASES[name] = (build, inputs)``: ``build(tf, *tensors)`` returns a tensor or a list of tensors;
``inputs`` are numpy arrays. Every float output is also differentiated: the gradient of
``sum(output * weights(output))`` with respect to each float input.
"""

import numpy as np

rng = np.random.RandomState(12)
F = rng.randn(3, 4).astype(np.float32)
D = rng.randn(3, 4)
P = rng.uniform(0.5, 2.0, (3, 4))  # positive
I = rng.randint(-9, 10, (3, 4)).astype(np.int32)  # noqa: E741
J = rng.choice([-3, -2, -1, 1, 2, 4], (3, 4)).astype(np.int32)  # nonzero divisors
SPECIAL = np.array([[1.0, np.nan, 3.0, -np.inf], [np.nan, -1.0, np.inf, 0.0], [-0.0, 2.5, -7.5, np.nan]], np.float32)
ROWS = rng.randn(5, 3)
TIES = np.array([[1.0, 2.0], [1.0, -1.0], [0.5, 2.0], [3.0, 0.0], [3.0, 4.0]])
WITH_ZEROS = np.array([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0], [2.0, -1.0, 0.5]])
M3 = rng.randn(3, 3)
SPD = M3 @ M3.T + 3 * np.eye(3)
BATCH = rng.randn(2, 3, 3) + 3 * np.eye(3)
RHS = rng.randn(3, 2)
V4 = rng.randn(4)
C3 = rng.randn(2, 3, 4)


IMAGES = np.random.RandomState(31).uniform(0, 1, (2, 6, 5, 3)).astype(np.float32)
IDS_2D = [[0, 1, 1, 0], [2, -1, 0, 2], [0, 0, 1, 1]]


def _seg(ids):
    return np.array(ids, np.int32)


def _mean_sqrt_n(tf, x):
    return [tf.unsorted_segment_mean(x, [2, 0, -1, 2, 0], 4), tf.unsorted_segment_sqrt_n(x, [2, 0, -1, 2, 0], 4)]


CASES = {
    # -- elementwise ----------------------------------------------------------------------------------------
    "truncatediv_int": (lambda tf, x, y: tf.truncatediv(x, y), [I, J]),
    "truncatemod_int": (lambda tf, x, y: tf.truncatemod(x, y), [I, J]),
    "truncatediv_float": (lambda tf, x, y: tf.truncatediv(x, y), [D * 5, P]),
    "truncatemod_float": (lambda tf, x, y: tf.truncatemod(x, y), [D * 5, P - 1.25]),
    "floor_div_int": (lambda tf, x, y: tf.floor_div(x, y), [I, J]),
    "floordiv_float": (lambda tf, x, y: tf.floordiv(x, y), [D * 5, P - 1.25]),
    "floormod_int": (lambda tf, x, y: tf.floormod(x, y), [I, J]),
    "floormod_float": (lambda tf, x, y: tf.floormod(x, y), [D * 5, P - 1.25]),
    "arg_max": (lambda tf, x: tf.arg_max(x, 1), [F]),
    "arg_min": (lambda tf, x: tf.arg_min(x, 0, output_type=tf.int32), [F]),
    "argmax_special": (lambda tf, x: [tf.argmax(x, 1), tf.argmax(x, 0)], [SPECIAL]),
    "argmin_special": (lambda tf, x: [tf.argmin(x, 1), tf.argmin(x, 0)], [SPECIAL]),
    "argmax_ties": (lambda tf, x: [tf.argmax(x, 0), tf.argmin(x, 1)], [TIES]),
    "is_nan": (lambda tf, x: [tf.is_nan(x), tf.is_inf(x), tf.is_finite(x)], [SPECIAL]),
    # -- scans and composed reductions -------------------------------------------------------------------------
    "cumsum": (lambda tf, x: tf.cumsum(x), [D]),
    "cumsum_axis1_exclusive_reverse": (lambda tf, x: tf.cumsum(x, axis=1, exclusive=True, reverse=True), [D]),
    "cumsum_float32": (lambda tf, x: tf.cumsum(x, axis=-1, reverse=True), [F * 100]),
    "cumsum_int": (lambda tf, x: tf.cumsum(x, 1, exclusive=True), [I]),
    "cumprod": (lambda tf, x: tf.cumprod(x, axis=1), [D]),
    "cumprod_exclusive": (lambda tf, x: tf.cumprod(x, exclusive=True), [D]),
    "cumprod_zeros_reverse": (lambda tf, x: tf.cumprod(x, axis=1, reverse=True), [WITH_ZEROS]),
    "logsumexp": (lambda tf, x: tf.reduce_logsumexp(x), [D]),
    "logsumexp_axis": (lambda tf, x: tf.reduce_logsumexp(x, axis=1, keepdims=True), [F * 30]),
    "logsumexp_inf": (lambda tf, x: tf.reduce_logsumexp(x, axis=0),
                      [np.array([[-np.inf, 1.0, np.inf], [-np.inf, 2.0, 0.0]], np.float32)]),
    "count_nonzero": (lambda tf, x: [tf.count_nonzero(x), tf.count_nonzero(x, axis=1, dtype=tf.int32)], [I]),
    "count_nonzero_keepdims": (lambda tf, x: tf.count_nonzero(x, axis=0, keepdims=True), [WITH_ZEROS]),
    # -- segments --------------------------------------------------------------------------------------------------
    "segment_sum": (lambda tf, x: tf.segment_sum(x, _seg([0, 0, 1, 3, 3])), [ROWS]),
    "segment_mean": (lambda tf, x: tf.segment_mean(x, _seg([0, 0, 1, 3, 3])), [ROWS]),
    "segment_max": (lambda tf, x: tf.segment_max(x, _seg([0, 0, 1, 3, 3])), [TIES]),
    "segment_min": (lambda tf, x: tf.segment_min(x, _seg([0, 0, 1, 3, 3])), [TIES]),
    "segment_prod": (lambda tf, x: tf.segment_prod(x, _seg([0, 0, 1, 1, 2])), [np.r_[WITH_ZEROS, ROWS[:2]]]),
    "segment_mean_int": (lambda tf, x: tf.segment_mean(x, _seg([0, 0, 2])), [I[:, :2]]),
    "unsorted_segment_sum": (lambda tf, x: tf.unsorted_segment_sum(x, [2, 0, -1, 2, 0], 4), [ROWS]),
    "unsorted_segment_max": (lambda tf, x: tf.unsorted_segment_max(x, [2, 0, -1, 2, 0], 4), [TIES]),
    "unsorted_segment_min": (lambda tf, x: tf.unsorted_segment_min(x, [2, 0, -1, 2, 0], 4), [TIES]),
    "unsorted_segment_prod": (lambda tf, x: tf.unsorted_segment_prod(x, [1, 0, 1, 1, 0], 3),
                              [np.r_[WITH_ZEROS, ROWS[:2]]]),
    "unsorted_segment_max_2d_ids": (lambda tf, x: tf.unsorted_segment_max(x, IDS_2D, 3), [D]),
    "unsorted_segment_mean_sqrt_n": (_mean_sqrt_n, [ROWS]),
    # -- gather_nd, scatter_nd, boolean_mask ---------------------------------------------------------------------
    "gather_nd_elements": (lambda tf, x: tf.gather_nd(x, [[0, 1], [2, 3], [0, 1]]), [D]),
    "gather_nd_rows": (lambda tf, x: tf.gather_nd(x, [[2], [0], [2]]), [D]),
    "gather_nd_batched": (lambda tf, x: tf.gather_nd(x, [[[1, 0], [0, 2]], [[1, 2], [1, 2]]]), [C3]),
    "gather_nd_int": (lambda tf, x: tf.gather_nd(x, [[1, 1, 3]]), [C3.astype(np.int32)]),
    "scatter_nd": (lambda tf, x: tf.scatter_nd([[1], [3], [1]], x, [5, 4]), [D]),
    "scatter_nd_elements": (lambda tf, x: tf.scatter_nd([[0, 1], [2, 2], [0, 1]], x, [3, 3]), [V4[:3]]),
    "tensor_scatter_nd_update": (lambda tf, x, u: tf.tensor_scatter_nd_update(x, [[2], [0]], u), [D, P[:2]]),
    "tensor_scatter_nd_add": (lambda tf, x, u: tf.tensor_scatter_nd_add(x, [[2], [0], [2]], u), [D, P]),
    "tensor_scatter_nd_sub": (lambda tf, x, u: tf.tensor_scatter_nd_sub(x, [[1, 1], [0, 3]], u), [D, V4[:2]]),
    "boolean_mask": (lambda tf, x: tf.boolean_mask(x, [True, False, True]), [D]),
    "boolean_mask_2d": (lambda tf, x: tf.boolean_mask(x, D > 0), [P]),
    "boolean_mask_axis1": (lambda tf, x: tf.boolean_mask(x, [False, True, True], axis=1), [C3]),
    # -- sequences -----------------------------------------------------------------------------------------------
    "sequence_mask": (lambda tf, x: tf.sequence_mask(x, 5), [np.array([1, 3, 0, 5], np.int32)]),
    "sequence_mask_no_maxlen": (lambda tf, x: tf.sequence_mask(x, dtype=tf.float32),
                                [np.array([[1, 3], [2, 0]], np.int64)]),
    "reverse": (lambda tf, x: tf.reverse(x, [0]), [D]),
    "reverse_v2_both": (lambda tf, x: tf.reverse_v2(x, [-1, 0]), [C3]),
    "reverse_sequence": (lambda tf, x: tf.reverse_sequence(x, [2, 4, 0], seq_axis=1, batch_axis=0), [D]),
    "reverse_sequence_dims": (lambda tf, x: tf.reverse_sequence(x, [1, 3, 2, 0], seq_dim=1, batch_dim=2), [C3]),
    "meshgrid": (lambda tf, x, y: tf.meshgrid(x, y), [V4[:3], V4]),
    "meshgrid_ij": (lambda tf, x, y: tf.meshgrid(x, y, indexing="ij"), [V4[:3], V4]),
    "linspace": (lambda tf: tf.linspace(-1.0, 3.0, 7), []),
    "linspace_ends": (lambda tf, a, b: tf.linspace(a, b, 5), [np.float64(-2.5), np.float64(4.0)]),
    "linspace_one": (lambda tf: tf.lin_space(2.0, 5.0, 1), []),
    "linspace_int": (lambda tf: tf.linspace(1, 10, 4), []),
    "linspace_nd": (lambda tf, a, b: tf.linspace(a, b, 4, axis=1), [V4[:2], V4[2:] + 3]),
    # -- linear algebra ---------------------------------------------------------------------------------------------
    "matrix_transpose": (lambda tf, x: tf.matrix_transpose(x), [C3]),
    "matrix_inverse": (lambda tf, x: tf.matrix_inverse(x), [BATCH]),
    "matrix_inverse_adjoint": (lambda tf, x: tf.matrix_inverse(x, adjoint=True), [M3 + 2 * np.eye(3)]),
    "matrix_determinant": (lambda tf, x: tf.matrix_determinant(x), [BATCH]),
    "matrix_determinant_float32": (lambda tf, x: tf.matrix_determinant(x), [SPD.astype(np.float32)]),
    "cholesky": (lambda tf, x: tf.cholesky(x), [SPD]),
    "matrix_solve": (lambda tf, a, b: tf.matrix_solve(a, b), [SPD, RHS]),
    "matrix_solve_adjoint": (lambda tf, a, b: tf.matrix_solve(a, b, adjoint=True), [M3 + 2 * np.eye(3), RHS]),
    "triangular_solve": (lambda tf, a, b: tf.matrix_triangular_solve(a, b), [SPD, RHS]),
    "triangular_solve_upper_adjoint": (lambda tf, a, b: tf.matrix_triangular_solve(a, b, lower=False, adjoint=True),
                                       [SPD, RHS]),
    "svd_values": (lambda tf, x: tf.svd(x, compute_uv=False), [C3]),
    "diag": (lambda tf, x: tf.diag(x), [V4]),
    "diag_2d": (lambda tf, x: tf.diag(x), [D[:2, :2]]),
    "diag_part": (lambda tf, x: tf.diag_part(x), [SPD]),
    "matrix_diag": (lambda tf, x: tf.matrix_diag(x), [D]),
    "matrix_diag_k": (lambda tf, x: tf.linalg.diag(x, k=1), [D]),
    "matrix_diag_rows": (lambda tf, x: tf.linalg.diag(x, k=-1, num_rows=5), [V4[:3]]),
    "matrix_diag_part": (lambda tf, x: tf.matrix_diag_part(x), [C3]),
    "matrix_diag_part_k": (lambda tf, x: tf.linalg.diag_part(x, k=-1), [C3]),
    "matrix_set_diag": (lambda tf, x, d: tf.matrix_set_diag(x, d), [C3, D[:2, :3]]),
    "matrix_set_diag_k": (lambda tf, x, d: tf.linalg.set_diag(x, d, k=1), [D, P[0, :3]]),
    "matrix_band_part": (lambda tf, x: tf.matrix_band_part(x, 1, 0), [C3]),
    "matrix_band_part_upper": (lambda tf, x: tf.matrix_band_part(x, 0, -1), [D]),
    "eye": (lambda tf: [tf.eye(3), tf.eye(2, 4, dtype=tf.int32), tf.eye(2, batch_shape=[3])], []),
    "trace": (lambda tf, x: tf.trace(x), [C3]),
    "norm": (lambda tf, x: tf.norm(x), [C3]),
    "norm_axis": (lambda tf, x: tf.norm(x, axis=-1, keepdims=True), [C3]),
    "norm_ord1": (lambda tf, x: tf.norm(x, ord=1, axis=0), [D]),
    "norm_ord3": (lambda tf, x: tf.norm(x, ord=3), [P]),
    "norm_inf": (lambda tf, x: tf.norm(x, ord=np.inf, axis=1), [D]),
    "norm_matrix_fro": (lambda tf, x: tf.norm(x, ord="fro", axis=[1, 2]), [C3]),
    "norm_matrix_1": (lambda tf, x: tf.norm(x, ord=1, axis=(0, 1)), [D]),
    "norm_matrix_inf": (lambda tf, x: tf.norm(x, ord=np.inf, axis=[-2, -1], keepdims=True), [C3]),
    "norm_matrix_2": (lambda tf, x: tf.norm(x, ord=2, axis=[0, 2]), [C3]),
    # -- einsum and tensordot ------------------------------------------------------------------------------------------
    "einsum_matmul": (lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [D, RHS[:, :1].T.repeat(4, 0)]),
    "einsum_batch": (lambda tf, a, b: tf.einsum("bij,bjk->bik", a, b), [C3, np.swapaxes(C3, 1, 2)]),
    "einsum_transposed": (lambda tf, a, b: tf.einsum("bij,bkj->bki", a, b), [C3, C3[:, :2]]),
    "einsum_sum": (lambda tf, x: tf.einsum("ij->", x), [D]),
    "einsum_transpose": (lambda tf, x: tf.einsum("ijk->kji", x), [C3]),
    "einsum_outer": (lambda tf, a, b: tf.einsum("i,j->ij", a, b), [V4, V4[:3]]),
    "einsum_dot": (lambda tf, a, b: tf.einsum("i,i->", a, b), [V4, V4 + 1]),
    "einsum_implicit": (lambda tf, a, b: tf.einsum("ij,jk", a, b), [D, D.T]),
    "einsum_reduced_letter": (lambda tf, a, b: tf.einsum("ijk,j->i", a, b), [C3, V4[:3]]),
    "einsum_ellipsis": (lambda tf, a, b: tf.einsum("...ij,jk->...ik", a, b), [C3, D.T]),
    "einsum_three": (lambda tf, a, b, c: tf.einsum("ij,jk,kl->il", a, b, c), [D, D.T, RHS]),
    "tensordot": (lambda tf, a, b: tf.tensordot(a, b, 1), [C3, D.T]),
    "tensordot_pairs": (lambda tf, a, b: tf.tensordot(a, b, [[0, 1], [1, 0]]), [C3, np.swapaxes(C3, 0, 1)]),
    "tensordot_outer": (lambda tf, a, b: tf.tensordot(a, b, 0), [V4[:2], V4[:3]]),
    "tensordot_all": (lambda tf, a, b: tf.tensordot(a, b, 2), [D, D]),
    # -- safe and special functions ----------------------------------------------------------------------------
    "xlogy_family": (lambda tf, x, y: [tf.math.xlogy(x, y), tf.math.xdivy(x, y), tf.math.xlog1py(x, y)],
                     [WITH_ZEROS, P[:3, :3]]),
    "xlogy_broadcast_float32": (lambda tf, x, y: [tf.math.xlogy(x, y), tf.math.xdivy(y, x), tf.math.xlog1py(x, y)],
                                [F, P[0].astype(np.float32)]),
    "multiply_no_nan": (lambda tf, x, y: tf.math.multiply_no_nan(x, y), [D[:3, :3], WITH_ZEROS]),
    "reciprocal_no_nan": (lambda tf, x: [tf.math.reciprocal_no_nan(x), tf.math.divide_no_nan(x, x + 1)],
                          [WITH_ZEROS]),
    "lbeta": (lambda tf, x: [tf.lbeta(x), tf.math.lbeta(x[0])], [P]),
    "erfinv_ndtri": (lambda tf, x: [tf.math.erfinv(x * 0.6), tf.math.ndtri(x * 0.3 + 0.5)], [D]),
    "erfinv_ndtri_float32": (lambda tf, x: [tf.math.erfinv(x * 0.6), tf.math.ndtri(x * 0.3 + 0.5)], [F]),
    "ndtri_tails": (lambda tf, x: tf.math.ndtri(x), [np.array([1e-300, 1e-20, 0.01, 0.9, 0.999, 1.0, 0.0])]),
    "reduce_euclidean_norm": (lambda tf, x: [tf.math.reduce_euclidean_norm(x), tf.math.reduce_euclidean_norm(x, 1),
                                             tf.math.reduce_euclidean_norm(x, [0], keepdims=True)], [D]),
    "reduce_euclidean_norm_int": (lambda tf, x: tf.math.reduce_euclidean_norm(x, 0), [I]),
    "cumulative_logsumexp": (lambda tf, x: [tf.math.cumulative_logsumexp(x, 1),
                                            tf.math.cumulative_logsumexp(x, 0, exclusive=True, reverse=True)], [D]),
    "cumulative_logsumexp_float32": (lambda tf, x: tf.math.cumulative_logsumexp(x * 30, axis=-1, reverse=True), [F]),
    "polyval": (lambda tf, x: [tf.math.polyval([2.0, -1.0, 0.5], x), tf.math.polyval([3.0], x)], [F]),
    "bessel": (lambda tf, x: [tf.math.bessel_i0e(x * 8), tf.math.bessel_i1e(x * 8)], [D]),
    "bessel_float32": (lambda tf, x: [tf.math.bessel_i0e(x * 30), tf.math.bessel_i1e(x)], [F]),
    "igamma": (lambda tf, a, x: [tf.math.igamma(a, x), tf.igammac(a, x), tf.math.igamma(a[0], 2.5)],
               [P * 3, np.abs(D) * 4]),
    "igamma_float32": (lambda tf, a, x: [tf.igamma(a, x), tf.math.igammac(a, x)],
                       [np.array([0.3, 1.0, 5.0, 30.0, 2.0], np.float32),
                        np.array([0.1, 2.0, 4.0, 45.0, 0.0], np.float32)]),
    "betainc": (lambda tf, a, b, x: [tf.math.betainc(a, b, x), tf.betainc(a, 2.5, x)],
                [P, P[::-1] * 2, np.clip(np.abs(D) / 3, 0.01, 0.99)]),
    # -- linear algebra ------------------------------------------------------------------------------------------
    "adjoint_matvec": (lambda tf, x, v: [tf.linalg.adjoint(x), tf.linalg.matvec(x, v),
                                         tf.linalg.matvec(x, v[:3], transpose_a=True)], [D, V4]),
    "normalize": (lambda tf, x: [*tf.linalg.normalize(x), *tf.linalg.normalize(x, ord=1, axis=1)], [D]),
    "global_norm": (lambda tf, x, y: tf.linalg.global_norm([x, y]), [D, V4]),
    "eigh": (lambda tf, x: (lambda e, v: [e, v * tf.sign(v[:1, :]), tf.linalg.eigvalsh(x + 1.0)])(
        *tf.linalg.eigh(x)), [SPD]),
    "eigh_batch_float32": (lambda tf, x: (lambda e, v: [e, v * tf.sign(v[..., :1, :])])(
        *tf.self_adjoint_eig(x + tf.linalg.matrix_transpose(x))), [BATCH.astype(np.float32)]),
    "slogdet": (lambda tf, x, y: [*tf.linalg.slogdet(x), *tf.linalg.slogdet(y)], [M3, BATCH]),
    "cholesky_solve": (lambda tf, x, y: tf.linalg.cholesky_solve(tf.cholesky(x), y), [SPD, RHS]),
    "lstsq": (lambda tf, a, b: [tf.linalg.lstsq(a, b), tf.matrix_solve_ls(a, b, l2_regularizer=0.5),
                                tf.linalg.lstsq(tf.linalg.adjoint(a), b[:3])], [ROWS, RHS[:, :1].repeat(5, 0)[:5]]),
    # singular vectors' signs are each library's own: these outputs do not depend on them
    "svd_uv": (lambda tf, x: (lambda s, u, v: [s, tf.matmul(u, v, adjoint_b=True),
                                               tf.matmul(u * s[..., None, :], v, adjoint_b=True)])(*tf.svd(x)),
               [C3]),
    "svd_uv_tall_full": (lambda tf, x: (lambda s, u, v: [tf.matmul(u[:, :3] * s, v, adjoint_b=True)])(
        *tf.svd(x, full_matrices=True)), [ROWS[:4]]),
    "pinv": (lambda tf, x: [tf.linalg.pinv(x), tf.linalg.pinv(tf.transpose(x))], [ROWS]),
    "pinv_float32": (lambda tf, x: tf.linalg.pinv(x), [C3.astype(np.float32)]),
    "matrix_rank": (lambda tf, x: [tf.linalg.matrix_rank(x), tf.linalg.matrix_rank(x, tol=0.5)],
                    [np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.2, 1.0]])]),
    # -- losses -------------------------------------------------------------------------------------------------
    "cosine_distance": (lambda tf, x, y: [tf.losses.cosine_distance(tf.nn.l2_normalize(x, 1), tf.nn.l2_normalize(y, 1),
                                                                   axis=1),
                                          tf.losses.cosine_distance(x, y, dim=0, weights=[[1.0, 0.0, 2.0, 1.0]],
                                                                    reduction=tf.losses.Reduction.NONE)],
                        [F, F[::-1] * 2]),
    "mean_pairwise_squared_error": (lambda tf, x, y: [tf.losses.mean_pairwise_squared_error(x, y),
                                                      tf.losses.mean_pairwise_squared_error(
                                                          x, y, weights=[[2.0], [0.0], [1.0]])], [F, F * 0.5 + 1]),
    "log_poisson_loss": (lambda tf, t, x: [tf.nn.log_poisson_loss(t, x), tf.nn.log_poisson_loss(t, x, True)],
                         [np.array([[0.0, 0.5, 1.0, 2.0], [3.0, 7.5, 0.2, 12.0]]), D[:2]]),
    "safe_embedding_lookup_sparse": (lambda tf, table, ids, w: [
        tf.nn.safe_embedding_lookup_sparse(table, tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1], [3, 0]], ids,
                                                                  [4, 3])),
        tf.nn.safe_embedding_lookup_sparse(table, tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1], [3, 0]], ids,
                                                                  [4, 3]),
                                           tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1], [3, 0]], w, [4, 3]),
                                           combiner="sum", default_id=1),
        tf.nn.safe_embedding_lookup_sparse([table[:2], table[2:]], tf.SparseTensor(
            [[0, 0, 0], [0, 1, 0], [1, 1, 1]], ids[:3], [2, 2, 2]), combiner="sqrtn")],
        [ROWS, np.array([1, -1, 4, 0, 2], np.int64), np.array([0.5, 2.0, -1.0, 1.5, 3.0])]),
    # -- images -------------------------------------------------------------------------------------------------
    "color_spaces": (lambda tf, x: [tf.image.rgb_to_yiq(x), tf.image.yiq_to_rgb(x), tf.image.rgb_to_yuv(x),
                                    tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x))], [IMAGES[0]]),
    "adjust_gamma": (lambda tf, x, u: [tf.image.adjust_gamma(x, 2.2, gain=0.8), tf.image.adjust_gamma(u, 0.5)],
                     [IMAGES, (IMAGES * 255).astype(np.uint8)]),
    "total_variation": (lambda tf, x: [tf.image.total_variation(x), tf.image.total_variation(x[0])], [IMAGES]),
    "image_gradients": (lambda tf, x: list(tf.image.image_gradients(x)), [IMAGES]),
    "sobel_edges": (lambda tf, x: tf.image.sobel_edges(x), [IMAGES]),
    "psnr": (lambda tf, x, y: [tf.image.psnr(x, y, 1.0), tf.image.psnr(x, y, max_val=2.0)], [IMAGES, IMAGES[::-1]]),
    "psnr_uint8": (lambda tf, x, y: tf.image.psnr(x, y, 255), [(IMAGES * 255).astype(np.uint8),
                                                              (IMAGES[::-1] * 255).astype(np.uint8)]),
    "ssim": (lambda tf, x, y: [tf.image.ssim(x, y, 1.0, filter_size=3),
                               tf.image.ssim(x, y, 1.0, filter_size=4, filter_sigma=0.8, return_index_map=True)],
             [IMAGES, np.clip(IMAGES * 0.8 + 0.1 * IMAGES[::-1], 0, 1)]),
    # -- array ops ---------------------------------------------------------------------------------------------
    "tensor_scatter_nd_max_min": (lambda tf, x, y: [tf.tensor_scatter_nd_max(x, [[0], [2], [0]], y),
                                                    tf.tensor_scatter_nd_min(x, [[1], [2], [1]], y)],
                                  [TIES[:3], np.array([[1.0, 5.0], [0.5, 2.0], [-2.0, 2.0]])]),
    "tensor_scatter_nd_max_elements": (lambda tf, x: tf.tensor_scatter_nd_max(x, [[0, 1], [2, 3]], [0.0, 9.0]),
                                       [D]),
    "unique_with_counts": (lambda tf, x: list(tf.unique_with_counts(x)), [np.array([4, 1, 4, 2, 1, 4], np.int32)]),
    "unique_with_counts_int64": (lambda tf, x: list(tf.unique_with_counts(x, out_idx=tf.int64)), [V4.round()]),
    "repeat_flat": (lambda tf, x: tf.repeat(x, 2), [D]),
    "repeat_rows": (lambda tf, x: tf.repeat(x, [1, 0, 3], axis=0), [D]),
    "repeat_columns": (lambda tf, x: [tf.repeat(x, 3, axis=1), tf.repeat(x, [2, 1, 0, 1], axis=-1)], [D]),
    "repeat_scalar": (lambda tf, x: tf.repeat(x[0, 0], [3]), [D]),
    "shape_n": (lambda tf, x, y: tf.shape_n([x, y, x[0]], out_type=tf.int64), [D, C3]),
    "parallel_stack": (lambda tf, x, y: tf.parallel_stack([x, y, x * y]), [D, P]),
    "invert_permutation": (lambda tf, x: tf.invert_permutation(x), [np.array([3, 0, 4, 1, 2], np.int32)]),
    "batch_gather": (lambda tf, x: tf.batch_gather(x, [[2, 0], [1, 1], [0, 3]]), [D]),
    "batch_gather_3d": (lambda tf, x: tf.batch_gather(x, np.array([[[1], [0], [2]], [[0], [0], [1]]], np.int64)),
                        [C3]),
    "ensure_shape": (lambda tf, x: tf.ensure_shape(x, [None, 4]) * 2.0, [D]),
    "edit_distance": (lambda tf, hi, hv, hs, ti, tv, ts: [
        tf.edit_distance(tf.SparseTensor(hi, hv, hs), tf.SparseTensor(ti, tv, ts)),
        tf.edit_distance(tf.SparseTensor(hi, hv, hs), tf.SparseTensor(ti, tv, ts), normalize=False)],
        [np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 0, 2]], np.int64),
         np.array([1, 2, 3, 4, 5, 6], np.int32), np.array([2, 3, 3], np.int64),
         np.array([[0, 0, 0], [0, 0, 1], [0, 2, 0], [1, 0, 0], [1, 0, 1]], np.int64),
         np.array([1, 3, 3, 4, 6], np.int32), np.array([2, 3, 2], np.int64)]),
}


def weights(shape, dtype):
    """The fixed weighting of an output whose gradient is taken: 0.25, 0.5, ... 1.75, repeating."""
    n = int(np.prod(shape))
    return ((np.arange(n) % 7 + 1) / 4).reshape(shape).astype(dtype)


def outputs(tf, name, tensors):
    """The case's outputs as a list."""
    out = CASES[name][0](tf, *tensors)
    return list(out) if isinstance(out, list | tuple) else [out]


def weighted_loss(tf, outs, values):
    """``sum(output * weights)`` over the float outputs (``values``: their values, for the shapes), or None
    when no output is a float."""
    terms = [tf.reduce_sum(o * weights(np.shape(v), o.dtype.as_numpy_dtype)) for o, v in zip(outs, values)
             if o.dtype.is_floating]
    return tf.add_n(terms) if terms else None
