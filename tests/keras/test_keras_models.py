"""Keras models beyond the golden cases, against hand expectations: the progress bar, callbacks, a functional
model called again on new inputs, several inputs and outputs, ``validation_split``."""

import contextlib
import io

import numpy as np
import pytest

import numflow as tf

keras = tf.keras


def _model(units=2):
    inputs = keras.Input(shape=(3,))
    return keras.Model(inputs, keras.layers.Dense(units, kernel_initializer="ones")(inputs))


def test_verbose_1_draws_a_progress_bar():
    model = _model()
    model.compile("sgd", "mse")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        model.fit(np.ones((10, 3)), np.zeros((10, 2)), batch_size=4, verbose=1)
    text = printed.getvalue()
    assert text.startswith("Train on 10 samples\n")  # no "Epoch 1/1" line for one epoch, as in TensorFlow
    assert "\r10/10 [==============================] - " in text and "/sample - loss: " in text


def test_class_and_sample_weights_weigh_each_examples_loss():
    model = _model(1)
    model.compile("sgd", "mse")
    x, y = np.ones((4, 3)), np.array([[3.0], [3.0], [5.0], [1.0]])  # the ones kernel gives 3: errors 0, 0, 4, 4
    assert model.evaluate(x, y, sample_weight=np.array([1.0, 1.0, 2.0, 0.0]), verbose=0) == pytest.approx(8 / 4)
    assert model.test_on_batch(x, y) == pytest.approx(8 / 4)
    with pytest.raises(ValueError, match=r"`class_weight` must contain all classes in the data. The classes "
                                         r"\{np.int64\(5\)\} exist"):
        model.fit(x, y, class_weight={1: 1.0, 3: 1.0}, verbose=0)
    with pytest.raises(NotImplementedError, match="numpy arrays"):
        model.fit(x, y, steps_per_epoch=2)


def test_callbacks_see_each_epoch_and_can_stop_training():
    model = _model()
    model.compile("sgd", "mse")
    seen = []

    def on_epoch_end(epoch, logs):
        seen.append((epoch, sorted(logs)))
        model.stop_training = epoch == 1

    history = model.fit(np.ones((4, 3)), np.zeros((4, 2)), epochs=5, verbose=0,
                        callbacks=[keras.callbacks.LambdaCallback(on_epoch_end=on_epoch_end)])
    assert seen == [(0, ["loss"]), (1, ["loss"])] and history.epoch == [0, 1]


def test_a_functional_model_called_on_new_inputs_shares_its_weights():
    model = _model()
    other = keras.Input(shape=(3,))
    again = model(other)
    assert again.name == "model/dense/BiasAdd:0"
    x = np.arange(6.0).reshape(2, 3)
    session = keras.backend.get_session()
    np.testing.assert_allclose(session.run(again, {other: x}), x.sum(axis=1, keepdims=True) * np.ones((1, 2)))


def test_two_inputs_and_two_outputs():
    a, b = keras.Input(shape=(2,), name="a"), keras.Input(shape=(1,), name="b")
    joined = keras.layers.Concatenate()([a, b])
    first = keras.layers.Dense(1, name="first", kernel_initializer="zeros")(joined)
    second = keras.layers.Dense(2, name="second", kernel_initializer="zeros")(joined)
    model = keras.Model([a, b], [first, second])
    model.compile("sgd", ["mse", "mae"], loss_weights=[1.0, 0.5])
    assert model.metrics_names == ["loss", "first_loss", "second_loss"]
    x, y = [np.ones((3, 2)), np.ones((3, 1))], [np.full((3, 1), 2.0), np.full((3, 2), 4.0)]
    loss, first_loss, second_loss = model.evaluate(x, y, verbose=0)
    assert (first_loss, second_loss) == (pytest.approx(4.0), pytest.approx(4.0))  # zero outputs
    assert loss == pytest.approx(4.0 + 0.5 * 4.0)
    predicted = model.predict(x)
    assert [p.shape for p in predicted] == [(3, 1), (3, 2)]


def test_validation_split_takes_the_last_samples():
    model = _model(1)
    model.compile("sgd", "mse")
    x = np.ones((10, 3))
    y = np.concatenate([np.full((8, 1), 3.0), np.full((2, 1), 5.0)])
    history = model.fit(x, y, epochs=1, batch_size=10, validation_split=0.2, verbose=0)
    assert history.params["samples"] == 8
    assert history.history["loss"][0] == pytest.approx(0.0)  # the ones kernel gives 3
    assert history.history["val_loss"][0] > 0.0


def test_early_stopping_and_checkpoints_of_the_best_epochs(tmp_path):
    """As TensorFlow 2.21 runs this fit (checked by hand): val_loss 0.6430 then 1.1707, so training stops after
    the second epoch, one checkpoint (of the first) is written, and the first epoch's weights come back."""
    tf.set_random_seed(1)
    np.random.seed(2)
    x, y = np.random.rand(30, 3).astype(np.float32), np.random.rand(30, 1).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    model.compile(keras.optimizers.SGD(0.9), "mse")
    stop = keras.callbacks.EarlyStopping(patience=1, restore_best_weights=True, verbose=1)
    save = keras.callbacks.ModelCheckpoint(str(tmp_path / "w-{epoch:02d}-{val_loss:.3f}"), save_best_only=True,
                                           save_weights_only=True)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        history = model.fit(x[:20], y[:20], epochs=30, batch_size=20, validation_data=(x[20:], y[20:]), verbose=0,
                            callbacks=[stop, save])
    assert history.epoch == [0, 1] and (stop.stopped_epoch, stop.best_epoch) == (1, 0)
    assert [f"{v:.4f}" for v in history.history["val_loss"]] == ["0.6430", "1.1707"]
    assert sorted(p.name for p in tmp_path.glob("*.index")) == ["w-01-0.643.index"]
    assert printed.getvalue() == ("Epoch 2: early stopping\nRestoring model weights from the end of the best epoch: "
                                  "1.\n")
    np.testing.assert_allclose(model.get_weights()[1], [0.5029196], rtol=1e-6)


def test_a_model_called_again_passes_a_namedtuple_argument_on_with_the_new_tensors():
    import collections

    keras = tf.keras
    pair = collections.namedtuple("Pair", "a b")

    class AddPair(keras.layers.Layer):
        def call(self, inputs, pair=None):
            return inputs + pair.a + pair.b

    with tf.Graph().as_default(), tf.Session() as sess:
        x, a, b = keras.Input((2,)), keras.Input((2,)), keras.Input((2,))
        model = keras.Model([x, a, b], AddPair()(x, pair=pair(a, b)))
        assert len(model.layers) == 4  # as tf-keras counts them: the three inputs and the layer
        fed = [tf.placeholder(tf.float32, [None, 2]) for _ in range(3)]
        again = model(fed)
        value = sess.run(again, dict(zip(fed, [[[1.0, 2.0]], [[10.0, 20.0]], [[100.0, 200.0]]])))
    assert value.tolist() == [[111.0, 222.0]]
