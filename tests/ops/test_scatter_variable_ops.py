"""scatter_mul, scatter_div, scatter_max and scatter_min on variables: TensorFlow 2.21's values (written down from
a run of it), op names and types, static shapes and errors."""

import numpy as np
import pytest

import numflow as tf


def test_values_names_and_order_as_tensorflow():
    with tf.Graph().as_default():
        v = tf.Variable(np.arange(1, 7, dtype=np.float32).reshape(3, 2))
        ints = tf.Variable(np.array([7, -7, 9, 3], np.int32))
        mul = tf.scatter_mul(v, [2, 0, 2], [[2.0, 3.0], [0.5, 4.0], [-1.0, 2.0]])
        assert (mul.op.name, mul.op.type, mul.shape.as_list()) == ("ScatterMul", "ScatterMul", [3, 2])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(mul), [[0.5, 8.0], [3.0, 4.0], [-10.0, 36.0]])
            assert sess.run(tf.scatter_div(ints, [0, 1, 2], [2, 2, -4])).tolist() == [3, -3, -2, 3]
            np.testing.assert_array_equal(sess.run(tf.scatter_max(v, [1, 1], [[100.0, np.nan], [200.0, 0.0]])),
                                          [[0.5, 8.0], [200.0, 4.0], [-10.0, 36.0]])
            np.testing.assert_array_equal(sess.run(tf.scatter_min(v, [0], [[np.nan, 0.0]], name="lowest")),
                                          [[0.5, 0.0], [200.0, 4.0], [-10.0, 36.0]])
            np.testing.assert_array_equal(sess.run(tf.scatter_div(v, [2], 2.0)), [[0.5, 0.0], [200.0, 4.0],
                                                                                  [-5.0, 18.0]])


def test_errors():
    with tf.Graph().as_default():
        for scatter in (tf.scatter_max, tf.scatter_min):
            with pytest.raises(TypeError, match="parameter 'ref' has DataType uint8 not in list of allowed values: "
                                                "float16, bfloat16, float32, float64, int32, int64$"):
                scatter(tf.Variable(np.ones(2, np.uint8)), [0], np.uint8(2))
        with pytest.raises(TypeError, match="parameter 'ref' has DataType bool not in list of allowed values: float32"):
            tf.scatter_mul(tf.Variable([True]), [0], [False])
        v = tf.Variable(np.ones((3, 2), np.float32))
        ints = tf.Variable(np.array([4, 5], np.int64))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 5 is not in \[0, 3\)"):
                sess.run(tf.scatter_mul(v, [0, 5], [[2.0, 2.0], [1.0, 1.0]]))
            with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
                sess.run(tf.scatter_div(ints, [0, 1], np.array([2, 0], np.int64)))
            assert sess.run(ints).tolist() == [4, 5] and sess.run(v).tolist() == [[1.0, 1.0]] * 3


def test_scatter_nd_on_variables_as_tensorflow():
    # TensorFlow 2.21's values for the same three updates, in order, written down from a run of it.
    with tf.Graph().as_default():
        v = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
        ops = [tf.scatter_nd_update(v, [[1], [3]], [[9.0, 9.0, 9.0], [7.0, 7.0, 7.0]]),
               tf.scatter_nd_add(v, [[0, 1], [0, 1], [2, 2]], [1.0, 2.0, 3.0]),
               tf.scatter_nd_sub(v, np.array([[3, 0]], np.int64), [100.0])]
        assert [(o.name, o.shape.as_list()) for o in ops] == [
            ("ScatterNdUpdate:0", [4, 3]), ("ScatterNdAdd:0", [4, 3]), ("ScatterNdSub:0", [4, 3])]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got = [sess.run(o).tolist() for o in ops]
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into shape "
                                                                     r"\[4,3\]"):
                sess.run(tf.scatter_nd_update(v, [[5]], [[1.0, 1.0, 1.0]]))
            assert sess.run(v).tolist() == got[-1]  # the failed update wrote nothing
    assert got == [[[0.0, 1.0, 2.0], [9.0, 9.0, 9.0], [6.0, 7.0, 8.0], [7.0, 7.0, 7.0]],
                   [[0.0, 4.0, 2.0], [9.0, 9.0, 9.0], [6.0, 7.0, 11.0], [7.0, 7.0, 7.0]],
                   [[0.0, 4.0, 2.0], [9.0, 9.0, 9.0], [6.0, 7.0, 11.0], [-93.0, 7.0, 7.0]]]


def test_scatter_nd_errors_when_built():
    with tf.Graph().as_default():
        v = tf.Variable(np.zeros((4, 3), np.float32))
        with pytest.raises(TypeError, match="parameter 'indices' has DataType float32 not in list of allowed values: "
                                            "int32, int64"):
            tf.scatter_nd_add(v, [[1.0]], [[1.0, 2.0, 3.0]])
        with pytest.raises(ValueError):
            tf.scatter_nd_update(v, [[1]], [1.0, 2.0])
