"""tf.custom_gradient, Graph.gradient_override_map, tf.init_scope and tf.py_function: TensorFlow 2.21's
values and names for the same graphs (written down from a run of it), and errors."""

import numpy as np
import pytest

import numflow as tf


def test_custom_gradients_as_tensorflow():
    with tf.Graph().as_default():
        @tf.custom_gradient
        def clipped(x):
            return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)

        @tf.custom_gradient
        def log1pexp(x):
            e = tf.exp(x)
            return tf.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))

        w = tf.Variable(2.0)

        @tf.custom_gradient
        def scaled(x):
            def grad(dy, variables=None):
                assert variables == [w]
                return dy * w, [tf.reduce_sum(dy * x) * 10]
            return x * w, grad

        x = tf.constant([1.0, 2.0])
        y = clipped(x)
        g = tf.gradients(y * 5.0, x)[0]
        s = scaled(x)
        assert (y.name, g.name, s.name) == ("IdentityN:0", "gradients/IdentityN_grad/clip_by_value:0",
                                             "IdentityN_1:0")
        z = tf.constant(100.0)
        fetches = [y, g, tf.gradients(log1pexp(z), z)[0], tf.gradients(tf.reduce_sum(s), [x, w])]
        with tf.Session() as sess:
            sess.run(w.initializer)
            got = sess.run(fetches)
    np.testing.assert_array_equal(got[0], [1.0, 2.0])
    np.testing.assert_array_equal(got[1], [1.0, 1.0])
    assert got[2] == 1.0  # the naive gradient exp(100) / (1 + exp(100)) would be NaN in float32
    np.testing.assert_array_equal(got[3][0], [2.0, 2.0])
    assert got[3][1] == 30.0


def test_custom_gradient_errors():
    with tf.Graph().as_default():
        w = tf.Variable(2.0)

        @tf.custom_gradient
        def uses_variable(x):
            return x * w, lambda dy: dy

        with pytest.raises(TypeError, match="grad_fn must accept keyword argument 'variables'"):
            uses_variable(tf.constant(1.0))
        with pytest.raises(ValueError, match="supports keywords arguments only when eager execution"):
            uses_variable(x=tf.constant(1.0))


def test_gradient_override_map():
    with tf.Graph().as_default() as g:
        @tf.RegisterGradient("TripledSquareGradient")
        def _tripled(op, grad):
            return [3.0 * grad]

        x = tf.constant(4.0)
        with g.gradient_override_map({"Square": "TripledSquareGradient"}):
            y = tf.square(x)
        plain = tf.square(x)
        with g.gradient_override_map({"Square": "NothingRegisteredUnderThisName"}):
            orphan = tf.square(x)
        with tf.Session() as sess:
            assert sess.run(tf.gradients([y, plain], x)) == [11.0]
        with pytest.raises(LookupError, match="No gradient defined for operation"):
            tf.gradients(orphan, x)
        with pytest.raises(KeyError, match="Registering two gradient with name 'TripledSquareGradient'"):
            tf.RegisterGradient("TripledSquareGradient")(_tripled)


def test_init_scope_leaves_control_dependencies_and_control_flow():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        lifted = []

        def branch():
            with tf.init_scope():
                lifted.append(tf.constant(2.0, name="lifted"))
            return x + 1

        with tf.control_dependencies([x]), tf.name_scope("outer"):
            tf.cond(tf.constant(True), branch, lambda: x)
        assert lifted[0].name == "outer/cond/lifted:0"
        assert lifted[0].op.control_inputs == [] and lifted[0].op._control_flow_context is None


def test_py_function():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        doubled, three = tf.py_function(lambda a, b: (a.numpy() * 2, float(b)), [x, 3], [tf.float32, tf.float32])
        total = tf.py_function(lambda a: a.numpy().sum(), [tf.constant([1, 2, 3])], tf.int64, name="total")
        failing = tf.py_function(lambda a: 1 / 0, [x], tf.float32)
        assert (doubled.name, total.name, doubled.shape.ndims) == ("EagerPyFunc:0", "total:0", None)
        with tf.Session() as sess:
            got = sess.run([doubled, three, total])
            with pytest.raises(tf.errors.UnknownError, match="ZeroDivisionError"):
                sess.run(failing)
    np.testing.assert_array_equal(got[0], [2.0, 4.0])
    assert (got[1], got[2]) == (3.0, 6) and got[2].dtype == np.int64
