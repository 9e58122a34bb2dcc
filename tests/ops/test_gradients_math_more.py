"""Gradients of the scans, segment reductions, gather_nd/scatter_nd and sequence ops against central finite
differences (``check_gradient``, in float64). TensorFlow's own values are checked in ``test_math_golden.py``."""

import pytest
from test_gradients import check_gradient

import numflow as tf

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
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_finite_differences(name):
    fn, shapes = CASES[name]
    check_gradient(fn, shapes)
