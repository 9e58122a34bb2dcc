"""Models' ``get_config``/``to_json`` and ``model_from_json``/``model_from_config`` against tf-keras' JSON
(``data/tf_keras_config_golden.json``'s ``models``, written by ``data/make_tf_keras_config_golden.py`` from
``keras_config_cases.models``)."""

import json
import pathlib

import numpy as np
import pytest
from keras_config_cases import models, scale_layer

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_config_golden.json").read_text())["models"]
NAMES = sorted(GOLDEN)


def _unshared(config):
    """``config`` without tf-keras' ``shared_object_id`` marks (of an object serialized twice: an RNN layer's
    initializers, once in its cell); numflow writes each object in full, which tf-keras reads the same."""
    if isinstance(config, dict):
        return {k: _unshared(v) for k, v in config.items() if k != "shared_object_id"}
    if isinstance(config, list):
        return [_unshared(v) for v in config]
    return config


@pytest.mark.parametrize("name", NAMES)
def test_model_json_is_tf_keras(name):
    with tf.Graph().as_default():
        written = json.loads(models(tf.keras)[name].to_json())
    assert written == _unshared(GOLDEN[name])


@pytest.mark.parametrize("name", NAMES)
def test_tf_json_builds_the_same_model(name):
    with tf.Graph().as_default():
        model = tf.keras.models.model_from_json(json.dumps(GOLDEN[name]))
        assert json.loads(model.to_json()) == _unshared(GOLDEN[name])
        loaded = [(w.name, w.shape.as_list()) for w in model.weights]
        outputs = [t.name for t in model.outputs]
    with tf.Graph().as_default():
        made = models(tf.keras)[name]
        assert type(model) is type(made)
        assert loaded == [(w.name, w.shape.as_list()) for w in made.weights]
        assert outputs == [t.name for t in made.outputs]


def test_from_config_of_each_model_class():
    with tf.Graph().as_default():
        again = tf.keras.Sequential.from_config(GOLDEN["mlp"]["config"])
        assert [layer.name for layer in again.layers] == ["dense", "dropout", "dense_1"]
        assert again.inputs[0].name == "dense_input:0" and again.output_shape == (None, 2)
        functional = tf.keras.Model.from_config(GOLDEN["shared"]["config"])
        shared = functional.get_layer("shared")
        assert len(shared._inbound_nodes) == 2 and functional.output_shape == [(None, 1), (None, 2)]
        assert tf.keras.models.model_from_config(GOLDEN["shared"]).name == "two_heads"


def test_errors_are_tf_keras():
    with pytest.raises(TypeError, match=r"`model_from_config` expects a dictionary, not a list"):
        tf.keras.models.model_from_config([GOLDEN["mlp"]])
    config = json.loads(json.dumps(GOLDEN["shared"]))
    config["config"]["layers"][2]["class_name"] = "SharedDense"
    with tf.Graph().as_default(), pytest.raises(ValueError, match=r"^Unknown layer: 'SharedDense'\."):
        tf.keras.models.model_from_json(json.dumps(config))

    class Sub(tf.keras.Model):
        def call(self, inputs):
            return inputs

    with tf.Graph().as_default(), pytest.raises(NotImplementedError, match="Model sub is a subclassed model"):
        Sub(name="sub").get_config()


def test_custom_layer_in_a_model_loads_from_custom_objects():
    Scale = scale_layer(tf.keras)
    with tf.Graph().as_default():
        inputs = tf.keras.Input((2,))
        text = tf.keras.Model(inputs, Scale(3.0, name="scale")(inputs)).to_json()
    with tf.Graph().as_default():
        with tf.keras.utils.custom_object_scope({"Scale": Scale}):
            model = tf.keras.models.model_from_json(text)
        assert model.get_layer("scale").factor == 3.0
        assert json.loads(model.to_json()) == json.loads(text)


def test_a_constant_tensor_passed_to_a_layer_call_is_written_as_its_value():
    keras = tf.keras
    with tf.Graph().as_default():
        queries = keras.Input(shape=(2, 4), name="queries")
        mask = tf.constant(np.array([[[True, False], [True, True]]]))
        attended = keras.layers.MultiHeadAttention(1, 2, name="attention")(queries, queries, attention_mask=mask)
        config = keras.Model(queries, attended).get_config()
    (call,) = [layer["inbound_nodes"] for layer in config["layers"] if layer["name"] == "attention"][0]
    assert call == [["queries", 0, 0, {"value": ["queries", 0, 0],
                                      "attention_mask": [[[True, False], [True, True]]]}]]


def test_a_computed_tensor_no_layer_made_in_a_layer_call_cannot_be_named_in_the_config():
    keras = tf.keras
    with tf.Graph().as_default():
        queries = keras.Input(shape=(2, 4), name="queries")
        mask = tf.placeholder(tf.bool, [None, 2, 2], name="fed_mask")
        model = keras.Model(queries, keras.layers.MultiHeadAttention(1, 2, name="attention")(
            queries, queries, attention_mask=mask))
        with pytest.raises(ValueError, match="Layer 'attention' was called with fed_mask:0 as an argument"):
            model.get_config()
