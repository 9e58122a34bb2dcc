"""tf.keras.backend's settings, learning-phase scope, updates, sparse helpers and bad arguments as TensorFlow 2.21's
compat.v1 with tf-keras behaves (facts checked against it by hand; the tensor functions' values are checked
against TensorFlow's goldens in ``test_keras_layers_golden.py``)."""

import numpy as np
import pytest

import numflow as tf

K = tf.keras.backend


def test_learning_phase_scope_sets_the_phase_and_restores_it():
    placeholder = K.learning_phase()
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
        assert K.in_train_phase(lambda: "train", "test") == "train"
    assert K.learning_phase() is placeholder
    K.set_learning_phase(0)
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
    assert K.learning_phase() == 0
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1."), K.learning_phase_scope(2):
        pass


def test_in_train_phase_of_a_fed_phase():
    x = tf.constant([1.0, 2.0])
    chosen = K.in_train_phase(x * 10.0, x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(chosen), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(chosen, {K.learning_phase(): 1}), [10.0, 20.0])
        np.testing.assert_array_equal(sess.run(K.in_test_phase(x * 10.0, x), {K.learning_phase(): 1}), [1.0, 2.0])


def test_settings_and_uids():
    K.set_image_data_format("channels_first")
    try:
        assert K.image_data_format() == "channels_first"
        assert K.spatial_2d_padding(tf.zeros([1, 2, 3, 3])).shape.as_list() == [1, 2, 5, 5]
    finally:
        K.set_image_data_format("channels_last")
    with pytest.raises(ValueError, match=r"Unknown `data_format`: x. Expected one of \{'channels_last', "):
        K.set_image_data_format("x")
    assert (K.get_uid("foo"), K.get_uid("foo")) == (1, 2)
    assert tf.keras.layers.Dense(2).name == "dense"
    K.reset_uids()
    assert (K.get_uid("foo"), tf.keras.layers.Dense(2).name) == (1, "dense")
    assert K.backend() == "tensorflow" and K.cast_to_floatx([1, 2]).dtype == np.float32


def test_manual_variable_initialization_leaves_the_variables_alone():
    v = K.variable([1.0, 2.0])
    K.manual_variable_initialization(True)
    try:
        with pytest.raises(tf.errors.FailedPreconditionError):
            K.get_session().run(v)
    finally:
        K.manual_variable_initialization(False)
    np.testing.assert_array_equal(K.get_value(v), [1.0, 2.0])


def test_updates_count_params_and_sparse_helpers():
    v = K.variable([1.0, 2.0])
    assert K.count_params(v) == 2
    sess = K.get_session()
    sess.run(K.update_add(v, [1.0, 1.0]))
    sess.run(K.update_sub(v, [0.5, 0.0]))
    np.testing.assert_array_equal(K.get_value(v), [1.5, 3.0])
    sess.run(K.update(v, [7.0, 8.0]))
    np.testing.assert_array_equal(K.get_value(v), [7.0, 8.0])
    st = tf.SparseTensor([[0, 1]], [2.0], [2, 2])
    assert K.is_sparse(st) and not K.is_sparse(v)
    np.testing.assert_array_equal(sess.run(K.to_dense(st)), [[0.0, 2.0], [0.0, 0.0]])


def test_moving_average_update_is_zero_debiased():
    v = K.variable([0.0, 0.0])
    update = K.moving_average_update(v, tf.constant([1.0, 2.0]), 0.9)
    K.get_session().run(update)
    np.testing.assert_allclose(K.get_value(v), [1.0, 2.0], rtol=1e-6)  # one debiased step reaches the value


def test_print_tensor_prints_when_run(capfd):
    printed = K.print_tensor(tf.constant([1.0, 2.0]), message="x =")
    np.testing.assert_array_equal(K.eval(printed), [1.0, 2.0])
    assert "x = [1 2]" in capfd.readouterr().out


@pytest.mark.parametrize(("call", "message"), [
    (lambda: K.batch_dot(tf.ones([2, 3]), tf.ones([2])),
     r"Cannot do batch_dot on inputs with rank < 2. Received inputs with shapes \(2, 3\) and \(2,\)."),
    (lambda: K.batch_dot(tf.ones([2, 3]), tf.ones([2, 4]), axes=1),
     r"with axes=\[1, 1\]. x.shape\[1\] != y.shape\[1\] \(3 != 4\)."),
    (lambda: K.batch_dot(tf.ones([2, 3]), tf.ones([2, 3]), axes=0), "Cannot perform batch_dot over axis 0."),
    (lambda: K.bias_add(tf.ones([2, 3, 4]), tf.ones([2, 2, 2, 2])),
     "Unexpected bias dimensions 4, expect to be 1 or 2 dimensions"),
    (lambda: K.switch(tf.ones([2, 3, 4]) > 0, tf.ones([2, 3]), tf.ones([2, 3])),
     r"ndim\(condition\)=3, ndim\(then_expression\)=2"),
    (lambda: K.pool2d(tf.ones([1, 4, 4, 1]), (2, 2), pool_mode="min"), "Invalid pooling mode: min"),
    (lambda: K.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), padding="full"), "Invalid padding: full"),
    (lambda: K.resize_images(tf.ones([1, 4, 4, 1]), 2, 2, "channels_last", interpolation="foo"),
     '`interpolation` argument should be one of: "area", .* Received: "foo".'),
])
def test_bad_arguments_raise_as_tensorflow(call, message):
    with pytest.raises(ValueError, match=message):
        call()
