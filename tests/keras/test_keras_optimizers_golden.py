"""Keras' Adadelta, Adamax, Ftrl and Nadam against TensorFlow 2.21's compat.v1 with tf-keras: for each case of
``keras_optimizer_cases.py``, the losses of a short fit, the names of the graph's and the optimizer's
variables, and their values afterwards.

``data/tf_keras_optimizers_golden.json`` holds TensorFlow's; regenerate it with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import numpy as np
import pytest
from keras_optimizer_cases import EMBEDDINGS, OPTIMIZERS, run_case

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_optimizers_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py "
       "(TensorFlow installed)")


@pytest.mark.parametrize("case", sorted([*OPTIMIZERS, *EMBEDDINGS]))
def test_optimizer_as_tensorflow(case):
    got, want = run_case(tf, case), GOLDEN[case]
    assert (got["variables"], got["optimizer_variables"]) == (want["variables"], want["optimizer_variables"]), HOW
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=1e-5, err_msg=HOW)
    for name, value, expected in zip(want["optimizer_variables"], got["optimizer_values"], want["optimizer_values"]):
        np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6, err_msg=f"{case} {name}; {HOW}")
    for value, expected in zip(got["weights"], want["weights"]):
        np.testing.assert_allclose(value, expected, rtol=1e-5, atol=1e-6, err_msg=f"{case}; {HOW}")


@pytest.mark.parametrize(("make", "message"), [
    (lambda o: o.Ftrl(learning_rate_power=0.5),
     "`learning_rate_power` needs to be negative or zero. Received: learning_rate_power=0.5."),
    (lambda o: o.Ftrl(initial_accumulator_value=-1.0),
     "`initial_accumulator_value` needs to be positive or zero. Received: initial_accumulator_value=-1.0."),
    (lambda o: o.Ftrl(l2_shrinkage_regularization_strength=-0.1), "`l2_shrinkage_regularization_strength` needs "
     "to be positive or zero. Received: l2_shrinkage_regularization_strength=-0.1."),
])
def test_bad_arguments_raise_tensorflows_errors(make, message):
    with pytest.raises(ValueError) as raised:
        make(tf.keras.optimizers)
    assert str(raised.value) == message


def test_optimizers_serialize_and_come_back():
    config = tf.keras.optimizers.serialize(tf.keras.optimizers.Adamax(learning_rate=0.3, beta_1=0.7))
    assert (config["class_name"], config["config"]["learning_rate"], config["config"]["beta_1"]) == ("Adamax", 0.3,
                                                                                                     0.7)
    again = tf.keras.optimizers.deserialize({"class_name": "adamax", "config": config["config"]})
    assert isinstance(again, tf.keras.optimizers.Adamax) and again.get_config() == config["config"]


def test_schedules_serialize_with_their_optimizer_and_refuse_bad_arguments():
    o = tf.keras.optimizers
    config = o.serialize(o.SGD(o.schedules.PolynomialDecay(0.1, 5, cycle=True)))
    assert config["config"]["learning_rate"] == {"class_name": "PolynomialDecay", "config": {
        "initial_learning_rate": 0.1, "decay_steps": 5, "end_learning_rate": 0.0001, "power": 1.0, "cycle": True,
        "name": None}}
    again = o.deserialize(config)
    assert isinstance(again.get_config()["learning_rate"], dict) and callable(again._hyper["learning_rate"])
    with pytest.raises(ValueError, match="The length of boundaries should be 1 less than the length of values. "
                                         r"Received: boundaries=\[1\] of length 1, and values=\[1.0\] of length 1."):
        o.schedules.PiecewiseConstantDecay([1], [1.0])
    with pytest.raises(ValueError, match="The Nadam optimizer does not support"):
        o.Nadam(o.schedules.ExponentialDecay(0.1, 2, 0.5))
