"""Keras metrics and losses against TensorFlow 2.21's compat.v1 with tf-keras: for each case of
``keras_metric_cases.py``, a metric's values after a call, a weighted update and a reset, its name and its
variables' names; each loss under each reduction; the per-example functions; and models compiled with metric
objects (their names, variables and history).

``data/tf_keras_metrics_golden.json`` holds TensorFlow's; regenerate it with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import keras_metric_cases as cases
import numpy as np
import pytest

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_keras_metrics_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py "
       "(TensorFlow installed)")


@pytest.mark.parametrize("case", sorted(cases.METRICS))
def test_metric_as_tensorflow(case):
    got, want = cases.run_metric(tf, case), GOLDEN["metrics"][case]
    assert sorted(got) == sorted(want), HOW
    assert (got["name"], got["variables"]) == (want["name"], want["variables"]), HOW
    for key in ("first", "second", "reset"):
        if key in want:
            np.testing.assert_allclose(got[key], want[key], rtol=2e-6, atol=1e-7, err_msg=f"{case} {key}; {HOW}")


@pytest.mark.parametrize("case", sorted(cases.LOSSES))
def test_loss_as_tensorflow(case):
    got, want = cases.run_loss(tf, case), GOLDEN["losses"][case]
    assert sorted(got) == sorted(want), HOW
    for key, value in want.items():
        np.testing.assert_allclose(got[key], value, rtol=2e-6, atol=1e-7, err_msg=f"{case} {key}; {HOW}")


@pytest.mark.parametrize("case", sorted(cases.FUNCTIONS))
def test_function_as_tensorflow(case):
    np.testing.assert_allclose(cases.run_function(tf, case), GOLDEN["functions"][case], rtol=2e-6, atol=1e-7,
                               err_msg=HOW)


def test_metrics_per_output_as_tensorflow():
    got, want = cases.metrics_per_output(tf), GOLDEN["models"]["metrics_per_output"]
    assert got["deferred_names"] == want["deferred_names"], HOW
    for case in ("dict", "lists"):
        assert got[case]["metrics_names"] == want[case]["metrics_names"], HOW
        for name, values in want[case]["history"].items():
            np.testing.assert_allclose(got[case]["history"][name], values, rtol=1e-5, err_msg=f"{case} {name}")


@pytest.mark.parametrize(("metrics", "message"), [
    ({"c": ["mae"]}, r"Unknown entries in metrics dictionary: \['c'\]. Only expected following keys: \['a', 'b'\]"),
    ([["mae"]], "When passing a list of lists as `metrics`, it should have one entry per model output. The model "
                r"has 2 outputs, but you passed metrics=\[\['mae'\]\]"),
])
def test_metrics_per_output_errors(metrics, message):
    inputs = tf.keras.Input(shape=(3,))
    model = tf.keras.Model(inputs, [tf.keras.layers.Dense(1, name="a")(inputs),
                                    tf.keras.layers.Dense(1, name="b")(inputs)])
    with pytest.raises(ValueError, match=message):
        model.compile("sgd", "mse", metrics=metrics)


@pytest.mark.parametrize("case", sorted(set(cases.MODELS) - {"metrics_per_output"}))
def test_model_metrics_as_tensorflow(case):
    got, want = cases.MODELS[case](tf), GOLDEN["models"][case]
    assert (got["metrics_names"], got["metric_variables"]) == (want["metrics_names"], want["metric_variables"]), HOW
    assert sorted(got["history"]) == sorted(want["history"]), HOW
    for name, values in want["history"].items():
        np.testing.assert_allclose(got["history"][name], values, rtol=1e-5, err_msg=f"{case} {name}; {HOW}")
    if "evaluate" in want:
        np.testing.assert_allclose(got["evaluate"], want["evaluate"], rtol=1e-5, err_msg=HOW)
