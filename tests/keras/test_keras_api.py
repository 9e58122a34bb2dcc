"""tf.keras' helpers as TensorFlow 2.21's compat.v1 with tf-keras behaves (facts checked against it by hand):
the backend's session, learning phase, variables and shapes; layer names shared with tf.layers; weights
read and set in the Keras session; a layer of one's own; utils; and that ``import numflow`` stays light."""

import subprocess
import sys

import numpy as np
import pytest

import numflow as tf

K = tf.keras.backend


def test_layer_names_count_from_zero_and_share_the_count_with_tf_layers():
    first, legacy, second = tf.keras.layers.Dense(2), tf.layers.Dense(2), tf.keras.layers.Dense(2)
    assert (first.name, legacy.name, second.name) == ("dense", "dense_2", "dense_2")


def test_backend_settings_placeholders_and_shapes():
    assert (K.floatx(), K.epsilon(), K.image_data_format()) == ("float32", 1e-7, "channels_last")
    p = K.placeholder(shape=(None, 3))
    assert (p.name, K.int_shape(p), K.ndim(p), K.dtype(p)) == ("Placeholder:0", (None, 3), 2, "float32")
    assert K.int_shape(K.placeholder(ndim=2)) == (None, None)


def test_variables_are_read_and_set_in_the_keras_session():
    v = K.variable([[1, 2], [3, 4]], name="v")
    assert v.name == "v:0"
    np.testing.assert_array_equal(K.get_value(v), [[1.0, 2.0], [3.0, 4.0]])
    K.set_value(v, np.ones((2, 2)))
    np.testing.assert_array_equal(K.eval(v), np.ones((2, 2), np.float32))
    assert K.get_session() is K.get_session()


def test_get_and_set_weights():
    layer = tf.keras.layers.Dense(2)
    y = layer(tf.ones([1, 3]))
    kernel, bias = layer.get_weights()
    assert kernel.shape == (3, 2) and bias.tolist() == [0.0, 0.0]
    layer.set_weights([np.ones((3, 2)), np.array([1.0, 2.0])])
    np.testing.assert_array_equal(K.eval(y), [[4.0, 5.0]])
    with pytest.raises(ValueError, match=r"weight shape \(3, 2\) is not compatible with provided weight shape"):
        layer.set_weights([np.ones((2, 2)), np.zeros(2)])


def test_the_default_session_is_the_keras_session():
    with tf.Session() as sess:
        assert K.get_session() is sess


def test_learning_phase_and_clear_session():
    assert K.learning_phase().name == "keras_learning_phase:0"
    K.set_learning_phase(1)
    assert K.learning_phase() == 1
    tf.keras.layers.Dense(1)
    K.clear_session()
    assert tf.keras.layers.Dense(1).name == "dense"
    assert K.learning_phase().name == "keras_learning_phase:0"
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1"):
        K.set_learning_phase(2)


def test_a_layer_of_ones_own_with_a_regularized_weight():
    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", shape=[int(input_shape[-1])], initializer="ones", regularizer="l2")

        def call(self, inputs):
            return inputs * self.w

    layer = Scale()
    out = layer(tf.ones([2, 3]))
    assert out.name == "scale/mul:0"
    assert [w.name for w in layer.weights] == ["scale/w:0"]
    (loss,) = layer.losses
    assert loss.name == "scale/w/Regularizer/mul:0"
    assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == []
    assert K.eval(loss) == pytest.approx(0.01 * 3)  # l2's default 0.01 times the sum of squares
    np.testing.assert_array_equal(K.eval(out), np.ones((2, 3)))


def test_to_categorical_and_normalize():
    np.testing.assert_array_equal(tf.keras.utils.to_categorical([[1], [2]], 4), np.eye(4, dtype=np.float32)[[1, 2]])
    assert tf.keras.utils.to_categorical([0, 2]).shape == (2, 3)
    np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3.0, 4.0]])), [[0.6, 0.8]])


def test_keras_is_imported_when_first_used():
    code = "import sys, numflow; assert 'numflow.keras' not in sys.modules; numflow.keras.layers; print('ok')"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout == "ok\n"


def test_backend_function_runs_its_outputs_and_updates_in_the_keras_session():
    x = K.placeholder(shape=(None, 2))
    counter = K.zeros((), name="counter")
    step = K.function([x], [K.sum(x, axis=1), K.mean(x)], updates=[counter.assign_add(1.0)])
    total, average = step([np.array([[1.0, 2.0], [3.0, 5.0]])])
    np.testing.assert_array_equal(total, [3.0, 8.0])
    assert average == pytest.approx(2.75)
    step([np.ones((1, 2))])
    assert K.get_value(counter) == 2.0
    assert K.get_value(K.ones((2, 3))).tolist() == [[1.0] * 3] * 2
