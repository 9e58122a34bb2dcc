"""Keras callbacks checked by hand: TensorBoard's event file (read back), TerminateOnNaN, the learning rate as an
optimizer attribute, ProgbarLogger's lines and the callbacks' argument errors (messages as tf-keras 2.21's)."""

import numpy as np
import pytest

import numflow as tf

keras = tf.keras


def _model(lr=0.1):
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.compile(keras.optimizers.SGD(lr), "mse")
    return model


def _data():
    x = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
    return x, x.sum(1, keepdims=True)


def test_tensorboard_writes_the_epoch_logs_as_scalars(tmp_path):
    from numflow.summary.writer import summary_iterator

    x, y = _data()
    history = _model().fit(x, y, epochs=2, batch_size=2, verbose=0, validation_data=(x, y),
                           callbacks=[keras.callbacks.TensorBoard(log_dir=str(tmp_path))])
    (event_file,) = tmp_path.iterdir()
    scalars = [(e.step, v.tag, v.simple_value) for e in summary_iterator(str(event_file)) for v in e.summary.value]
    want = [(epoch, f"epoch_{name}", history.history[name][epoch]) for epoch in range(2)
            for name in ("loss", "val_loss")]
    assert [(step, tag) for step, tag, _ in scalars] == [(step, tag) for step, tag, _ in want]
    np.testing.assert_allclose([v for *_, v in scalars], [v for *_, v in want], rtol=1e-6)
    graph_written = any(e.HasField("graph_def") for e in summary_iterator(str(event_file)))
    assert graph_written


def test_terminate_on_nan_stops_at_the_first_bad_batch(capsys):
    x, y = _data()
    y[0] = np.inf
    history = _model().fit(x, y, epochs=3, batch_size=2, verbose=0, shuffle=False,
                           callbacks=[keras.callbacks.TerminateOnNaN()])
    assert history.epoch == [0]
    assert "Batch 0: Invalid loss, terminating training" in capsys.readouterr().out


def test_the_learning_rate_is_an_attribute_set_in_the_session():
    model = _model(0.1)
    assert model.optimizer.lr == 0.1
    model.optimizer.lr = 0.3
    x, y = _data()
    model.fit(x, y, epochs=1, verbose=0)
    assert np.isclose(keras.backend.get_value(model.optimizer.lr), 0.3)
    model.optimizer.learning_rate = 0.05
    assert np.isclose(keras.backend.get_value(model.optimizer.lr), 0.05)
    assert model.optimizer.get_config()["learning_rate"] == 0.05


def test_progbar_logger_prints_a_line_per_epoch(capsys):
    x, y = _data()
    _model().fit(x, y, epochs=2, batch_size=2, verbose=0, callbacks=[keras.callbacks.ProgbarLogger()])
    printed = capsys.readouterr().out
    assert "Epoch 1/2" not in printed  # verbose=0: the logger prints nothing, as Keras'


@pytest.mark.parametrize(("make", "error", "message"), [
    (lambda: keras.callbacks.ReduceLROnPlateau(factor=1.0), ValueError,
     "ReduceLROnPlateau does not support a factor >= 1.0. Got 1.0"),
    (lambda: keras.callbacks.ProgbarLogger(count_mode="x"), ValueError,
     'Unknown `count_mode`: x. Expected values are ["samples", "steps"]'),
    (lambda: keras.callbacks.TensorBoard(histogram_freq=1), NotImplementedError,
     "numflow's TensorBoard callback writes the logs' scalars only: ['histogram_freq'] are not supported."),
])
def test_bad_arguments_raise(make, error, message):
    with pytest.raises(error) as raised:
        make()
    assert str(raised.value) == message


def test_a_schedule_must_give_a_float():
    x, y = _data()
    with pytest.raises(ValueError, match='The output of the "schedule" function should be float. Got: 1'):
        _model().fit(x, y, verbose=0, callbacks=[keras.callbacks.LearningRateScheduler(lambda epoch: 1)])
