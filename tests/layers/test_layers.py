"""tf.layers behaviour the TensorFlow goldens do not cover: channels_first convolutions (TensorFlow runs
them only on a GPU), dtypes, the learning phase, constraints, the layer's own API and the ``scope``
argument of a user layer's ``call``."""

import numpy as np
import pytest

import numflow as tf


def _run(fetches, feed=None, init=True):
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


@pytest.mark.parametrize("make", [
    lambda x, fmt: tf.layers.conv1d(x, 3, 2, data_format=fmt, padding="same"),
    lambda x, fmt: tf.layers.conv1d(x, 2, 3, data_format=fmt, padding="causal", dilation_rate=2),
    lambda x, fmt: tf.layers.conv2d(x, 3, (2, 3), strides=(1, 2), data_format=fmt),
    lambda x, fmt: tf.layers.conv2d(x, 2, 3, dilation_rate=2, padding="same", data_format=fmt),
    lambda x, fmt: tf.layers.conv3d(x, 2, 2, data_format=fmt),
    lambda x, fmt: tf.layers.separable_conv1d(x, 3, 2, depth_multiplier=2, data_format=fmt),
    lambda x, fmt: tf.layers.separable_conv2d(x, 3, 2, strides=2, data_format=fmt),
    lambda x, fmt: tf.layers.conv3d_transpose(x, 2, 2, strides=2, data_format=fmt),
    lambda x, fmt: tf.layers.max_pooling2d(x, 2, 2, data_format=fmt),
    lambda x, fmt: tf.layers.average_pooling2d(x, 3, 1, padding="same", data_format=fmt),
    lambda x, fmt: tf.layers.batch_normalization(x, axis=1 if fmt == "channels_first" else -1, training=True),
], ids=["conv1d", "conv1d_causal", "conv2d", "conv2d_dilated", "conv3d", "separable1d", "separable2d",
        "conv3d_transpose", "max_pool2d", "avg_pool2d", "batch_norm"])
@pytest.mark.parametrize("rank", [3, 4, 5])
def test_channels_first_is_channels_last_transposed(make, rank):
    rng = np.random.RandomState(1)
    x = rng.uniform(-1, 1, (2, 5, 6, 4, 3)[:rank - 1] + (3,)).astype(np.float32)
    first = np.moveaxis(x, -1, 1)
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        try:
            last_out = make(tf.constant(x), "channels_last")
        except ValueError:
            return  # a layer of another rank
        last_vars = tf.global_variables()
        first_out = make(tf.constant(first), "channels_first")
        first_vars = tf.global_variables()[len(last_vars):]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for a, b in zip(last_vars, first_vars):
                b.load(sess.run(a), sess)
            got_last, got_first = sess.run([last_out, first_out])
    assert first_out.shape.as_list() == list(np.moveaxis(got_last, -1, 1).shape)
    np.testing.assert_allclose(got_first, np.moveaxis(got_last, -1, 1), rtol=1e-5, atol=1e-6)


def test_a_float64_dense_casts_its_inputs_and_keeps_its_dtype():
    with tf.Graph().as_default():
        layer = tf.layers.Dense(2, dtype=tf.float64, kernel_initializer=tf.ones_initializer())
        y = layer(tf.constant([[1.0, 2.0]]))
        assert layer.dtype == "float64" and y.dtype == tf.float64 and layer.kernel.dtype.base_dtype == tf.float64
        np.testing.assert_array_equal(_run(y), [[3.0, 3.0]])


def test_float64_batch_norm_is_not_fused_and_normalizes():
    x = np.random.RandomState(3).normal(2.0, 3.0, (4, 3, 3, 2))
    with tf.Graph().as_default():
        layer = tf.layers.BatchNormalization()
        y = layer(tf.constant(x), training=True)
        assert not layer.fused and y.dtype == tf.float64 and layer.moving_mean.dtype.base_dtype == tf.float64
        mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
        np.testing.assert_allclose(_run(y), (x - mean) / np.sqrt(var + 1e-3), rtol=1e-9)


