"""dynamic_rnn, bidirectional_dynamic_rnn, raw_rnn, static_rnn and the rnn_cell cells and wrappers against
TensorFlow 2.21's compat.v1 (its legacy Keras cells): the variable names, and, from TensorFlow's own
initial values, the outputs, final states and gradients of the graphs of ``rnn_cases.py``.

``data/tf_rnn_golden.npz`` and ``.json`` hold TensorFlow's results; regenerate them with
``TF_USE_LEGACY_KERAS=1 python tests/ops/data/make_tf_rnn_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import numpy as np
import pytest
from rnn_cases import CASES, run_case

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = np.load(DATA / "tf_rnn_golden.npz")
NAMES = json.loads((DATA / "tf_rnn_golden.json").read_text())
HOW = "regenerate with: TF_USE_LEGACY_KERAS=1 python tests/ops/data/make_tf_rnn_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("case", sorted(CASES))
def test_names_values_and_gradients_as_tensorflow(case):
    a = {k: GOLDEN[k] for k in ("x", "lengths")}
    initial = {name: GOLDEN[f"{case}/var/{name}"] for name in NAMES[case]}
    names, _, results = run_case(tf, case, a, initial)
    assert names == NAMES[case], HOW
    want = {k[len(case) + 1:]: GOLDEN[k] for k in GOLDEN.files
            if k.startswith(case + "/") and not k.startswith(case + "/var/")}
    assert sorted(results) == sorted(want), HOW
    for key, value in results.items():
        np.testing.assert_allclose(value, want[key], rtol=2e-5, atol=2e-6, err_msg=f"{case}/{key}; {HOW}")


@pytest.mark.parametrize("case", ["multi_layer_time_major", "bidirectional"])
def test_a_tensorflow_checkpoint_restores_into_the_same_model(case):
    a = {k: GOLDEN[k] for k in ("x", "lengths")}
    _, values, results = run_case(tf, case, a, restore_from=str(DATA / "rnn_checkpoints" / case / "model"))
    for name in NAMES[case]:
        np.testing.assert_array_equal(values[name], GOLDEN[f"{case}/var/{name}"], err_msg=name)
    for key, value in results.items():
        np.testing.assert_allclose(value, GOLDEN[f"{case}/{key}"], rtol=2e-5, atol=2e-6, err_msg=f"{case}/{key}")
