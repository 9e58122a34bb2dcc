"""Errors of ensure_shape, repeat, batch_gather, edit_distance and count_up_to, in TensorFlow 2.21's classes
and words (their values, names and shapes are among the golden cases of ``math_cases.py``)."""

import numpy as np
import pytest

import numflow as tf


def test_errors_when_built():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Shapes \(2, 2\) and \(3, 2\) are not compatible"):
            tf.ensure_shape(tf.ones([2, 2]), [3, 2])
        with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
            tf.repeat([1, 2], [1, 2, 3])
        with pytest.raises(TypeError, match="^Hypothesis must be a SparseTensor.$"):
            tf.edit_distance([1], [2])
        with pytest.raises(ValueError, match="^batch_gather does not allow indices with unknown shape.$"):
            tf.batch_gather([1.0], tf.placeholder(tf.int32))
        with pytest.raises(TypeError, match="Value for attr 'out_idx' of float32 is not in the list"):
            tf.unique_with_counts([1, 2], out_idx=tf.float32)


def test_edit_distance_measures_runs_of_entries_as_tensorflow_does_whatever_their_order():
    # TensorFlow 2.21's values: a repeated index joins its run ("beers" against "bear"), and runs found
    # out of order are measured against an empty sequence in turn.
    with tf.Graph().as_default(), tf.Session() as sess:
        bear = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]], list("bear"), [1, 1, 1])
        beers = tf.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 0, 1], [0, 0, 3], [0, 0, 4]], list("beers"), [1, 1, 1])
        repeated = tf.edit_distance(bear, beers, normalize=False)
        runs_out_of_order = tf.edit_distance(tf.SparseTensor([[0, 1, 0], [0, 0, 0]], list("ab"), [1, 2, 1]),
                                             tf.SparseTensor([[0, 0, 0], [0, 1, 0]], list("ab"), [1, 2, 1]))
        assert sess.run(repeated).tolist() == [[2.0]]
        assert sess.run(runs_out_of_order).tolist() == [[np.inf, 1.0]]


def test_errors_when_run():
    with tf.Graph().as_default():
        late = tf.placeholder_with_default(np.ones((2, 2), np.float32), None)
        checked = tf.ensure_shape(late, [3, None])
        out_of_order = tf.edit_distance(tf.SparseTensor([[0, 1], [0, 0]], [1, 2], [1, 2]),
                                        tf.SparseTensor([[0, 0]], [1], [1, 1]))
        counter = tf.Variable(0)
        step = tf.count_up_to(counter, 2)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[2,2\] is not compatible with expected shape "
                                                                     r"\[3,\?\]"):
                sess.run(checked)
            # TensorFlow assumes the order and checks nothing: the entries of one sequence form one run.
            assert sess.run(out_of_order).tolist() == [1.0]
            sess.run(counter.initializer)
            assert [sess.run(step), sess.run(step)] == [0, 1]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(step)