def test_fused_batch_norm_gradient_matches_float64_numpy():
    # The input gradient cancels terms much larger than itself; numflow's stays within float32 rounding of the
    # exact one (the golden test compares it with TensorFlow's at a looser tolerance for this reason).
    x = np.random.RandomState(4).uniform(-1, 1, (2, 4, 5, 4, 2)).astype(np.float32)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        y = tf.layers.batch_normalization(xt, training=True)
        loss = tf.reduce_sum(y + 8.0 * tf.square(y))
        (dx,) = tf.gradients(loss, [xt])
        got = _run(dx)
    axes = (0, 1, 2, 3)
    xd = x.astype(np.float64)
    std = np.sqrt(xd.var(axes) + 1e-3)
    normed = (xd - xd.mean(axes)) / std
    dy = 1 + 16 * normed
    want = (dy - dy.mean(axes) - normed * (dy * normed).mean(axes)) / std
    np.testing.assert_allclose(got, want, atol=5e-6)


def test_training_none_reads_the_graphs_learning_phase():
    with tf.Graph().as_default() as graph:
        x = tf.ones([4, 3])
        y = tf.layers.Dropout(0.5, seed=1)(x, training=None)
        phase = graph.get_tensor_by_name("keras_learning_phase:0")
        assert phase.op.type == "PlaceholderWithDefault" and y.name == "dropout/cond/Merge:0"
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(y), np.ones((4, 3)))
            assert set(np.unique(sess.run(y, {phase: True}))) <= {0.0, 2.0}
        tf.layers.batch_normalization(tf.ones([2, 3]), training=None)  # the same phase, made once per graph
        assert [op.type for op in graph.get_operations()].count("PlaceholderWithDefault") == 1


def test_a_constraint_is_applied_after_each_optimizer_step():
    with tf.Graph().as_default():
        x = tf.constant(np.ones((2, 3), np.float32))
        layer = tf.layers.Dense(2, kernel_constraint=lambda w: tf.clip_by_value(w, -0.1, 0.1))
        loss = tf.reduce_sum(layer(x))
        step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step)
            kernel = sess.run(layer.kernel)
    assert np.all(np.abs(kernel) <= 0.1 + 1e-7) and np.any(np.abs(kernel) > 0.09)


def test_layer_api():
    with tf.Graph().as_default():
        layer = tf.layers.Conv2D(4, 3, activity_regularizer=lambda y: tf.reduce_sum(tf.abs(y)),
                                 kernel_regularizer=lambda w: tf.reduce_sum(w))
        y = layer.apply(tf.ones([2, 5, 5, 2]))
        assert layer.count_params() == 3 * 3 * 2 * 4 + 4
        assert repr(layer.input_spec) == "InputSpec(min_ndim=4, axes={-1: 2})"
        assert layer.compute_output_shape(tf.TensorShape([None, 5, 5, 2])).as_list() == [None, 3, 3, 4]
        first = layer.losses
        again = layer.losses
        assert len(first) == 2 and first[0] is again[0] and first[1] is not again[1]  # regularizers rebuilt
        collected = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert [t.name for t in collected] == ["conv2d/kernel/Regularizer/Sum:0",
                                               "conv2d/ActivityRegularizer/truediv:0"]
        assert tf.losses.get_regularization_losses() == collected
        total, activity, kernel, out = _run([tf.losses.get_regularization_loss(), collected[1], layer.kernel, y])
        np.testing.assert_allclose(total, kernel.sum() + activity, rtol=1e-6)
        np.testing.assert_allclose(activity, np.abs(out).sum() / 2, rtol=1e-6)
        layer.trainable = False
        assert layer.trainable_weights == [] and layer.non_trainable_weights == layer.weights


def test_a_call_taking_scope_receives_the_layers_variable_scope():
    seen = []

    class Probe(tf.layers.Layer):
        def call(self, inputs, scope=None):
            seen.append(scope.name)
            return tf.identity(inputs)

    with tf.Graph().as_default():
        with tf.variable_scope("outer"):
            out = Probe()(tf.zeros([2]), scope="inner")
        assert seen == ["outer/inner"] and out.name == "outer/inner/Identity:0"


def test_variable_synchronization_and_aggregation_are_tensorflows_names():
    assert tf.VariableSynchronization.ON_READ.value == 3 and tf.VariableAggregation.MEAN.value == 2
    with tf.Graph().as_default():
        class Stat(tf.layers.Layer):
            def build(self, shape):
                self.s = self.add_weight("s", [2], synchronization=tf.VariableSynchronization.ON_READ,
                                         aggregation=tf.VariableAggregation.MEAN)

        layer = Stat()
        layer(tf.zeros([2]))
        assert layer.trainable_weights == [] and tf.trainable_variables() == []
        with pytest.raises(ValueError, match="only for non-trainable variables"):
            layer.add_weight("t", [1], trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
