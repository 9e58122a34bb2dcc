"""Whole models in tf-keras' HDF5 format: ``data/tf_model.h5`` (written by tf-keras, with
``data/tf_model_h5_golden.json``, by ``data/make_tf_keras_model_h5_golden.py``) loads compiled and trains on
as it would in TensorFlow; numflow writes the same layout; custom objects, Lambda layers and other formats."""

import json
import pathlib

import numpy as np
import pytest
from keras_config_cases import scale_layer

import numflow as tf

h5py = pytest.importorskip("h5py")

DATA = pathlib.Path(__file__).parent / "data"
TF_FILE = DATA / "tf_model.h5"
GOLDEN = json.loads((DATA / "tf_model_h5_golden.json").read_text())
X, Y = np.array(GOLDEN["x"], np.float32), np.array(GOLDEN["y"], np.float32)


def test_tf_file_loads_compiled_and_training_goes_on_with_its_optimizer_state():
    with tf.Graph().as_default():
        model = tf.keras.models.load_model(TF_FILE)
        assert [layer.name for layer in model.layers] == ["d1", "bn", "d2"]
        np.testing.assert_allclose(model.predict(X), GOLDEN["predictions"], rtol=1e-5, atol=1e-6)
        assert [w.name for w in model.optimizer.weights] == GOLDEN["optimizer_weight_names"]
        loss = model.train_on_batch(X, Y)
        np.testing.assert_allclose(loss[0], GOLDEN["loss_of_next_step"][0], rtol=1e-5)
        for value, expected in zip(model.get_weights(), GOLDEN["weights_after_next_step"]):
            np.testing.assert_allclose(value, expected, rtol=1e-4, atol=1e-6)


def _contents(path):
    """The file's root attributes (JSON ones parsed) and every dataset, by path."""
    with h5py.File(path, "r") as f:
        attrs = {k: f.attrs[k].decode() if isinstance(f.attrs[k], bytes) else f.attrs[k] for k in f.attrs}
        for key in ("model_config", "training_config"):
            attrs[key] = json.loads(attrs[key])
        datasets = {}
        f.visititems(lambda name, item: datasets.__setitem__(name, item[()]) if isinstance(item, h5py.Dataset)
                     else None)
        names = list(f["optimizer_weights"].attrs["weight_names"])
    return attrs, datasets, names


def test_numflow_writes_tf_keras_layout(tmp_path):
    with tf.Graph().as_default():
        tf.keras.models.load_model(TF_FILE).save(tmp_path / "again.h5")
    ours, theirs = _contents(tmp_path / "again.h5"), _contents(TF_FILE)
    assert ours[0]["model_config"] == theirs[0]["model_config"]
    training, expected = ours[0]["training_config"], theirs[0]["training_config"]
    assert {k: v for k, v in training.items() if k != "optimizer_config"} == {
        k: v for k, v in expected.items() if k != "optimizer_config"}
    assert training["optimizer_config"]["class_name"] == expected["optimizer_config"]["class_name"] == "Adam"
    for key, value in expected["optimizer_config"]["config"].items():
        assert training["optimizer_config"]["config"][key] == pytest.approx(value), key
    assert (ours[0]["keras_version"], ours[0]["backend"]) == (theirs[0]["keras_version"], "tensorflow")
    assert [n.decode() if isinstance(n, bytes) else n for n in ours[2]] == GOLDEN["optimizer_weight_names"]
    assert sorted(ours[1]) == sorted(theirs[1])
    for name, value in theirs[1].items():
        np.testing.assert_array_equal(ours[1][name], value, err_msg=name)


Scale = scale_layer(tf.keras)


def test_functional_model_round_trip_with_custom_objects(tmp_path):
    path = tmp_path / "model.h5"
    with tf.Graph().as_default():
        inputs = tf.keras.Input((4,), name="x")
        hidden = tf.keras.layers.Dense(3, name="hidden")(inputs)
        model = tf.keras.Model(inputs, [Scale(2.0, name="scale")(hidden), tf.keras.layers.Dense(1, name="y")(hidden)])
        model.compile("sgd", loss=["mse", tf.keras.losses.Huber()], metrics=["mae"], loss_weights=[1.0, 0.5])
        model.fit(X[:, :4], [Y, Y[:, :1]], epochs=1, verbose=0)
        expected = model.predict(X)
        tf.keras.models.save_model(model, path)
    with tf.Graph().as_default(), pytest.raises(ValueError, match=r"^Unknown layer: 'Scale'"):
        tf.keras.models.load_model(path)
    with tf.Graph().as_default():
        again = tf.keras.models.load_model(path, custom_objects={"Scale": Scale})
        assert again.get_layer("scale").factor == 2.0 and again.optimizer.__class__.__name__ == "SGD"
        assert isinstance(again.loss[1], tf.keras.losses.Huber) and again._loss_weights == [1.0, 0.5]
        for value, want in zip(again.predict(X), expected):
            np.testing.assert_allclose(value, want, rtol=1e-6)
        assert tf.keras.models.load_model(path, {"Scale": Scale}, compile=False).optimizer is None


def test_lambda_bytecode_in_a_file_is_refused(tmp_path):
    path = tmp_path / "lambda.h5"
    with tf.Graph().as_default():
        model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: x + 1.0, input_shape=(2,))])
        model.save(path)
    with tf.Graph().as_default(), pytest.raises(ValueError, match="numflow never executes code read from a file"):
        tf.keras.models.load_model(path)


def test_a_tf_train_optimizer_is_left_out_with_tf_keras_warning(tmp_path):
    with tf.Graph().as_default():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile(tf.train.GradientDescentOptimizer(0.1), "mse")
        with pytest.warns(UserWarning, match="we cannot save the optimizer as part of the model save file"):
            model.save(tmp_path / "m.h5")
    with tf.Graph().as_default():
        assert tf.keras.models.load_model(tmp_path / "m.h5").optimizer is None


def test_other_formats_are_refused_naming_h5(tmp_path):
    with tf.Graph().as_default():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        with pytest.raises(NotImplementedError, match="give a path ending in .h5"):
            model.save(tmp_path / "saved_model")
        with pytest.raises(NotImplementedError, match=r"reads tf-keras' HDF5 format \(a .h5 file"):
            tf.keras.models.load_model(tmp_path)
        model.save(tmp_path / "model.bin", save_format="h5")
        assert tf.keras.models.load_model(tmp_path / "model.bin").layers[0].name == "dense"


@pytest.mark.tensorflow
def test_tensorflow_loads_numflows_file(tmp_path):
    tensorflow = pytest.importorskip("tensorflow")
    with tf.Graph().as_default():
        tf.keras.models.load_model(TF_FILE).save(tmp_path / "numflow.h5")
    with tensorflow.Graph().as_default():
        model = tensorflow.keras.models.load_model(str(tmp_path / "numflow.h5"))
        np.testing.assert_allclose(model.predict(X), GOLDEN["predictions"], rtol=1e-5, atol=1e-6)
        model.train_on_batch(X, Y)
        for value, expected in zip(model.get_weights(), GOLDEN["weights_after_next_step"]):
            np.testing.assert_allclose(value, expected, rtol=1e-4, atol=1e-6)
