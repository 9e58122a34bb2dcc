"""The recurrent tf.keras layers against TensorFlow 2.21's compat.v1 with tf-keras: for each graph of
``keras_recurrent_cases.py``, the names (variables, fetched tensors and their static shapes, layers' weights),
the initial values (the same bits, from the same seeds: glorot_uniform kernels, orthogonal recurrent kernels),
the outputs in training and in inference and the gradients of every weight.

``data/tf_keras_recurrent_golden.npz`` and ``.json`` hold TensorFlow's; regenerate them with
``TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import numpy as np
import pytest
from keras_layer_cases import assert_as_golden, run_case
from keras_recurrent_cases import CASES

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
INPUTS = np.load(DATA / "tf_keras_layers_golden.npz")
GOLDEN = np.load(DATA / "tf_keras_recurrent_golden.npz")
NAMES = json.loads((DATA / "tf_keras_recurrent_golden.json").read_text())
HOW = ("regenerate with: TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_golden.py "
       "(TensorFlow installed)")


@pytest.fixture(scope="module")
def results():
    a = {k: INPUTS[k] for k in ("vec", "seq", "img", "ids")}
    return {case: run_case(tf, case, a, CASES) for case in CASES}


@pytest.mark.parametrize("case", sorted(CASES))
def test_names_as_tensorflow(case, results):
    names, _ = results[case]
    for key in ("global", "trainable", "update_ops", "regularization_losses", "fetches", "layers"):
        assert names[key] == NAMES[case][key], f"{case}: {key}; {HOW}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_initial_values_are_tensorflows(case, results):
    """The same bits, but for the orthogonal recurrent kernels: the same normal draws through a QR
    decomposition, whose rounding is LAPACK's here and Eigen's in TensorFlow (a few units in the last place)."""
    _, values = results[case]
    for key, value in values.items():
        if key.startswith("init/") and key.endswith("/recurrent_kernel"):
            np.testing.assert_allclose(value, GOLDEN[f"{case}/{key}"], rtol=0, atol=3e-7, err_msg=f"{case}/{key}")
        elif key.startswith("init/"):
            np.testing.assert_array_equal(value, GOLDEN[f"{case}/{key}"], err_msg=f"{case}/{key}; {HOW}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_outputs_and_gradients_as_tensorflow(case, results):
    assert_as_golden(case, results[case][1], GOLDEN, HOW)
