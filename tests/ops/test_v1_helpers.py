"""TensorFlow 1's top-level helpers: hessians, add_check_numerics_ops, op_scope, no_regularizer, the conversions
that let IndexedSlices and SparseTensors through, and the aliases (string_strip, encode_base64, NoGradient)."""

import numpy as np
import pytest

import numflow as tf


def _gradient(x):
    """The gradient of ``sum(sin(x) * x * x) + sum(x @ x)``, by hand."""
    return 2 * x * np.sin(x) + x * x * np.cos(x) + x.sum(axis=0)[:, None] + x.sum(axis=1)[None, :]


def test_hessians_are_the_gradients_of_the_gradient_element_by_element():
    value = np.array([[1.0, 2.0], [3.0, -1.0]])
    step = 1e-6
    want = np.zeros((2, 2, 2, 2))
    for index in np.ndindex(2, 2):
        shifted = np.zeros((2, 2))
        shifted[index] = step
        column = (_gradient(value + shifted) - _gradient(value - shifted)) / (2 * step)
        want[(slice(None), slice(None), *index)] = column
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.Variable(value)
        y = tf.reduce_sum(tf.sin(x) * x * x) + tf.reduce_sum(tf.matmul(x, x))
        (hessian,) = tf.hessians(y, x)
        sess.run(x.initializer)
        assert hessian.shape.as_list() == [2, 2, 2, 2] and hessian.name == "Reshape_1:0"  # TensorFlow's names
        np.testing.assert_allclose(sess.run(hessian), want, rtol=1e-6, atol=1e-6)


def test_add_check_numerics_ops_chains_one_check_per_float_output_and_names_the_bad_one():
    with tf.Graph().as_default(), tf.Session() as sess:
        a = tf.placeholder(tf.float32, [2], name="a")
        logs = tf.log(a, name="logs") * 2.0
        checks = tf.add_check_numerics_ops()
        assert (checks.type, len(checks.control_inputs)) == ("NoOp", 1)
        sess.run([logs, checks], {a: [1.0, 2.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="logs:0 : Tensor had NaN values"):
            sess.run([logs, checks], {a: [1.0, -2.0]})


def test_add_check_numerics_ops_refuses_a_graph_with_a_loop():
    with tf.Graph().as_default():
        tf.while_loop(lambda x: x < 3.0, lambda x: x + 1.0, [0.0])
        with pytest.raises(ValueError, match="not compatible with TensorFlow control flow"):
            tf.add_check_numerics_ops()


def test_conversions_let_indexed_slices_and_sparse_tensors_through():
    with tf.Graph().as_default():
        slices = tf.IndexedSlices(tf.ones([2, 3]), tf.constant([0, 4]), tf.constant([5, 3]))
        sparse = tf.SparseTensor([[0, 1]], [2.0], [2, 2])
        assert tf.convert_to_tensor_or_indexed_slices(slices) is slices
        assert tf.convert_to_tensor_or_sparse_tensor(sparse) is sparse
        made = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[1, 0]], [3.0], [2, 2]))
        assert isinstance(made, tf.SparseTensor) and made.dtype == tf.float32
        assert tf.convert_to_tensor_or_indexed_slices([1.0, 2.0]).shape.as_list() == [2]
        with pytest.raises(ValueError, match="requested dtype int32"):
            tf.convert_to_tensor_or_indexed_slices(slices, dtype=tf.int32)


def test_op_scope_no_regularizer_and_aliases():
    with tf.Graph().as_default(), tf.Session() as sess:
        with tf.op_scope([], None, default_name="helper") as scope:
            assert scope == "helper/"
        with tf.variable_scope("layer", regularizer=lambda w: tf.reduce_sum(w)):
            tf.get_variable("w", [2], regularizer=tf.no_regularizer)
        assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []
        assert sess.run(tf.string_strip(["  a b  "])).tolist() == [b"a b"]
        assert sess.run(tf.decode_base64(tf.encode_base64(["numflow"]))).tolist() == [b"numflow"]
    assert tf.NoGradient is tf.no_gradient


def test_timestamp_reads_the_time_each_run():
    import time

    with tf.Graph().as_default(), tf.Session() as sess:
        stamp = tf.timestamp()
        assert (stamp.name, stamp.dtype, stamp.shape.as_list()) == ("Timestamp:0", tf.float64, [])
        before = time.time()
        first = sess.run(stamp)
        second = sess.run(stamp)
        after = time.time()
    assert before <= first <= second <= after
