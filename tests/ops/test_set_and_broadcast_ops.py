"""setdiff1d (ListDiff), broadcast_dynamic_shape (BroadcastArgs) and broadcast_static_shape: TensorFlow 2.21's
values, names, static shapes and errors (written down from a run of it)."""

import re

import numpy as np
import pytest

import numflow as tf


def test_setdiff1d_values_names_and_shapes():
    with tf.Graph().as_default():
        out, idx = tf.setdiff1d([1, 2, 3, 4, 5, 2], [2, 4])
        assert (out.op.name, out.op.type, [t.name for t in out.op.inputs]) == ("ListDiff", "ListDiff",
                                                                              ["ListDiff/x:0", "ListDiff/y:0"])
        assert out.shape.as_list() == [None] and (out.dtype, idx.dtype) == (tf.int32, tf.int32)
        floats, positions = tf.setdiff1d([1.0, 3.0], [3.0], index_dtype=tf.int64, name="ld")
        assert floats.op.name == "ld" and positions.dtype == tf.int64
        empty = tf.listdiff(np.array([], np.int64), np.array([1], np.int64))
        with tf.Session() as sess:
            got = sess.run([out, idx, floats, positions, *empty])
        assert [a.tolist() for a in got] == [[1, 3, 5], [0, 2, 4], [1.0], [0], [], []]
        assert got[3].dtype == np.int64 and got[4].dtype == np.int64
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.setdiff1d([[1]], [1])
        with pytest.raises(TypeError, match=re.escape("Expected int32 passed to parameter 'y' of op 'ListDiff', got "
                                                      "[1.0] of type 'list' instead.")):
            tf.setdiff1d([1], [1.0])


def test_broadcast_dynamic_shape():
    with tf.Graph().as_default():
        shape = tf.broadcast_dynamic_shape([2, 1, 3], [4, 1])
        assert (shape.op.name, shape.op.type, shape.shape.as_list(), shape.dtype) == ("BroadcastArgs",
                                                                                      "BroadcastArgs", [3], tf.int32)
        assert [t.name for t in shape.op.inputs] == ["BroadcastArgs/s0:0", "BroadcastArgs/s1:0"]
        unknown = tf.broadcast_dynamic_shape(tf.constant([2, 1], tf.int64), tf.placeholder(tf.int64, [None]))
        assert unknown.shape.as_list() == [None] and unknown.dtype == tf.int64
        with tf.Session() as sess:
            assert sess.run(shape).tolist() == [2, 4, 3]
            assert sess.run(unknown, {"Placeholder:0": [5, 1, 1]}).tolist() == [5, 2, 1]
            with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("Incompatible shapes: [2,3] vs. [4]")):
                sess.run(tf.broadcast_dynamic_shape([2, 3], [4]))


def test_broadcast_static_shape():
    got = tf.broadcast_static_shape(tf.TensorShape([None, 1, 3]), tf.TensorShape([4, 1]))
    assert got.as_list() == [None, 4, 3]
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))
