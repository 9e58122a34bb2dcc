"""tf.keras.utils' custom objects, serialization helpers, get_source_inputs and Progbar, checked against
tf-keras 2.21's behaviour (by hand)."""

import numpy as np
import pytest

import numflow as tf

utils = tf.keras.utils


def test_custom_objects_are_found_in_scope_and_globally():
    def my_activation(x):
        return x * 2.0

    with utils.custom_object_scope({"my_activation": my_activation}):
        assert tf.keras.activations.get("my_activation") is my_activation
        assert utils.get_registered_object("my_activation") is my_activation
    with pytest.raises(ValueError, match="Unknown activation function: 'my_activation'"):
        tf.keras.activations.get("my_activation")
    utils.get_custom_objects()["my_activation"] = my_activation
    try:
        assert tf.keras.activations.get("my_activation") is my_activation
    finally:
        del utils.get_custom_objects()["my_activation"]


def test_registered_classes_serialize_by_their_registered_name():
    @utils.register_keras_serializable(package="Tests")
    class Cap(tf.keras.constraints.Constraint):
        def __init__(self, top=1.0):
            self.top = top

        def __call__(self, w):
            return tf.minimum(w, self.top)

        def get_config(self):
            return {"top": self.top}

    try:
        config = tf.keras.constraints.serialize(Cap(0.5))
        assert config == {"class_name": "Tests>Cap", "config": {"top": 0.5}}
        assert utils.get_registered_name(Cap) == "Tests>Cap"
        again = tf.keras.constraints.deserialize(config)
        assert isinstance(again, Cap) and again.top == 0.5
        with pytest.raises(ValueError, match="Tests>Cap has already been registered"):
            utils.register_keras_serializable(package="Tests")(Cap)
    finally:
        del utils.get_custom_objects()["Tests>Cap"]


def test_get_source_inputs_walks_back_to_the_inputs():
    a, b = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(2,))
    hidden = tf.keras.layers.Dense(2)(a)
    joined = tf.concat([hidden, tf.keras.layers.Dense(2)(b)], axis=1)
    out = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(4)(hidden))
    assert [t.name for t in utils.get_source_inputs(out)] == [a.name]
    assert utils.get_source_inputs(joined) is joined  # no Keras layer made it
    assert [t.name for t in utils.get_source_inputs(a)] == [a.name]


def test_progbar_averages_values_over_the_steps(capsys):
    bar = utils.Progbar(4, verbose=2)
    bar.update(2, [("loss", 1.0)])
    bar.add(2, [("loss", 3.0)])
    line = capsys.readouterr().out
    assert line.startswith("4/4 - ") and "loss: 2.0000" in line


def test_sequence_needs_its_methods():
    with pytest.raises(NotImplementedError):
        len(utils.Sequence())
    assert np.array_equal(utils.to_categorical([1], 2), [[0.0, 1.0]])


def test_to_ordinal_and_pad_sequences_as_tensorflow():
    # the expected values and messages are tf-keras 2.21's for the same calls
    assert utils.to_ordinal([[0], [2], [1]], 4).tolist() == [[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    assert utils.pad_sequences([[1, 2, 3], [4], []], maxlen=2, padding="post", truncating="post",
                               value=-1).tolist() == [[1, 2], [4, -1], [-1, -1]]
    assert utils.pad_sequences([[[1, 2], [3, 4]], [[5, 6]]], dtype="float32").tolist() == [
        [[1.0, 2.0], [3.0, 4.0]], [[0.0, 0.0], [5.0, 6.0]]]
    for call, message in (
            (lambda: utils.pad_sequences([[1], [2]], padding="mid"), 'Padding type "mid" not understood'),
            (lambda: utils.pad_sequences([[[1, 2]], [[1]]]),
             "Shape of sample (1,) of sequence at position 1 is different from expected shape (2,)"),
            (lambda: utils.pad_sequences([1, 2]), "`sequences` must be a list of iterables. Found non-iterable: 1"),
            (lambda: utils.pad_sequences([[1]], value="x"), "`dtype` int32 is not compatible with `value`'s type: "
             "<class 'str'>\nYou should set `dtype=object` for variable length strings.")):
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == message


def test_the_legacy_optimizers_are_the_optimizers():
    assert tf.keras.optimizers.legacy.Adam is tf.keras.optimizers.Adam
