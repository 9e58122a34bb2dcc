"""Layers' ``get_config``/``from_config`` against tf-keras' configs (``data/tf_keras_config_golden.json``, written
by ``data/make_tf_keras_config_golden.py`` from ``keras_config_cases.py``)."""

import json
import pathlib

import pytest
from keras_config_cases import INPUT_SHAPES, MERGE_SHAPES, built_configs, cases

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_config_golden.json").read_text())["layers"]
NAMES = sorted(set(GOLDEN) - {"lambda"})


def _plain(config):
    return json.loads(json.dumps(config))


@pytest.fixture(scope="module")
def configs():
    return _plain(built_configs(tf))


@pytest.mark.parametrize("name", NAMES)
def test_config_is_tf_keras(configs, name):
    assert configs[name] == GOLDEN[name]


def _call(layer, name):
    if name in MERGE_SHAPES:
        return layer([tf.keras.Input(MERGE_SHAPES[name]), tf.keras.Input(MERGE_SHAPES[name])])
    if name in INPUT_SHAPES:
        return layer(tf.keras.Input(INPUT_SHAPES[name], dtype="int32" if name == "embedding" else "float32"))
    return None


@pytest.mark.parametrize("name", NAMES)
def test_tf_config_loads(name):
    """The layer tf-keras' config describes is the same layer: the same config once called, the same weights."""
    with tf.Graph().as_default():
        class_name = type(cases(tf.keras)[name]).__name__
    with tf.Graph().as_default():
        layer = tf.keras.layers.deserialize({"class_name": class_name, "config": GOLDEN[name]})
        _call(layer, name)
        assert _plain(layer.get_config()) == GOLDEN[name]
        assert type(layer).__name__ == class_name
    with tf.Graph().as_default():
        made = cases(tf.keras)[name]
        _call(made, name)
        assert [w.shape.as_list() for w in layer.weights] == [w.shape.as_list() for w in made.weights]


def test_lambda_function_is_written_as_tf_keras_does_and_never_read(configs):
    assert set(configs["lambda"]) == set(GOLDEN["lambda"])
    assert configs["lambda"]["function_type"] == "lambda" and configs["lambda"]["output_shape_type"] == "raw"
    code, defaults, closure = configs["lambda"]["function"]
    assert isinstance(code, str) and defaults is None and closure is None
    with pytest.raises(ValueError, match="'lambda': its function is stored as Python bytecode, and numflow never "
                                         "executes"):
        tf.keras.layers.deserialize({"class_name": "Lambda", "config": GOLDEN["lambda"]})


def test_lambda_of_a_named_function_loads_from_the_custom_objects():
    def double(x):
        return x * 2.0

    config = {**GOLDEN["lambda"], "function": "double", "function_type": "function"}
    with tf.Graph().as_default():
        layer = tf.keras.layers.deserialize({"class_name": "Lambda", "config": config},
                                            custom_objects={"double": double})
        assert layer.function is double and layer.name == "lambda"
        with pytest.raises(ValueError, match="Unknown function in Lambda layer: 'double'"):
            tf.keras.layers.deserialize({"class_name": "Lambda", "config": config})


def test_unknown_layer_is_tf_keras_error_and_custom_objects_resolve():
    with pytest.raises(ValueError, match=r"^Unknown layer: 'Scale'\. Please ensure you are using a "
                                         r"`keras.utils.custom_object_scope`"):
        tf.keras.layers.deserialize({"class_name": "Scale", "config": {}})

    class Scale(tf.keras.layers.Layer):
        def __init__(self, factor, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    with tf.Graph().as_default():
        wrapped = tf.keras.layers.TimeDistributed(Scale(3.0, name="s"))
        config = _plain(tf.keras.layers.serialize(wrapped))
        assert config["config"]["layer"] == {"class_name": "Scale", "config": {"name": "s", "trainable": True,
                                                                                "dtype": None, "factor": 3.0}}
        again = tf.keras.layers.deserialize(config, custom_objects={"Scale": Scale})
        assert isinstance(again.layer, Scale) and again.layer.factor == 3.0 and again.layer.name == "s"
