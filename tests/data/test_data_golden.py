"""tf.data pipelines against TensorFlow 2.21's compat.v1: the elements each reads (shuffles with seeds
included, in TensorFlow's order), the end of sequence, the op names and the elements' static shapes
and dtypes, for the pipelines of ``pipeline_cases.py`` and ``transformation_cases.py``.

``data/tf_data_golden.json`` and ``data/tf_data_transformations_golden.json`` hold TensorFlow's
results; regenerate them with
``python tests/data/data/make_tf_data_golden.py`` in an environment with TensorFlow installed.
"""

import json
import pathlib

import numpy as np
import pytest
import transformation_cases
from pipeline_cases import CASES, TRAINING

import numflow as tf

HERE = pathlib.Path(__file__).parent / "data"
GOLDEN = json.loads((HERE / "tf_data_golden.json").read_text())
TRANSFORMATIONS = json.loads((HERE / "tf_data_transformations_golden.json").read_text())
HOW = "regenerate with: python tests/data/data/make_tf_data_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("cases, golden, case", [
    *[(CASES, GOLDEN, case) for case in sorted(CASES)],
    *[(transformation_cases.CASES, TRANSFORMATIONS, case) for case in sorted(transformation_cases.CASES)]])
def test_pipeline_reads_what_tensorflow_reads(cases, golden, case):
    got = cases[case](tf)
    want = golden[case]
    assert sorted(got) == sorted(want), HOW
    for key in sorted(want):
        assert got[key] == want[key], f"{case}/{key}; {HOW}"


@pytest.mark.parametrize("case", sorted(TRAINING))
def test_training_from_a_pipeline_gives_tensorflows_losses_and_weights(case):
    got = TRAINING[case](tf)
    want = GOLDEN[case]
    assert len(got["losses"]) == len(want["losses"]) == 19, HOW
    for key in ("losses", "w", "b"):
        np.testing.assert_allclose(got[key], want[key], rtol=1e-5, atol=1e-6, err_msg=f"{case}/{key}; {HOW}")
