"""Custom getters are called as TensorFlow calls them, and scopes are per thread as in TensorFlow.

``data/tf_getter_golden.json`` holds TensorFlow's records of the scenarios in ``data/scenarios.py``
(each getter's arguments, their order and values, the variables made; what a second thread sees of
the first's scopes). Regenerate it with ``/opt/tfenv/bin/python tests/variables/data/make_tf_golden.py``.
"""

import json
import pathlib
import sys

import pytest

import numflow as tf

DATA = pathlib.Path(__file__).with_name("data")
sys.path.insert(0, str(DATA))
from scenarios import SCENARIOS  # noqa: E402

GOLDEN = json.loads((DATA / "tf_getter_golden.json").read_text())
HOW = "regenerate with: /opt/tfenv/bin/python tests/variables/data/make_tf_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_numflow_records_what_tensorflow_records(name):
    got = json.loads(json.dumps(SCENARIOS[name](tf)))
    assert got.keys() == GOLDEN[name].keys(), HOW
    for key in GOLDEN[name]:
        assert got[key] == GOLDEN[name][key], f"{name}/{key} differs from TensorFlow's; {HOW}"
