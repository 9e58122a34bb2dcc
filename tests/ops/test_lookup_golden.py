"""tf.lookup against TensorFlow 2.21's compat.v1: static, vocabulary, mutable and dense tables, from
tensors and text files; the values they give, the op types, names and static shapes, and the errors
of each bad table, for the cases of ``lookup_cases.py``.

``data/tf_lookup_golden.json`` holds TensorFlow's results; regenerate it with
``python tests/ops/data/make_tf_lookup_golden.py`` in an environment with TensorFlow installed.
"""

import json
import pathlib

import pytest
from lookup_cases import CASES, make_files

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_lookup_golden.json").read_text())
HOW = "regenerate with: python tests/ops/data/make_tf_lookup_golden.py (TensorFlow installed)"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("lookup_files")
    make_files(tf, path)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_lookup_gives_what_tensorflow_gives(case, folder):
    with tf.Graph().as_default():
        got = CASES[case](tf, folder)
    assert got == GOLDEN[case], f"{case}; {HOW}"
