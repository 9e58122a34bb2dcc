"""tf.py_func's messages in TensorFlow's words, its graph files, and its functions' lifetime (the values
and error classes are checked against TensorFlow in tests/programs, case ``py_func``)."""

import gc

import numpy as np
import pytest

import numflow as tf


def test_what_the_function_returns_is_checked_as_tensorflow_checks_it():
    x = tf.constant([1.0, 2.0])
    wrong_dtype = tf.py_func(lambda v: v.astype(np.float64), [x], tf.float32)
    too_many = tf.py_func(lambda v: [v, v], [x], tf.float32)
    with tf.Session() as sess:
        token = wrong_dtype.op.get_attr("token")
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"0-th value returned by {token} is double, but "
                                                                  "expects float"):
            sess.run(wrong_dtype)
        with pytest.raises(tf.errors.InvalidArgumentError, match="returns 2 values, but expects to see 1 values."):
            sess.run(too_many)


def test_an_exception_keeps_its_text_and_traceback_and_a_tf_error_passes_as_it_is():
    def bad(v):
        raise ValueError(f"cannot take {v.size} values")

    def end(v):
        raise tf.errors.OutOfRangeError(None, None, "no more data")

    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as caught:
            sess.run(tf.py_func(bad, [tf.constant([1.0, 2.0])], tf.float32, name="loader"))
        assert caught.value.message.startswith("ValueError: cannot take 2 values\nTraceback (most recent call last)")
        assert caught.value.op.name == "loader"
        with pytest.raises(tf.errors.OutOfRangeError, match="no more data"):
            sess.run(tf.py_func(end, [tf.constant(1.0)], tf.float32))


def test_the_function_runs_with_the_op_each_time_and_the_graph_saves():
    calls = []
    counted = tf.py_func(lambda v: calls.append(v) or v, [tf.constant(3)], tf.int32)
    assert calls == []
    with tf.Session() as sess:
        assert [sess.run(counted) for _ in range(2)] == [3, 3] and calls == [3, 3]
    node = next(n for n in tf.get_default_graph().as_graph_def().node if n.op == "PyFunc")
    assert node.attr["token"].s == counted.op.get_attr("token").encode()
    assert [t for t in node.attr["Tout"].list.type] == [tf.int32.as_datatype_enum]


def test_a_graph_read_back_without_its_function_names_the_missing_callback():
    graph = tf.Graph()
    with graph.as_default():
        tf.py_func(lambda v: v, [tf.constant(1.0)], tf.float32, name="f")
    graph_def, token = graph.as_graph_def(), graph.get_operation_by_name("f").get_attr("token")
    del graph
    gc.collect()
    with tf.Graph().as_default():
        (out,) = tf.import_graph_def(graph_def, return_elements=["f:0"], name="")
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match=f"Could not find callback with key={token} in the registry."):
            sess.run(out)
