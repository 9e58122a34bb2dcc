"""The recurrent tf.keras layers against hand computations: dropout masks shared by all steps, masked steps
skipped, stateful layers carrying their states, and the errors of bad uses (TensorFlow's classes and words)."""

import numpy as np
import pytest

import numflow as tf


def _linear_cell_layer(units, **kwargs):
    """A SimpleRNN whose step is ``inputs + state`` once its weights are set to identities."""
    return tf.keras.layers.SimpleRNN(units, activation=None, use_bias=False, **kwargs)


def test_dropout_draws_one_mask_for_all_steps_in_training_only():
    x = np.random.RandomState(0).uniform(1.0, 2.0, (3, 4, 5)).astype(np.float32)
    with tf.Graph().as_default():
        layer = tf.keras.layers.SimpleRNN(5, activation=None, use_bias=False, dropout=0.5, return_sequences=True)
        out = layer(tf.constant(x))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            layer.set_weights([np.eye(5), np.zeros((5, 5))])
            phase = tf.keras.backend.learning_phase()
            train, infer = sess.run(out, {phase: True}), sess.run(out, {phase: False})
    np.testing.assert_allclose(infer, x, rtol=1e-6)
    scale = train / x  # the mask over 1 - rate: 0 or 2, the same at every step
    assert set(np.round(scale, 5).ravel().tolist()) <= {0.0, 2.0}
    np.testing.assert_array_equal(scale, np.broadcast_to(scale[:, :1], scale.shape))


def test_recurrent_dropout_scales_the_state_the_same_at_every_step():
    x = np.ones((2, 3, 4), np.float32)
    with tf.Graph().as_default():
        layer = _linear_cell_layer(4, recurrent_dropout=0.5, return_sequences=True)
        out = layer(tf.constant(x), training=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            layer.set_weights([np.eye(4), np.eye(4)])
            values = sess.run(out)
    mask = values[:, 1] - 1.0  # h1 = 1 + mask * h0, h0 = 1
    assert set(mask.ravel().tolist()) <= {0.0, 2.0}
    np.testing.assert_allclose(values[:, 2], 1.0 + mask * values[:, 1])


def test_masked_steps_are_skipped_as_if_the_sequence_were_shorter():
    ids = np.array([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2]], np.int32)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        embedding = tf.keras.layers.Embedding(10, 3, mask_zero=True)
        lstm = tf.keras.layers.LSTM(4, return_sequences=True)
        padded = lstm(embedding(tf.constant(ids)))
        short = lstm(embedding(tf.constant(ids[:1, :3])))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            padded, short = sess.run([padded, short])
    np.testing.assert_allclose(padded[0, :3], short[0], rtol=1e-6)
    np.testing.assert_array_equal(padded[0, 3], padded[0, 2])  # a masked step repeats the last output
    np.testing.assert_array_equal(padded[0, 4], padded[0, 2])


def test_a_stateful_layer_starts_from_the_last_states_until_reset():
    x = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    with tf.Graph().as_default():
        layer = _linear_cell_layer(2, stateful=True, batch_input_shape=(2, 3, 2))
        out = layer(tf.constant(x))
        with tf.Session() as sess:
            tf.keras.backend.set_session(sess)
            sess.run(tf.global_variables_initializer())
            layer.set_weights([np.eye(2), np.eye(2)])
            first = sess.run([out] + layer.updates)[0]
            second = sess.run([out] + layer.updates)[0]
            layer.reset_states()
            third = sess.run(out)
    total = x.sum(axis=1)  # the linear step sums the inputs
    np.testing.assert_allclose(first, total)
    np.testing.assert_allclose(second, 2 * total)
    np.testing.assert_allclose(third, total)


def test_bad_uses_raise_tensorflows_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="expected a positive integer, got 0"):
            tf.keras.layers.LSTM(0)
        with pytest.raises(ValueError, match="Cannot unroll a RNN if the time dimension is undefined"):
            tf.keras.layers.GRU(2, unroll=True)(tf.placeholder(tf.float32, [None, None, 3]))
        with pytest.raises(ValueError, match="should have a `call` method"):
            tf.keras.layers.RNN(object())
        with pytest.raises(tf.errors.InvalidArgumentError, match="CudnnRNN"):
            tf.keras.layers.CuDNNLSTM(4)
        stateless = tf.keras.layers.SimpleRNN(2)
        with pytest.raises(AttributeError, match="Layer must be stateful"):
            stateless.reset_states()
        with pytest.raises(ValueError, match="needs to know its batch size"):
            tf.keras.layers.SimpleRNN(2, stateful=True)(tf.placeholder(tf.float32, [None, 3, 2]))


