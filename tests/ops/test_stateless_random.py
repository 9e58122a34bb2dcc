"""tf.random.stateless_uniform, stateless_normal and stateless_truncated_normal: TensorFlow 2.21's bits and op
names for the same seeds (``data/tf_stateless_golden.npz``, made by ``data/make_tf_case_goldens.py
stateless_cases`` from ``stateless_cases.py``), the same values run after run, shapes and errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case
from stateless_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_stateless_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_bits_and_names(name):
    check_case(tf, run_case, GOLDEN, name)


def test_stateless_values_repeat_and_shapes():
    with tf.Graph().as_default():
        seed = tf.placeholder(tf.int32, [2])
        shape = tf.placeholder(tf.int32, [2])
        known = tf.random.stateless_normal([2, 3], seed)
        unknown = tf.random.stateless_uniform(shape, seed)
        assert known.shape.as_list() == [2, 3] and unknown.shape.as_list() == [None, None]
        with tf.Session() as sess:
            first, second = (sess.run(known, {seed: [5, 6]}) for _ in range(2))
            other = sess.run(known, {seed: [5, 7]})
            assert sess.run(unknown, {seed: [1, 2], shape: [1, 4]}).shape == (1, 4)
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, other)


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="'maxval' must be specified"):
            tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)
        with pytest.raises(TypeError, match="parameter 'seed' has DataType float32"):
            tf.random.stateless_normal([2], [1.0, 2.0])
        with pytest.raises(ValueError):
            tf.random.stateless_normal([2], [1, 2, 3])
        bad = tf.random.stateless_uniform([2], [1, 2], minval=5, maxval=tf.placeholder_with_default(5, []),
                                          dtype=tf.int32)
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval"):
            sess.run(bad)
