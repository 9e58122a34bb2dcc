"""Errors of the scans, segment reductions, gather_nd/scatter_nd, sequence ops, linear algebra, einsum and
norms, in TensorFlow's classes and words: at build time where TensorFlow raises then, else at run time
from inputs known only then. Every message was checked against TensorFlow 2.21's ``tf.compat.v1``."""

import re

import numpy as np
import pytest

import numflow as tf


def _late(value, dtype=None):
    """``value`` with a fully unknown static shape: checks on it happen at run time."""
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), shape=None)


BUILD = [
    ("segment_ids_rank", lambda: tf.segment_sum([1.0, 2.0, 3.0], [[0, 1, 1]]), ValueError,
     "Shape must be rank 1 but is rank 2"),
    ("gather_nd_deep", lambda: tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[0, 1, 0]]), ValueError,
     "indices.shape[-1] must be <= params.rank, but saw indices shape: [1,3] and params shape: [2,2]"),
    ("scatter_nd_updates", lambda: tf.scatter_nd([[0], [1]], [1.0, 2.0, 3.0], [3]), ValueError,
     "Dimensions [0,1) of indices[shape=[2,1]] = [2] must match dimensions [0,1) of updates[shape=[3]] = [3]"),
    ("reverse_axis_range", lambda: tf.reverse([[1, 2], [3, 4]], [2]), ValueError,
     "'axis'[0] = 2 is out of valid range [0, 1"),
    ("reverse_axis_twice", lambda: tf.reverse([[1, 2], [3, 4]], [0, -2]), ValueError,
     "axis 0 specified more than once."),
    ("reverse_sequence_lengths", lambda: tf.reverse_sequence([[1, 2], [3, 4]], [1, 1, 1], seq_axis=1), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("reverse_sequence_axis", lambda: tf.reverse_sequence([[1, 2], [3, 4]], [1, 1], seq_axis=2), ValueError,
     "seq_dim must be < input rank: 2 vs. 2"),
    ("reverse_sequence_no_axis", lambda: tf.reverse_sequence([[1, 2], [3, 4]], [1, 1]), TypeError,
     "Expected int for argument 'seq_dim' not None."),
    ("boolean_mask_scalar", lambda: tf.boolean_mask([1, 2], True), ValueError, "mask cannot be scalar."),
    ("boolean_mask_shape", lambda: tf.boolean_mask([1, 2], [True, False, True]), ValueError,
     "Shapes (2,) and (3,) are incompatible"),
    ("inverse_not_square", lambda: tf.matrix_inverse([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("inverse_rank", lambda: tf.matrix_inverse([1.0, 2.0]), ValueError, "Shape must be at least rank 2 but is rank 1"),
    ("inverse_int", lambda: tf.matrix_inverse([[1, 2], [3, 4]]), TypeError,
     "Value passed to parameter 'input' has DataType int32 not in list of allowed values"),
    ("determinant_not_square", lambda: tf.matrix_determinant([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("solve_rhs", lambda: tf.matrix_solve([[1.0, 2.0], [2.0, 5.0]], [[1.0], [1.0], [1.0]]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("diag_part_not_square", lambda: tf.diag_part([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("diag_scalar", lambda: tf.diag(1.0), ValueError, "Shape must be at least rank 1 but is rank 0"),
    ("trace_rank", lambda: tf.trace([1.0, 2.0]), ValueError, "Shape must be at least rank 2 but is rank 1"),
    ("tensordot_dims", lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([4, 5]), 1), ValueError,
     "Dimensions must be equal, but are 3 and 4"),
    ("tensordot_axes", lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 5]), [[1], [0], [0]]), ValueError,
     "`axes` must be an integer or have length 2. Received [[1], [0], [0]]."),
    ("einsum_dims", lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 5])), ValueError,
     "Dimensions must be equal, but are 3 and 4"),
    ("einsum_inputs", lambda: tf.einsum("ij,jk", tf.ones([2, 3])), ValueError,
     'Got 1 inputs for equation "ij,jk", expecting 2'),
    ("norm_vector_ord", lambda: tf.norm([1.0, 2.0], ord="fro"), ValueError,
     "'ord' must be a supported vector norm, got fro"),
    ("norm_negative_ord", lambda: tf.norm([1.0, 2.0], ord=-1), ValueError,
     "'ord' must be a supported vector norm, got -1"),
    ("norm_axis", lambda: tf.norm([1.0, 2.0], axis=[0, 1, 2]), ValueError,
     "'axis' must be None, an integer, or a tuple of 2 unique integers, got [0, 1, 2]"),
    ("is_nan_int", lambda: tf.is_nan(tf.constant([1])), TypeError,
     "Value passed to parameter 'x' has DataType int32 not in list of allowed values"),
    ("truncatemod_uint8", lambda: tf.truncatemod(tf.constant([1], tf.uint8), tf.constant([3], tf.uint8)), TypeError,
     "Value passed to parameter 'x' has DataType uint8 not in list of allowed values"),
    ("cumsum_bool", lambda: tf.cumsum(tf.constant([True])), TypeError,
     "Value passed to parameter 'x' has DataType bool not in list of allowed values"),
]

RUN = [
    ("segment_ids_not_increasing", lambda: tf.segment_sum(_late([1.0, 2.0, 3.0]), _late([0, 2, 1])),
     "segment ids are not increasing"),
    ("segment_id_negative", lambda: tf.segment_sum(_late([1.0, 2.0, 3.0]), _late([-1, 0, 1])),
     "Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is not sorted."),
    ("segment_ids_size", lambda: tf.segment_sum(_late([1.0, 2.0, 3.0]), _late([0, 1])),
     "segment_ids should be the same size as dimension 0 of input."),
    ("segment_ids_size_static", lambda: tf.segment_max([1.0, 2.0, 3.0], [0, 1]),
     "segment_ids should be the same size as dimension 0 of input."),
    ("segment_ids_vector", lambda: tf.segment_sum(_late([1.0, 2.0, 3.0]), _late([[0, 1, 1]])),
     "segment_ids should be a vector."),
    ("unsorted_segment_id", lambda: tf.unsorted_segment_max(_late([1.0, 2.0, 3.0]), _late([0, 5, 1]), 3),
     "segment_ids[1] = 5 is out of range [0, 3)"),
    ("unsorted_segment_shape", lambda: tf.unsorted_segment_prod(_late([[1.0, 2.0, 3.0]]), _late([0, 1]), 3),
     "data.shape = [1,3] does not start with segment_ids.shape = [2]"),
    ("gather_nd_index", lambda: tf.gather_nd(_late([[1.0, 2.0], [3.0, 4.0]]), _late([[0, 1], [2, 0]])),
     "indices[1] = [2, 0] does not index into param shape [2,2], node name: GatherNd"),
    ("gather_nd_negative", lambda: tf.gather_nd(_late([[1.0, 2.0], [3.0, 4.0]]), _late([[-1, 0]])),
     "indices[0] = [-1, 0] does not index into param shape [2,2]"),
    ("gather_nd_deep", lambda: tf.gather_nd(_late([[1.0, 2.0], [3.0, 4.0]]), _late([[0, 1, 0]])),
     "index innermost dimension length must be <= params rank; saw: 3 vs. 2"),
    ("gather_nd_scalar", lambda: tf.gather_nd(_late([[1.0, 2.0], [3.0, 4.0]]), _late(1)),
     "indices must be at least a vector"),
    ("scatter_nd_index", lambda: tf.scatter_nd(_late([[0], [5]]), _late([1.0, 2.0]), _late([3])),
     "indices[1] = [5] does not index into shape [3]"),
    ("scatter_nd_updates", lambda: tf.scatter_nd(_late([[0], [1]]), _late([1.0, 2.0, 3.0]), _late([3])),
     "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of updates[shape=[3]]"),
    ("tensor_scatter_update_index",
     lambda: tf.tensor_scatter_nd_update(_late([0.0, 0.0, 0.0]), _late([[0], [4]]), _late([1.0, 2.0])),
     "indices[1] = [4] does not index into shape [3]"),
    ("tensor_scatter_add_negative",
     lambda: tf.tensor_scatter_nd_add(_late([0.0, 0.0, 0.0]), _late([[0], [-1]]), _late([1.0, 2.0])),
     "indices[1] = [-1] does not index into shape [3]"),
    ("reverse_axis_twice", lambda: tf.reverse(_late([[1, 2], [3, 4]]), _late([0, 0])),
     "axis 0 specified more than once."),
    ("reverse_axis_range", lambda: tf.reverse(_late([[1, 2], [3, 4]]), _late([2])),
     "'axis'[0] = 2 is out of valid range [0, 1"),
    ("reverse_sequence_long", lambda: tf.reverse_sequence(_late([[1, 2], [3, 4]]), _late([3, 1]), seq_axis=1),
     "seq_lens(0) > input.dims(1)"),
    ("reverse_sequence_negative", lambda: tf.reverse_sequence(_late([[1, 2], [3, 4]]), _late([-1, 1]), seq_axis=1),
     "seq_lens(0) < 0"),
    ("reverse_sequence_count", lambda: tf.reverse_sequence(_late([[1, 2], [3, 4]]), _late([1, 1, 1]), seq_axis=1),
     "Length of seq_lengths != input.dims(0), (3 vs. 2)"),
    ("reverse_sequence_same_axis",
     lambda: tf.reverse_sequence([[1, 2], [3, 4]], [1, 1], seq_axis=1, batch_axis=1), "batch_dim == seq_dim == 1"),
    ("boolean_mask_late", lambda: tf.boolean_mask(_late([1, 2]), tf.placeholder_with_default([True, False, True],
                                                                                             [None])),
     "indices[1] = 2 is not in [0, 2)"),
    ("cumsum_axis", lambda: tf.cumsum(_late([1, 2]), 3), "ScanOp: Expected scan axis in the range [-1, 1), but got 3"),
    ("cumsum_axis_static", lambda: tf.cumsum(tf.ones([2, 3]), axis=5),
     "ScanOp: Expected scan axis in the range [-2, 2), but got 5"),
    ("cumsum_axis_vector", lambda: tf.cumsum(tf.ones([2, 3]), axis=[1]), "ScanOp: axis must be a scalar, not [1]"),
    ("inverse_singular", lambda: tf.matrix_inverse(_late([[1.0, 2.0], [2.0, 4.0]])), "Input is not invertible."),
    ("inverse_not_square", lambda: tf.matrix_inverse(_late([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]])),
     "Input matrix must be square."),
    ("determinant_not_square", lambda: tf.matrix_determinant(_late([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]])),
     "Input matrix must be square."),
    ("solve_singular", lambda: tf.matrix_solve(_late([[1.0, 2.0], [2.0, 4.0]]), _late([[1.0], [1.0]])),
     "Input matrix is not invertible."),
    ("solve_rhs", lambda: tf.matrix_solve(_late([[1.0, 2.0], [2.0, 5.0]]), _late([[1.0], [1.0], [1.0]])),
     "Input matrix and rhs are incompatible."),
    ("diag_part_shape", lambda: tf.diag_part(_late([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]])),
     "Invalid shape [2,3]: dimensions 0 and 1 do not match."),
    ("diag_part_rank", lambda: tf.diag_part(_late([1.0, 2.0, 3.0])),
     "The rank of the tensor should be                                          even and positive, got shape [3]"),
    ("set_diag_length", lambda: tf.matrix_set_diag(_late([[1.0, 2.0], [3.0, 4.0]]), _late([1.0, 2.0, 3.0])),
     "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to the "
     "longests diagonal in range [lower_diag_index:upper_diag_index]."),
    ("band_part_lower", lambda: tf.matrix_band_part(_late([[1.0, 2.0], [3.0, 4.0]]), 3, 0),
     "num_lower must be negative or less or equal to number of rows (2) got: 3"),
    ("linspace_num", lambda: tf.linspace(_late(0.0), 1.0, _late(-1)), "Requires start <= limit when delta > 0: 1/-1"),
]


@pytest.mark.parametrize("build, cls, message", [pytest.param(*r[1:], id=r[0]) for r in BUILD])
def test_build_time(build, cls, message):
    with tf.Graph().as_default():
        with pytest.raises(cls, match="^" + re.escape(message)):
            build()


@pytest.mark.parametrize("build, message", [pytest.param(*r[1:], id=r[0]) for r in RUN])
def test_run_time(build, message):
    with tf.Graph().as_default():
        t = build()
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="^" + re.escape(message)) as e:
            sess.run(t)
        assert t.op.name in str(e.value) or "node" in str(e.value)