def test_backend_rnn_runs_a_step_function_with_a_mask_backwards_and_unrolled():
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    mask = np.array([[1, 1, 0, 1], [1, 0, 0, 0]], bool)

    def step(inputs, states):  # a running sum: output = state = previous + inputs
        total = states[0] + inputs
        return total, [total]

    want_outputs, want_last = np.zeros_like(x), np.zeros((2, 3), np.float32)
    for b in range(2):  # numpy, by hand: a masked step keeps the previous output and state
        total, last = np.zeros(3, np.float32), np.zeros(3, np.float32)
        for t in reversed(range(4)):  # go_backwards: the outputs come out from the last step
            if mask[b, t]:
                total = total + x[b, t]
                last = total
            want_outputs[b, 3 - t] = last
        want_last[b] = last
    with tf.Graph().as_default():
        got = []
        for unroll in (False, True):
            last, outputs, states = tf.keras.backend.rnn(step, tf.constant(x), [tf.zeros([2, 3])], mask=mask,
                                                         go_backwards=True, unroll=unroll)
            got.append((last, outputs, states[0]))
        with tf.Session() as sess:
            for last, outputs, state in sess.run(got):
                np.testing.assert_allclose(outputs, want_outputs)
                np.testing.assert_allclose(last, want_last)
                np.testing.assert_allclose(state, want_last)


def test_a_custom_abstract_cell_in_an_rnn():
    class Doubling(tf.keras.layers.AbstractRNNCell):
        @property
        def state_size(self):
            return 2

        @property
        def output_size(self):
            return 2

        def call(self, inputs, states):
            output = 2.0 * states[0] + inputs
            return output, [output]

    x = np.ones((1, 3, 2), np.float32)
    with tf.Graph().as_default():
        layer = tf.keras.layers.RNN(Doubling(), return_sequences=True, return_state=True)
        outputs, state = layer(tf.constant(x))
        with tf.Session() as sess:
            outputs, state = sess.run([outputs, state])
    np.testing.assert_allclose(outputs[0, :, 0], [1.0, 3.0, 7.0])  # h = 2 h + 1 from h = 0
    np.testing.assert_allclose(state, outputs[:, -1])
    assert layer.compute_output_shape((None, 3, 2))[0].as_list() == [None, 3, 2]


def test_fit_with_dropout_trains_and_predicts_without_it():
    x = np.random.RandomState(1).rand(8, 4, 3).astype(np.float32)
    y = x.sum(axis=(1, 2))[:, None]
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        model = tf.keras.Sequential([tf.keras.layers.LSTM(4, dropout=0.3, recurrent_dropout=0.3, input_shape=(4, 3)),
                                     tf.keras.layers.Dense(1)])
        model.compile("adam", "mse")
        history = model.fit(x, y, epochs=3, batch_size=4, verbose=0)
        first, second = model.predict(x), model.predict(x)
    assert len(history.history["loss"]) == 3 and np.isfinite(history.history["loss"]).all()
    np.testing.assert_array_equal(first, second)  # inference draws no dropout


def test_wrappers_reject_bad_arguments_as_tensorflow():
    lstm = tf.keras.layers.LSTM(2)
    with pytest.raises(ValueError, match="Invalid merge mode. Received: max"):
        tf.keras.layers.Bidirectional(lstm, merge_mode="max")
    with pytest.raises(ValueError, match="should have different `go_backwards` value"):
        tf.keras.layers.Bidirectional(lstm, backward_layer=tf.keras.layers.LSTM(2))
    with pytest.raises(ValueError, match="Please initialize `TimeDistributed` layer"):
        tf.keras.layers.TimeDistributed(lambda t: t)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="should be passed an `input_shape ` with at least 3 dimensions"):
            tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))(tf.zeros([2, 3]))
