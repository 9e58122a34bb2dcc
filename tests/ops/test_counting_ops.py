"""roll, identity_n, bincount, histogram_fixed_width, searchsorted and tf.bitwise against TensorFlow's values and
names (``data/tf_counting_golden.npz``, made by ``data/make_tf_case_goldens.py`` from the graphs of
``counting_cases.py``), their static shapes and errors."""

import pathlib
import re

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from counting_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_counting_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name)


def test_static_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        assert tf.roll(x, 1, 1).shape.as_list() == [None, 4]
        assert tf.bincount([1, 2], minlength=4).shape.as_list() == [None]
        assert tf.histogram_fixed_width(x, [0.0, 1.0], nbins=7).shape.as_list() == [7]
        assert tf.searchsorted(tf.placeholder(tf.float32, [None, 5]), x).shape.as_list() == [None, 4]
        a, b = tf.identity_n([x, tf.constant(1)])
        assert (a.shape.as_list(), b.dtype) == ([None, 4], tf.int32)
        assert tf.bitwise.left_shift(tf.placeholder(tf.int16, [3, 1]), np.int16(2)).shape.as_list() == [3, 1]


def test_bincount_of_each_row_and_binary_output_as_tensorflow_2():
    # TensorFlow 2's tf.math.bincount: axis=-1 counts each row on its own (one DenseBincount of the 2-D input),
    # binary_output marks the values present.
    arr = np.array([[0, 3, 3], [1, 1, 5]], np.int32)
    with tf.Graph().as_default(), tf.Session() as sess:
        rows = tf.math.bincount(arr, minlength=4, maxlength=4, axis=-1)
        marks = tf.math.bincount(arr, minlength=6, axis=-1, binary_output=True, dtype=tf.float32)
        assert rows.op.type == "DenseBincount" and rows.shape.as_list() == [2, None]  # the size is run-time
        counted, marked = sess.run([rows, marks])
    np.testing.assert_array_equal(counted, [[1, 0, 0, 2], [0, 2, 0, 0]])
    np.testing.assert_array_equal(marked, [[1, 0, 0, 1, 0, 0], [0, 1, 0, 0, 0, 1]])
    with pytest.raises(ValueError, match="`binary_output` and `weights` are mutually exclusive"):
        tf.math.bincount(arr, weights=arr, binary_output=True)
    with pytest.raises(ValueError, match="Unsupported value for argument axis=1"):
        tf.math.bincount(arr, axis=1)


def test_build_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 1"):
            tf.roll(np.zeros([2, 3]), [1, 2], [0])
        with pytest.raises(TypeError, match="parameter 'shift' has DataType float32 not in list"):
            tf.roll(np.zeros([2, 3]), 1.0, 0)
        with pytest.raises(ValueError, match=re.escape("Argument `side` must be either 'right' or 'left'. "
                                                       "Received: `side` = 'middle'.")):
            tf.searchsorted(np.zeros([2, 3]), np.zeros([2, 3]), side="middle")
        with pytest.raises(TypeError, match="parameter 'x' has DataType float32 not in list of allowed values: int8"):
            tf.bitwise.bitwise_and(np.zeros([2], np.float32), np.zeros([2], np.float32))


@pytest.mark.parametrize("build, message", [
    (lambda d: tf.bincount(d([1, -1, 2])), "Input arr must be non-negative!"),
    (lambda d: tf.bincount(d([1, 2]), weights=d([1.0, 2.0, 3.0])), "`weights` must be the same shape as `arr`"),
    (lambda d: tf.histogram_fixed_width(d([1.0]), d([1.0, 0.0]), 3),
     "value_range should satisfy value_range[0] < value_range[1], but got '[1, 0]'"),
    (lambda d: tf.histogram_fixed_width([1.0], [0.0, 1.0], d(0)), "nbins should be a positive number, but got '0'"),
    (lambda d: tf.roll(d(np.zeros([2, 3])), 1, 2), "axis 2 is out of range"),
    (lambda d: tf.searchsorted(d(np.zeros([2, 3])), d(np.zeros([3, 3]))), "Leading dim_size of both tensors must"),
])
def test_run_time_errors(build, message):
    with tf.Graph().as_default():
        out = build(lambda v: tf.placeholder_with_default(v, None))
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
            sess.run(out)


def test_shifts_clamp_as_tensorflow():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = np.array([1, 1], np.int8)
        got = sess.run([tf.bitwise.left_shift(x, np.array([9, -1], np.int8)),
                        tf.bitwise.right_shift(np.array([-128, 64], np.int8), np.array([9, -1], np.int8))])
    np.testing.assert_array_equal(got[0], [-128, 1])
    np.testing.assert_array_equal(got[1], [-1, 64])


@pytest.mark.parametrize(("values", "dtype", "boundaries", "expected"), [
    ([[-5.0, 10000.0], [150.0, 10.0], [5.0, 100.0]], tf.float32, [0.0, 10.0, 100.0], [[0, 3], [3, 2], [1, 3]]),
    # The boundaries are float32: a double compares with them in float64 (0.1 < float32(0.1)), a float32
    # or an integer in float32 (2**24 + 1 rounds to 2**24, equal to the boundary: the bucket above).
    ([0.1], tf.float64, [0.1], [0]),
    ([0.1], tf.float32, [0.1], [1]),
    ([2**24 + 1], tf.int64, [16777217.0], [1]),
])
def test_bucketize_compares_as_tensorflow(values, dtype, boundaries, expected):
    from numflow.ops.counting_ops import bucketize

    with tf.Graph().as_default():
        buckets = bucketize(tf.constant(values, dtype), boundaries)
        assert buckets.dtype == tf.int32
        assert tf.Session().run(buckets).tolist() == expected
