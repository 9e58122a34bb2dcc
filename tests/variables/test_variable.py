"""tf.Variable as TensorFlow 1.x has it: creation, names, attributes, reads, assignments, scatters."""

import numpy as np
import pytest

import numflow as tf


def _init_and_run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


# -- scatter family -------------------------------------------------------------------------------
def test_scatter_ops_return_the_updated_variable_in_index_order():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="v")
    ops = [tf.scatter_update(v, [0, 2], [[0.0, 0.0], [9.0, 9.0]]),
           tf.scatter_add(v, [1, 1], [[1.0, 1.0], [1.0, 1.0]]),  # a repeated index adds twice
           tf.scatter_sub(v, [0], [[1.0, 1.0]]),
           v.scatter_update(tf.IndexedSlices([[5.0, 5.0]], [1])),
           v.scatter_add(tf.IndexedSlices([[5.0, 5.0]], [1])),
           v.scatter_sub(tf.IndexedSlices([[5.0, 5.0]], [1]))]
    assert [op.name for op in ops] == ["ScatterUpdate:0", "ScatterAdd:0", "ScatterSub:0", "ScatterUpdate_1:0",
                                       "ScatterAdd_1:0", "ScatterSub_1:0"]
    assert all(op.dtype == tf.float32._as_ref and op.shape == (3, 2) for op in ops)
    with tf.Session() as sess:
        sess.run(v.initializer)
        got = [sess.run(op).tolist() for op in ops]
    assert got == [[[0, 0], [3, 4], [9, 9]], [[0, 0], [5, 6], [9, 9]], [[-1, -1], [5, 6], [9, 9]],
                   [[-1, -1], [5, 5], [9, 9]], [[-1, -1], [10, 10], [9, 9]], [[-1, -1], [5, 5], [9, 9]]]


def test_scatter_of_a_scalar_writes_every_row_named():
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    w = tf.Variable(np.zeros((3, 2), np.int32), name="w")
    got = _init_and_run([tf.scatter_update(v, [0, 2], 7.0), tf.scatter_add(w, [[1], [1]], 5)])
    assert got[0].tolist() == [7.0, 2.0, 7.0]
    assert got[1].tolist() == [[0, 0], [10, 10], [0, 0]]


def test_scatter_out_of_range_names_the_index_position_and_leaves_the_variable():
    v = tf.Variable(np.zeros((5, 2), np.float32), name="v")
    bad = tf.scatter_sub(v, [[0, 1], [7, 2]], np.ones((2, 2, 2), np.float32))
    negative = tf.scatter_add(v, [-1], [[1.0, 1.0]])
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 7 is not in \[0, 5\)") as e:
            sess.run(bad)
        assert e.value.op is bad.op
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 5\)"):
            sess.run(negative)
        assert sess.run(v).sum() == 0
