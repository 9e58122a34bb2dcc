"""Live: a checkpoint numflow writes of a recurrent model restores into TensorFlow's same model (its legacy
Keras cells), which then computes what TensorFlow computed from those values (the golden results).

Run where ``tensorflow`` is importable (``tox -e tf``, or ``python -m pytest -m tensorflow`` with it on
the path). TensorFlow's graphs run in a ``tf.Graph`` context; the rest of the process keeps its mode.
"""

import json
import os
import pathlib

import numpy as np
import pytest
from rnn_cases import run_case

import numflow as nf

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.compat.v1.nn.rnn_cell needs TensorFlow's legacy Keras
pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
DATA = pathlib.Path(__file__).parent / "data"


@pytest.mark.parametrize("case", ["lstm", "multi_layer_time_major", "bidirectional", "static"])
def test_numflows_checkpoint_restores_into_tensorflows_model(case, tmp_path):
    golden = np.load(DATA / "tf_rnn_golden.npz")
    names = json.loads((DATA / "tf_rnn_golden.json").read_text())[case]
    a = {k: golden[k] for k in ("x", "lengths")}
    initial = {name: golden[f"{case}/var/{name}"] for name in names}
    prefix = str(tmp_path / "model")
    run_case(nf, case, a, initial, save_to=prefix)
    _, values, results = run_case(tf.compat.v1, case, a, restore_from=prefix)
    for name in names:
        np.testing.assert_array_equal(values[name], initial[name], err_msg=name)
    for key, value in results.items():
        np.testing.assert_allclose(value, golden[f"{case}/{key}"], rtol=2e-5, atol=2e-6, err_msg=f"{case}/{key}")
