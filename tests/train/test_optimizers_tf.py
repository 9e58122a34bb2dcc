"""Optimizers replayed against TensorFlow 1.x: names, slots, update ops and three steps of values.

The scenarios and TensorFlow's results are in tests/golden/train/tf_optimizers.json; the graph of
each scenario is built by the same function (``build`` in tests/golden/train/regenerate.py) with
numflow in place of ``tensorflow.compat.v1``.
"""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

HERE = pathlib.Path(__file__).resolve().parents[1] / "golden" / "train"
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/train/regenerate.py` to rewrite the golden file"
GOLDEN = json.loads((HERE / "tf_optimizers.json").read_text())
golden = load_script(HERE / "regenerate.py")
SCENARIOS = {name: rest for name, *rest in golden.SCENARIOS}


def _replay(name):
    cls_name, kwargs, mode = SCENARIOS[name]
    graph = tf.Graph()
    with graph.as_default():
        opt, variables, train, feeds = golden.build(tf, cls_name, kwargs, mode)
        names = golden.record(tf, opt, variables, train, graph)
        values = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for feed in feeds:
                sess.run(train, feed)
                values.append({v.op.name: sess.run(v) for v in tf.global_variables()})
    return names, values


def test_golden_file_covers_every_scenario():
    assert sorted(GOLDEN["scenarios"]) == sorted(SCENARIOS), REGENERATE


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_names_match_tensorflow(name):
    names, _ = _replay(name)
    want = {k: v for k, v in GOLDEN["scenarios"][name].items() if k != "values"}
    assert names == want, REGENERATE


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_values_match_tensorflow(name):
    _, values = _replay(name)
    want = GOLDEN["scenarios"][name]["values"]
    minimize = SCENARIOS[name][2] == "minimize"
    for step, (got, expected) in enumerate(zip(values, want)):
        assert sorted(got) == sorted(expected), REGENERATE
        for var, value in expected.items():
            np.testing.assert_allclose(
                got[var], value, rtol=2e-5 if minimize else 2e-6, atol=1e-6 if minimize else 1e-7,
                err_msg=f"{name}: {var} after step {step + 1} ({REGENERATE} if TensorFlow's formulas changed)")
