"""tf.nn activations beyond relu: values and gradients against TensorFlow's, finite differences, and
TensorFlow's op types, names and attrs.

``data/tf_nn_more_golden.npz`` holds TensorFlow 2.21's outputs; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_nn_more_golden.py``.
"""


import numpy as np
import pytest
from nn_golden import GOLDEN
from test_gradients import check_gradient

import numflow as tf

ACTIVATIONS = {
    "leaky_relu": lambda x: tf.nn.leaky_relu(x),
    "leaky_relu_03": lambda x: tf.nn.leaky_relu(x, alpha=0.3),
    "elu": tf.nn.elu,
    "selu": tf.nn.selu,
    "softplus": tf.nn.softplus,
    "softsign": tf.nn.softsign,
    "relu6": tf.nn.relu6,
    "swish": tf.nn.swish,
    "log_sigmoid": tf.math.log_sigmoid,
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_values_and_gradients_match_tensorflow(name, dtype):
    x, dy = GOLDEN[f"act_x_{dtype}"], GOLDEN[f"act_dy_{dtype}"]
    xt = tf.constant(x)
    y = ACTIVATIONS[name](xt)
    (g,) = tf.gradients(y, xt, grad_ys=tf.constant(dy))
    with tf.Session() as sess:
        got_y, got_g = sess.run([y, g])
    assert got_y.dtype == x.dtype and got_g.dtype == x.dtype
    tol = 2e-7 if dtype == "float32" else 1e-14
    np.testing.assert_allclose(got_y, GOLDEN[f"out_act_{name}_{dtype}"], rtol=tol, atol=tol)
    np.testing.assert_allclose(got_g, GOLDEN[f"out_act_{name}_{dtype}_grad"], rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_gradients_match_finite_differences(name):
    # Away from the kinks at 0 and 6, where one-sided slopes differ.
    values = [np.array([[-2.7, -1.3, -0.4, 0.35], [0.8, 1.9, 3.3, 4.2]])]
    check_gradient(ACTIVATIONS[name], [(2, 4)], values=values)


def test_crelu_values_shape_and_gradient():
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.nn.crelu(x)
    assert y.shape.as_list() == [None, 6] and y.op.name == "CRelu/Relu" and y.op.inputs[0].op.name == "CRelu"
    assert tf.nn.crelu(x, axis=0).shape.as_list() == [None, 3]
    with tf.Session() as sess:
        got = sess.run(y, {x: [[1.0, -2.0, 0.0]]})
    np.testing.assert_array_equal(got, [[1, 0, 0, 0, 2, 0]])
    check_gradient(tf.nn.crelu, [(2, 3)], values=[np.array([[1.5, -0.5, 0.25], [-1.0, 2.0, -3.0]])])


def test_ops_names_and_attrs_are_tensorflows():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    leaky = tf.nn.leaky_relu(x)
    assert leaky.op.type == "LeakyRelu" and leaky.op.name == "LeakyRelu"
    assert leaky.op.get_attr("alpha") == np.float32(0.2)
    (g,) = tf.gradients(leaky, x)
    assert g.op.type == "LeakyReluGrad" and g.op.name == "gradients/LeakyRelu_grad/LeakyReluGrad"
    assert g.op.get_attr("alpha") == np.float32(0.2) and g.op.inputs[1] is x
    cases = [(tf.nn.elu, "Elu", "EluGrad", "out"), (tf.nn.selu, "Selu", "SeluGrad", "out"),
             (tf.nn.softsign, "Softsign", "SoftsignGrad", "in"), (tf.nn.relu6, "Relu6", "Relu6Grad", "out")]
    for fn, op_type, grad_type, second in cases:
        y = fn(x, name=f"my_{op_type}")
        (g,) = tf.gradients(y, x)
        assert y.op.type == op_type and y.op.name == f"my_{op_type}" and y.shape.as_list() == [None, 4]
        assert g.op.type == grad_type and g.op.inputs[1] is (y if second == "out" else x)
    sp = tf.nn.softplus(x)
    (g,) = tf.gradients(sp, x)
    assert g.op.type == "Mul" and g.op.inputs[1].op.type == "Sigmoid"
    ls = tf.math.log_sigmoid(x)
    assert ls.op.name == "LogSigmoid" and ls.op.type == "Neg" and ls.op.inputs[0].op.name == "LogSigmoid/Softplus"
    assert tf.log_sigmoid is tf.math.log_sigmoid and tf.nn.silu is tf.nn.swish
    assert tf.math.softplus is tf.nn.softplus and tf.math.softsign is tf.nn.softsign


def test_leaky_relu_of_integers_is_cast_to_float32():
    y = tf.nn.leaky_relu(tf.constant([1, -2]))
    assert y.dtype == tf.float32 and y.op.inputs[0].op.name == "LeakyRelu/Cast"
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y), [1.0, -0.4], rtol=1e-7)


def test_float_only_activations_reject_integers_as_tensorflow():
    with pytest.raises(TypeError, match="Value passed to parameter 'features' has DataType int32 not in list"):
        tf.nn.elu(tf.constant([1, 2]))


def test_softplus_is_exact_at_the_extremes():
    with tf.Session() as sess:
        got = sess.run(tf.nn.softplus(tf.constant([-200.0, -50.0, 50.0, 200.0])))
    np.testing.assert_array_equal(got, np.float32([0.0, np.exp(np.float32(-50.0)), 50.0, 200.0]))
