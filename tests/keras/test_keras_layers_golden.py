"""tf.keras.layers and tf.keras.backend against TensorFlow 2.21's compat.v1 with tf-keras: for each graph of
``keras_layer_cases.py`` (and of the other cases modules of ``GOLDENS``),
the names (variables, collections, fetched tensors and their static shapes, layers and their weights and
losses), the initial values (the same bits, from the same seeds), the outputs in training and in inference,
the gradients, and the variables after one run of the layers' updates; and the error of each bad use of
``keras_error_cases.py``.

``data/tf_keras_*_golden.npz`` and ``.json`` hold TensorFlow's; regenerate them with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib
import re

import keras_backend_cases
import keras_error_cases
import keras_layer_cases
import keras_more_layer_cases
import numpy as np
import pytest
from keras_layer_cases import assert_as_golden, run_case

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDENS = {"tf_keras_layers_golden": keras_layer_cases.CASES, "tf_keras_backend_golden": keras_backend_cases.CASES,
           "tf_keras_more_layers_golden": keras_more_layer_cases.CASES}
GOLDEN = {stem: np.load(DATA / f"{stem}.npz") for stem in GOLDENS}
NAMES = {stem: json.loads((DATA / f"{stem}.json").read_text()) for stem in GOLDENS}
HOW = "regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_golden.py (TensorFlow installed)"
CASES = sorted((stem, case) for stem, cases in GOLDENS.items() for case in cases)


@pytest.fixture(scope="module")
def results():
    made = {}
    for stem, cases in GOLDENS.items():
        a = {k: GOLDEN[stem][k] for k in ("vec", "seq", "img", "ids")}
        made.update({(stem, case): run_case(tf, case, a, cases) for case in cases})
    return made


def _numflow_name(name):
    """TensorFlow's tensor name as numflow gives it: numflow's ``softmax_cross_entropy_with_logits`` of rank-2
    logits is the loss op itself, where TensorFlow reshapes the loss to the logits' outer shape."""
    return re.sub(r"^(softmax_cross_entropy_with_logits[_0-9]*)/Reshape_2:0$", r"\1:0", name)


@pytest.mark.parametrize(("stem", "case"), CASES)
def test_names_as_tensorflow(stem, case, results):
    names, _ = results[stem, case]
    want = NAMES[stem][case]
    want["fetches"] = {k: [_numflow_name(name), shape] for k, (name, shape) in want["fetches"].items()}
    for key in ("global", "trainable", "update_ops", "regularization_losses", "fetches", "layers"):
        assert names[key] == want[key], f"{case}: {key}; {HOW}"


@pytest.mark.parametrize(("stem", "case"), CASES)
def test_initial_values_are_tensorflows_bits(stem, case, results):
    _, values = results[stem, case]
    for key, value in values.items():
        if key.startswith("init/"):
            np.testing.assert_array_equal(value, GOLDEN[stem][f"{case}/{key}"], err_msg=f"{case}/{key}; {HOW}")


@pytest.mark.parametrize(("stem", "case"), CASES)
def test_outputs_gradients_and_updates_as_tensorflow(stem, case, results):
    assert_as_golden(case, results[stem, case][1], GOLDEN[stem], HOW)


def _expected_start(message):
    """TensorFlow's message as numflow starts it: TF 2's shapes (``(None, 6)`` for ``(Dimension(None),
    Dimension(6))``), up to the op's node text that numflow does not print (as ``tests/layers`` compares)."""
    return re.sub(r"Dimension\((\w+)\)", r"\1", message).split(" for '{{node")[0]


@pytest.mark.parametrize("case", sorted(keras_error_cases.CASES))
def test_errors_as_tensorflow(case):
    kind, message = keras_error_cases.raised(tf, case)
    want_kind, want_message = NAMES["tf_keras_layers_golden"]["errors"][case]
    assert kind == want_kind, message
    assert message.startswith(_expected_start(want_message)), (message, want_message)
