"""tf.train.AdagradDAOptimizer: one step by hand, its slots, its graph and its errors. Its dense and sparse
updates over three steps are checked against TensorFlow's bits with the other optimizers', in
``test_sparse_gradients.py`` (``data/make_tf_sparse_golden.py``)."""

import numpy as np
import pytest

import numflow as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


def test_one_dense_step_by_hand():
    step = tf.train.get_or_create_global_step()
    w = tf.Variable([1.0, -2.0, 0.5], name="w", dtype=tf.float64)
    grad = np.array([0.3, -0.01, 2.0])
    opt = tf.train.AdagradDAOptimizer(0.5, step, initial_gradient_squared_accumulator_value=0.2,
                                      l1_regularization_strength=0.1, l2_regularization_strength=0.3)
    train = opt.apply_gradients([(tf.constant(grad), w)], global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign(step, 3))
        sess.run(train)
        got, ga, gga, after = sess.run([w, opt.get_slot(w, "gradient_accumulator"),
                                        opt.get_slot(w, "gradient_squared_accumulator"), step])
    t = 4.0  # the step read before this update, plus one
    l1, l2 = float(np.float32(0.1)), float(np.float32(0.3))  # cast from float32 constants, as TensorFlow casts them
    want = -np.sign(grad) * 0.5 * np.maximum(np.abs(grad) - l1 * t, 0) / (l2 * t * 0.5 + np.sqrt(0.2 + grad ** 2))
    np.testing.assert_allclose(got, want, rtol=1e-15)
    np.testing.assert_allclose(ga, grad)
    np.testing.assert_allclose(gga, 0.2 + grad ** 2)
    assert after == 4 and got[1] == 0.0  # |ga| under l1 * T: the weight is exactly zero


def test_slots_and_graph():
    step = tf.train.get_or_create_global_step()
    w = tf.Variable([1.0, 2.0], name="w")
    opt = tf.train.AdagradDAOptimizer(0.1, step)
    train = opt.minimize(tf.reduce_sum(w * w), global_step=step)
    assert opt.get_slot_names() == ["gradient_accumulator", "gradient_squared_accumulator"]
    assert [v.op.name for v in opt.variables()] == ["w/AdagradDA", "w/AdagradDA_1"]
    update = tf.get_default_graph().get_operation_by_name("AdagradDA/update_w/ApplyAdagradDA")
    assert [t.op.name for t in update.inputs[:3]] == ["w", "w/AdagradDA", "w/AdagradDA_1"]
    assert update.inputs[7].op.name == "AdagradDA/update_w/Identity" and update.inputs[7].dtype == tf.int64
    assert [t.op.name for t in update.inputs[4:7]] == ["AdagradDA/learning_rate", "AdagradDA/update_w/Cast/x",
                                                      "AdagradDA/update_w/Cast_1/x"]
    assert train.type == "AssignAdd" and train.name == "AdagradDA"


def test_errors():
    step = tf.train.get_or_create_global_step()
    with pytest.raises(ValueError, match="initial_gradient_squared_accumulator_value must be positive: 0.0"):
        tf.train.AdagradDAOptimizer(0.1, step, initial_gradient_squared_accumulator_value=0.0)
    w = tf.Variable([1.0, 2.0], name="w")
    int_step = tf.Variable(0, name="int_step")
    with pytest.raises(TypeError, match="'global_step' of 'ApplyAdagradDA' Op has type int32"):
        tf.train.AdagradDAOptimizer(0.1, int_step).minimize(tf.reduce_sum(w * w))
