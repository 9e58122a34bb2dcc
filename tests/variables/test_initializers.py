"""Initializer and random-op values: bit for bit against TensorFlow's, and their documented rules."""

import numpy as np
import pytest

import numflow as tf


def _run(value):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(value)


def test_graph_seed_draws_do_not_depend_on_other_ops():
    tf.set_random_seed(7)
    a = tf.random_normal([6])
    b = tf.random_normal([6])
    first = _run([a, b])
    tf.reset_default_graph()
    tf.set_random_seed(7)
    for _ in range(10):
        tf.constant(1.0) + 1.0
    a = tf.random_normal([6])
    tf.Variable(3.0)
    b = tf.random_normal([6])
    np.testing.assert_array_equal(_run([a, b]), first)


def test_op_seeds_count_only_seedless_random_ops_made_under_a_graph_seed():
    tf.set_random_seed(5)
    assert tf.get_seed(None) == (5, 0)
    assert tf.get_seed(3) == (5, 3)  # an op seed takes no number
    assert tf.get_seed(None) == (5, 1)
    tf.set_random_seed(0)
    assert tf.get_seed(None) == (0, 2)
    assert tf.get_seed(0) == (0, 2**31 - 1)  # (0, 0) would mean "nondeterministic"
    tf.reset_default_graph()
    assert tf.get_seed(None) == (None, None)
    assert tf.get_seed(2**31 + 3) == (87654321, 4)


def test_without_seeds_each_session_draws_anew():
    x = tf.random_normal([8])
    with tf.Session() as sess:
        a = sess.run(x)
    with tf.Session() as sess:
        b = sess.run(x)
    assert not np.array_equal(a, b)


def test_a_random_op_continues_its_stream_in_one_session_and_restarts_in_another():
    x = tf.random_uniform([5], seed=3)
    with tf.Session() as sess:
        first, second = sess.run(x), sess.run(x)
    with tf.Session() as sess:
        again = sess.run(x)
    assert not np.array_equal(first, second)
    np.testing.assert_array_equal(first, again)


def test_orthogonal_factors_the_normal_matrix_tf_draws_in_the_variable_dtype():
    q, normal = _run([tf.orthogonal_initializer(seed=3)([6, 4]), tf.random_normal([6, 4], seed=3)])
    want, r = np.linalg.qr(normal.astype(np.float64))
    want *= np.sign(np.diag(r))
    np.testing.assert_allclose(q, want, rtol=0, atol=1e-6)


def test_orthogonal_is_orthogonal_for_each_shape():
    for shape in ([4, 4], [3, 6], [6, 3], [2, 3, 4]):
        tf.reset_default_graph()
        q = _run(tf.get_variable("q", shape, initializer=tf.orthogonal_initializer(gain=1.0, seed=1)))
        flat = q.reshape(-1, shape[-1])
        small = flat.T @ flat if flat.shape[0] >= flat.shape[1] else flat @ flat.T
        np.testing.assert_allclose(small, np.eye(len(small)), atol=1e-5)


def test_zeros_for_every_default_initialized_dtype():
    variables = [tf.get_variable(name, [2], dtype=dt) for name, dt in
                 [("i32", tf.int32), ("i64", tf.int64), ("u8", tf.uint8), ("b", tf.bool), ("s", tf.string)]]
    values = _run(variables)
    assert [v.tolist() for v in values] == [[0, 0], [0, 0], [0, 0], [False, False], [b"", b""]]
    assert [v.dtype for v in values[:4]] == [np.int32, np.int64, np.uint8, np.bool_]


def test_constant_initializer_pads_a_short_list_with_its_last_value():
    values = _run(tf.get_variable("c", [2, 3], initializer=tf.constant_initializer([1, 2])))
    np.testing.assert_array_equal(values, [[1, 2, 2], [2, 2, 2]])


def test_constant_initializer_rejects_too_many_values_and_values_of_another_type():
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, but got 3."):
        tf.get_variable("a", [2], initializer=tf.constant_initializer([1, 2, 3]))
    with pytest.raises(TypeError, match="Expected int32"):
        tf.get_variable("b", [2], dtype=tf.int32, initializer=tf.constant_initializer(3.5))
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(2,\), got \(1,\)."):
        tf.get_variable("c", [2], initializer=tf.constant_initializer([1.0], verify_shape=True))


def test_random_uniform_names_its_output_after_the_last_op_tf_would_add():
    assert tf.random_uniform([2], seed=1).name == "random_uniform/RandomUniform:0"
    assert tf.random_uniform([2], 0, 3.0, seed=1).name == "random_uniform_1/Mul:0"
    assert tf.random_uniform([2], 0.0, 1.0, seed=1).name == "random_uniform_2:0"
    assert tf.random_uniform([2], 0, 10, dtype=tf.int32, seed=1).name == "random_uniform_3:0"
    assert tf.random_normal([2], seed=1).name == "random_normal:0"


def test_random_ops_reject_dtypes_as_tf_does():
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values: float16, bfloat16"):
        tf.random_normal([2], 0, 1, dtype=tf.int32)
    with pytest.raises(TypeError, match="Expected int32"):
        tf.truncated_normal([2], dtype=tf.int32)  # mean 0.0 does not convert to int32
    with pytest.raises(ValueError, match=r"Argument `dtype` got invalid value <dtype: 'bool'>"):
        tf.random_uniform([2], dtype=tf.bool)
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype tf.int32"):
        tf.random_uniform([2], dtype=tf.int32)


def test_random_uniform_int_checks_its_bounds_when_it_runs():
    x = tf.random_uniform([2], 5, 1, dtype=tf.int32)
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Need minval < maxval, got 5 >= 1"):
        sess.run(x)
