"""tf.sets against TensorFlow 2.21 (``data/tf_sets_golden.npz``, made by ``data/make_tf_case_goldens.py
set_cases`` from ``set_cases.py``): values, op names and static shapes, and errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case
from set_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_sets_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_and_names(name):
    check_case(tf, run_case, GOLDEN, name)


def test_static_shapes():
    with tf.Graph().as_default():
        result = tf.sets.set_union(tf.placeholder(tf.int64, [None, 2, None]), tf.placeholder(tf.int64, [3, None, 4]))
        assert [t.shape.as_list() for t in (result.indices, result.values, result.dense_shape)] == [
            [None, 3], [None], [3]]
        assert tf.sets.set_size(tf.SparseTensor([[0, 0]], [1], [1, 1])).shape.ndims is None


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="^Types don't match"):
            tf.sets.set_union([[1, 2]], tf.constant([[1, 2]], tf.int64))
        with pytest.raises(TypeError, match="Unexpected dtype"):
            tf.sets.set_union([[1.0]], [[2.0]])
        with pytest.raises(TypeError, match="^Expected `SparseTensor`"):
            tf.sets.set_size([[1, 2]])
        with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal"):
            tf.sets.set_intersection([[1, 2], [3, 4]], [[1, 2]])
        unordered = tf.sets.set_size(tf.SparseTensor([[0, 1], [0, 0]], [5, 1], [3, 4]))
        mismatched = tf.sets.set_intersection(tf.SparseTensor([[0, 0]], [1], [3, 4]),
                                              tf.SparseTensor([[0, 0]], [1], [2, 4]))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
                sess.run(unordered)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(mismatched.values)
