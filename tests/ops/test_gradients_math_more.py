"""Gradients of the scans, segment reductions, gather_nd/scatter_nd, sequence ops, linear algebra and
einsum against central finite differences (``check_gradient``, in float64). TensorFlow's own values are
checked in ``test_math_golden.py``."""

import numpy as np
import pytest
from test_gradients import check_gradient

import numflow as tf


def _spd(x):
    """A symmetric positive-definite matrix made of ``x``."""
    return tf.matmul(x, x, transpose_b=True) + 3.0 * tf.eye(x.shape[-1].value, dtype=tf.float64)


CASES = {
    "cumsum": (lambda x: tf.cumsum(x, axis=1, exclusive=True), [(2, 4)]),
    "cumsum_reverse": (lambda x: tf.cumsum(x, reverse=True), [(3, 2)]),
    "cumprod": (lambda x: tf.cumprod(x, axis=1, reverse=True), [(2, 4)]),
    "cumprod_exclusive": (lambda x: tf.cumprod(x, exclusive=True), [(4,)]),
    "reduce_logsumexp": (lambda x: tf.reduce_logsumexp(x, axis=0), [(3, 2)]),
    "segment_sum": (lambda x: tf.segment_sum(x, [0, 0, 2]), [(3, 2)]),
    "segment_mean": (lambda x: tf.segment_mean(x, [0, 0, 1, 1, 1]), [(5, 2)]),
    "segment_max": (lambda x: tf.segment_max(x, [0, 0, 1]), [(3, 2)]),
    "segment_min": (lambda x: tf.segment_min(x, [0, 1, 1]), [(3, 2)]),
    "segment_prod": (lambda x: tf.segment_prod(x, [0, 0, 1]), [(3, 2)]),
    "unsorted_segment_max": (lambda x: tf.unsorted_segment_max(x, [1, -1, 1, 0], 2), [(4, 2)]),
    "unsorted_segment_min": (lambda x: tf.unsorted_segment_min(x, [[1, 0], [1, 1]], 2), [(2, 2, 3)]),
    "unsorted_segment_prod": (lambda x: tf.unsorted_segment_prod(x, [1, 0, 1, -1], 2), [(4, 2)]),
    "unsorted_segment_mean": (lambda x: tf.unsorted_segment_mean(x, [2, 0, 2], 3), [(3, 2)]),
    "unsorted_segment_sqrt_n": (lambda x: tf.unsorted_segment_sqrt_n(x, [2, 0, 2], 3), [(3, 2)]),
    "gather_nd": (lambda x: tf.gather_nd(x, [[0, 1], [1, 0], [0, 1]]), [(2, 3)]),
    "gather_nd_rows": (lambda x: tf.gather_nd(x, [[1], [1]]), [(2, 3)]),
    "scatter_nd": (lambda x: tf.scatter_nd([[2], [0], [2]], x, [4, 2]), [(3, 2)]),
    "tensor_scatter_nd_update": (lambda x, u: tf.tensor_scatter_nd_update(x, [[0], [2]], u), [(3, 2), (2, 2)]),
    "tensor_scatter_nd_add": (lambda x, u: tf.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], u), [(3, 2), (2,)]),
    "boolean_mask": (lambda x: tf.boolean_mask(x, [[True, False], [True, True]]), [(2, 2, 3)]),
    "reverse": (lambda x: tf.reverse(x, [1]), [(2, 3)]),
    "reverse_sequence": (lambda x: tf.reverse_sequence(x, [1, 3], seq_axis=1), [(2, 3)]),
    "meshgrid": (lambda x, y: tf.meshgrid(x, y), [(2,), (3,)]),
    "linspace": (lambda a, b: tf.linspace(a, b, 4, axis=-1), [(2,), (2,)]),
    "matrix_inverse": (lambda x: tf.matrix_inverse(x + 3.0 * tf.eye(3, dtype=tf.float64)), [(3, 3)]),
    "matrix_determinant": (tf.matrix_determinant, [(2, 3, 3)]),
    "cholesky": (lambda x: tf.cholesky(_spd(x)), [(3, 3)]),
    "matrix_solve": (lambda a, b: tf.matrix_solve(_spd(a), b), [(3, 3), (3, 2)]),
    "matrix_solve_adjoint": (lambda a, b: tf.matrix_solve(a + 4.0 * tf.eye(3, dtype=tf.float64), b, adjoint=True),
                             [(3, 3), (3, 1)]),
    "triangular_solve": (lambda a, b: tf.matrix_triangular_solve(_spd(a), b, lower=False), [(3, 3), (3, 2)]),
    "svd_values": (lambda x: tf.svd(x, compute_uv=False), [(3, 2)]),
    "diag": (tf.diag, [(3,)]),
    "diag_part": (tf.diag_part, [(2, 3, 2, 3)]),
    "matrix_diag": (lambda x: tf.matrix_diag(x, k=-1), [(2, 3)]),
    "matrix_diag_part": (lambda x: tf.matrix_diag_part(x, k=1), [(2, 3, 4)]),
    "matrix_set_diag": (lambda x, d: tf.matrix_set_diag(x, d), [(3, 2), (2,)]),
    "matrix_band_part": (lambda x: tf.matrix_band_part(x, 0, 1), [(3, 3)]),
    "trace": (tf.trace, [(2, 3, 3)]),
    "norm": (lambda x: tf.norm(x, axis=1), [(3, 2)]),
    "norm_p": (lambda x: tf.norm(x, ord=3), [(4,)]),
    "norm_matrix_2": (lambda x: tf.norm(x, ord=2, axis=[0, 1]), [(3, 2)]),
    "einsum_batch": (lambda a, b: tf.einsum("bij,bjk->bik", a, b), [(2, 2, 3), (2, 3, 2)]),
    "einsum_reduced_letter": (lambda a, b: tf.einsum("ijk,j->i", a, b), [(2, 3, 2), (3,)]),
    "einsum_ellipsis": (lambda a, b: tf.einsum("...ij,jk->...ik", a, b), [(2, 2, 3), (3, 2)]),
    "einsum_three": (lambda a, b, c: tf.einsum("ij,jk,k->i", a, b, c), [(2, 3), (3, 2), (2,)]),
    "tensordot": (lambda a, b: tf.tensordot(a, b, [[0, 2], [1, 0]]), [(2, 3, 2), (2, 2)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_finite_differences(name):
    fn, shapes = CASES[name]
    values = None
    if name == "matrix_determinant":
        values = [np.random.default_rng(1).uniform(-1, 1, (2, 3, 3)) + 2 * np.eye(3)]
    check_gradient(fn, shapes, values=values)


def test_rsqrt_grad_of_a_graph_file_is_the_derivative_of_rsqrt():
    # TensorFlow's gradients write RsqrtGrad(y, dy) into graph files (batch norm's training graph).
    x = np.array([0.25, 1.0, 4.0, 9.0])
    dy = np.array([1.0, -2.0, 0.5, 3.0])
    with tf.Graph().as_default() as graph:
        y = tf.math.rsqrt(tf.constant(x))
        grad = graph.create_op("RsqrtGrad", [y, tf.constant(dy)]).outputs[0]
        assert grad.shape.as_list() == [4] and grad.dtype == tf.float64
        with tf.Session() as sess:
            value = sess.run(grad)
    eps = 1e-6
    np.testing.assert_allclose(value, dy * ((x + eps) ** -0.5 - (x - eps) ** -0.5) / (2 * eps), rtol=1e-6)
