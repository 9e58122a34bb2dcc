"""cond, case, switch_case and while_loop against TensorFlow 2.21's compat.v1: the values, gradients and
names of the graphs of ``control_flow_cases.py``.

``data/tf_control_flow_golden.npz`` and ``.json`` hold TensorFlow's results; regenerate them with
``python tests/ops/data/make_tf_control_flow_golden.py`` in an environment with TensorFlow installed.
"""

import json
import pathlib

import numpy as np
import pytest
from control_flow_cases import CASES, batch_norm_cnn, run_case

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
GOLDEN = np.load(DATA / "tf_control_flow_golden.npz")
NAMES = json.loads((DATA / "tf_control_flow_golden.json").read_text())
HOW = "regenerate with: python tests/ops/data/make_tf_control_flow_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_and_names_as_tensorflow(case):
    a = {k: GOLDEN[k] for k in ("x", "m")}
    values, names = run_case(tf, case, a)
    # Gradients (the fetches named d<x>) are built as TensorFlow 2 builds them, not with TF 1's Switch and
    # Merge ops: their names differ, their values do not.
    assert {k: v for k, v in names.items() if not k.startswith("d")} == {
        k: v for k, v in NAMES[case].items() if not k.startswith("d")}, HOW
    want = {k[len(case) + 1:]: GOLDEN[k] for k in GOLDEN.files if k.startswith(case + "/")}
    assert want, HOW
    assert sorted(values) == sorted(want), HOW
    for key, value in values.items():
        assert value.dtype == want[key].dtype, key
        np.testing.assert_allclose(value, want[key], rtol=1e-6, atol=1e-6, err_msg=f"{case}/{key}; {HOW}")


def test_a_batch_norm_net_switching_train_and_eval_with_cond_trains_as_tensorflow():
    results = batch_norm_cnn(tf, {})
    for key, value in results.items():
        np.testing.assert_allclose(value, GOLDEN[f"batch_norm_cnn/{key}"], rtol=1e-5, atol=1e-6,
                                   err_msg=f"{key}; {HOW}")