def test_integer_truncating_division_by_zero_is_an_internal_error_as_in_tensorflow():
    for fn in (tf.truncatediv, tf.truncatemod):
        with tf.Graph().as_default(), tf.Session() as sess:
            with pytest.raises(tf.errors.InternalError, match="Integer division by zero"):
                sess.run(fn(_late([1]), _late([0])))


def test_edge_values_match_tensorflow():
    """Empty segments, identities of unsorted reductions, NaN-filled Cholesky factors and gamma-free edges."""
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run({
            "max_empty": tf.segment_max([1.0, 2.0, 3.0], [0, 2, 2]),
            "mean_empty_int": tf.segment_mean([1, 2, 4], [0, 2, 2]),
            "prod_empty": tf.segment_prod([1.0, 2.0, 3.0], [0, 2, 2]),
            "unsorted_max": tf.unsorted_segment_max([1.0, 2.0, 3.0], [0, -1, 0], 3),
            "unsorted_min_int": tf.unsorted_segment_min([1, 2, 3], [0, -1, 0], 3),
            "unsorted_mean_int": tf.unsorted_segment_mean([1, 2, 4], [0, 0, 0], 3),
            "cholesky_not_pd": tf.cholesky(_late([[1.0, 2.0], [2.0, 1.0]])),
            "diag_empty": tf.diag(_late(np.zeros([0]))),
            "sequence_mask_negative": tf.sequence_mask(_late([1, -2]), 3),
            "norm_3": tf.norm([1.0, 2.0], ord=3),
        })
    lowest = np.finfo(np.float32).min
    np.testing.assert_array_equal(got["max_empty"], [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(got["mean_empty_int"], [1, 0, 3])
    np.testing.assert_array_equal(got["prod_empty"], [1.0, 1.0, 6.0])
    np.testing.assert_array_equal(got["unsorted_max"], [3.0, lowest, lowest])
    np.testing.assert_array_equal(got["unsorted_min_int"], [1, 2**31 - 1, 2**31 - 1])
    np.testing.assert_allclose(got["unsorted_mean_int"], [7 / 3, 0.0, 0.0])
    assert np.isnan(got["cholesky_not_pd"][[0, 1, 1], [0, 0, 1]]).all() and got["cholesky_not_pd"][0, 1] == 0
    assert got["diag_empty"].shape == (0, 0)
    np.testing.assert_array_equal(got["sequence_mask_negative"], [[True, False, False], [False, False, False]])
    np.testing.assert_allclose(got["norm_3"], 9.0 ** (1 / 3), rtol=1e-6)
