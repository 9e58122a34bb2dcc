"""tf.layers against TensorFlow 2.21's compat.v1 (its legacy Keras layers): for each graph of
``layer_cases.py``, the names (variables, collections, fetched tensors, layers, scopes and the graph's ops),
the initial values (the same bits, from the same seeds), the outputs in training and in inference, the
gradients, and the variables after one run of ``UPDATE_OPS``.

``data/tf_layers_golden.npz`` and ``.json`` hold TensorFlow's; regenerate them with
``TF_USE_LEGACY_KERAS=1 python tests/layers/data/make_tf_layers_golden.py`` where TensorFlow is installed.
"""

import json
import pathlib

import numpy as np
import pytest
from layer_cases import CASES, SHAPES, run_case

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = np.load(DATA / "tf_layers_golden.npz")
NAMES = json.loads((DATA / "tf_layers_golden.json").read_text())
HOW = "regenerate with: TF_USE_LEGACY_KERAS=1 python tests/layers/data/make_tf_layers_golden.py (TensorFlow installed)"

# numflow's cond is one If op where TensorFlow's v1 control flow has Switch and Merge ops.
_CONTROL_FLOW_PARTS = ("/If", "/BranchValue")


def _ours_only(ours, theirs):
    """numflow's op names that TensorFlow's graph lacks, its cond ops left out (numflow may build fewer ops:
    an initializer's random draw is one op, a reduction's axes an attribute)."""
    return sorted(n for n in set(ours) - set(theirs) if not any(part in n for part in _CONTROL_FLOW_PARTS))


@pytest.fixture(scope="module")
def results():
    a = {k: GOLDEN[k] for k in SHAPES}
    return {case: run_case(tf, case, a) for case in CASES}


@pytest.mark.parametrize("case", sorted(CASES))
def test_names_as_tensorflow(case, results):
    names, _ = results[case]
    want = NAMES[case]
    for key in ("global", "trainable", "moving_average", "update_ops", "regularization_losses", "fetches",
                "layers"):
        assert names[key] == want[key], f"{case}: {key}; {HOW}"
    assert _ours_only(names["ops"], want["ops"]) == [], HOW


@pytest.mark.parametrize("case", sorted(CASES))
def test_initial_values_are_tensorflows_bits(case, results):
    _, values = results[case]
    for key, value in values.items():
        if key.startswith("init/"):
            np.testing.assert_array_equal(value, GOLDEN[f"{case}/{key}"], err_msg=f"{case}/{key}; {HOW}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_outputs_gradients_and_updates_as_tensorflow(case, results):
    _, values = results[case]
    want = {k[len(case) + 1:]: GOLDEN[k] for k in GOLDEN.files if k.startswith(case + "/")}
    assert sorted(values) == sorted(want), HOW
    for key, value in values.items():
        # Float rounding: sums in another order than TensorFlow's. A gradient through batch normalization
        # cancels terms some hundred times its size, so its rounding is larger (test_normalization.py
        # checks one against float64 numpy: numflow's is the closer).
        atol = 2e-5 if key.startswith("d/") else 2e-6
        scale = max(1.0, float(np.abs(want[key]).max(initial=0.0)))
        np.testing.assert_allclose(value, want[key], rtol=2e-5, atol=atol * scale, err_msg=f"{case}/{key}; {HOW}")
