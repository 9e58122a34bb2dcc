"""tf.unravel_index, tf.bitcast, tf.histogram_fixed_width_bins and tf.string_to_hash_bucket against TensorFlow's
values and names (``data/tf_index_golden.npz``, made by ``data/make_tf_case_goldens.py index_cases``), their
static shapes, and TensorFlow's errors (messages as TensorFlow 2.21 words them)."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case
from index_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_index_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case(tf, run_case, GOLDEN, name)


def test_static_shapes():
    with tf.Graph().as_default():
        assert tf.unravel_index([1, 5, 7], [3, 4]).shape.as_list() == [2, 3]
        assert tf.unravel_index(tf.placeholder(tf.int32, [None]), [2, 3]).shape.as_list() == [2, None]
        assert tf.unravel_index(tf.constant(5, tf.int64), tf.constant([3, 4], tf.int64)).shape.as_list() == [2]
        assert tf.bitcast(tf.constant([1, 2, 3, 4], tf.uint8), tf.int32).shape.as_list() == []
        assert tf.bitcast(tf.placeholder(tf.float32, [None, 2]), tf.uint8).shape.as_list() == [None, 2, 4]
        assert tf.histogram_fixed_width_bins(tf.zeros([2, 3]), [0.0, 1.0]).shape.as_list() == [2, 3]


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Cannot bitcast from 4 to 3 due to shape. 3 does not match 4"):
            tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)
        with pytest.raises(TypeError, match="parameter 'input' has DataType string not in list of allowed values"):
            tf.bitcast(tf.constant(["a"]), tf.int32)
        with pytest.raises(TypeError, match="parameter 'indices' has DataType float32 not in list of allowed values: "
                                            "int32, int64"):
            tf.unravel_index([1.0], [3, 4])
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.unravel_index([1], [[3, 4]])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="index is out of bound as with dims"):
                sess.run(tf.unravel_index([12], [3, 4]))
            with pytest.raises(tf.errors.InvalidArgumentError, match=r'The indices can only be scalar or vector, got '
                                                                     r'"\[1,1\]"'):
                sess.run(tf.unravel_index([[1]], [3, 4]))
            with pytest.raises(tf.errors.InvalidArgumentError, match="nbins .* must > 0"):
                sess.run(tf.histogram_fixed_width_bins([1.0], [0.0, 1.0], nbins=tf.constant(0)))
