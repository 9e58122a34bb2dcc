"""Keras constraints, activations and serialized configs against TensorFlow 2.21's compat.v1 with tf-keras: each
constraint's value of a weight, a fit whose kernels the optimizer constrains after each update, the
activations' values, and the configs ``serialize`` writes (``keras_misc_cases.py``); the constraint tf-keras
cannot run in graph mode (an even-sized ``RadialConstraint``) against numpy.

``data/tf_keras_misc_golden.json`` holds TensorFlow's; regenerate it with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import keras_misc_cases as cases
import numpy as np
import pytest

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_misc_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py "
       "(TensorFlow installed)")


def test_constraints_as_tensorflow():
    got, want = cases.run_constraints(tf), GOLDEN["constraints"]
    assert sorted(got) == sorted(want), HOW
    for case, value in want.items():
        np.testing.assert_allclose(got[case], value, rtol=1e-6, atol=1e-7, err_msg=f"{case}; {HOW}")


def test_an_even_radial_constraint_rings_the_diagonal():
    kernel = np.arange(16, dtype=np.float32).reshape(4, 4, 1, 1)
    with tf.Session() as session:
        got = session.run(tf.keras.constraints.RadialConstraint()(tf.constant(kernel)))[:, :, 0, 0]
    inner, outer = kernel[1, 1, 0, 0], kernel[3, 3, 0, 0]  # the 2x2 core from [1, 1], the ring from [3, 3]
    want = np.full((4, 4), outer)
    want[1:3, 1:3] = inner
    np.testing.assert_array_equal(got, want)


def test_radial_constraint_needs_rank_4():
    with pytest.raises(ValueError, match=r"The weight tensor must have rank 4. Received weight tensor with shape"):
        tf.keras.constraints.RadialConstraint()(tf.zeros([3, 3]))


def test_constraints_apply_after_each_update_as_tensorflow():
    got, want = cases.constrained_fit(tf), GOLDEN["constrained_fit"]
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=1e-5, err_msg=HOW)
    for value, expected in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6, err_msg=HOW)


def test_activations_as_tensorflow():
    got, want = cases.run_activations(tf), GOLDEN["activations"]
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, rtol=1e-6, atol=1e-7, err_msg=f"{name}; {HOW}")


def test_configs_as_tensorflow():
    assert cases.configs(tf) == GOLDEN["configs"], HOW


def test_configs_come_back():
    keras = tf.keras
    for module, made in ((keras.regularizers, keras.regularizers.L1L2(0.3, 0.2)),
                         (keras.constraints, keras.constraints.MinMaxNorm(0.2, 0.9)),
                         (keras.losses, keras.losses.Huber(delta=0.5))):
        again = module.deserialize(module.serialize(made))
        assert type(again) is type(made) and again.get_config() == made.get_config()
    assert keras.activations.deserialize("swish") is keras.activations.swish
    with pytest.raises(ValueError, match="Unknown constraint: 'nope'"):
        keras.constraints.get("nope")


def test_learning_rate_callbacks_and_loggers_as_tensorflow(tmp_path):
    got = cases.callbacks_fit(tf, tmp_path / "log.csv")
    want = GOLDEN["callbacks_fit"]
    assert got["csv_header"] == want["csv_header"] and sorted(got["history"]) == sorted(want["history"]), HOW
    for name, values in want["history"].items():
        np.testing.assert_allclose(got["history"][name], values, rtol=1e-5, err_msg=f"{name}; {HOW}")
    np.testing.assert_allclose(got["csv_rows"], want["csv_rows"], rtol=1e-5, err_msg=HOW)


def test_fit_evaluate_and_predict_on_a_sequence_as_tensorflow():
    got, want = cases.sequence_fit(tf), GOLDEN["sequence_fit"]
    assert sorted(got["history"]) == sorted(want["history"]), HOW
    for name, values in want["history"].items():
        np.testing.assert_allclose(got["history"][name], values, rtol=1e-5, err_msg=f"{name}; {HOW}")
    np.testing.assert_allclose(got["evaluate"], want["evaluate"], rtol=1e-5, err_msg=HOW)
    np.testing.assert_allclose(got["predict"], want["predict"], rtol=1e-5, err_msg=HOW)


def test_a_sequence_is_shuffled_by_pythons_random_and_told_each_epoch_end():
    import random

    seen, ends = [], []

    class Batches(tf.keras.utils.Sequence):
        def __len__(self):
            return 4

        def __getitem__(self, index):
            seen.append(index)
            return np.full((2, 1), index, np.float32), np.zeros((2, 1), np.float32)

        def on_epoch_end(self):
            ends.append(len(seen))

    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])
    model.compile("sgd", "mse")
    random.seed(3)
    model.fit(Batches(), epochs=2, verbose=0)
    random.seed(3)
    want = [list(range(4)) for _ in range(2)]
    for order in want:
        random.shuffle(order)
    assert seen[1:] == want[0] + want[1] and ends == [5, 9]  # seen[0]: the first batch, read to build the model


def test_clone_model_as_tensorflow():
    got, want = cases.clone_models(tf), GOLDEN["clone_models"]
    assert got == want, HOW


def test_clone_model_refuses_a_subclassed_model_and_saved_model_files(tmp_path):
    class Net(tf.keras.Model):
        def call(self, inputs):
            return inputs

    with pytest.raises(ValueError, match="Expected `model` argument to be a functional `Model` instance, but got a "
                                         "subclassed model instead"):
        tf.keras.models.clone_model(Net())
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
    with pytest.raises(NotImplementedError, match=r"numflow cannot save a model to '.*m' in the SavedModel format"):
        tf.keras.models.save_model(model, tmp_path / "m")
    with pytest.raises(NotImplementedError, match="not a SavedModel"):
        tf.keras.models.load_model(tmp_path / "m")


def test_clone_model_on_given_input_tensors():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    given = tf.keras.Input(shape=(3,), name="given")
    clone = tf.keras.models.clone_model(model, input_tensors=[given])
    assert [t.name for t in clone.inputs] == ["given:0"] and clone.outputs[0].shape.as_list() == [None, 2]
