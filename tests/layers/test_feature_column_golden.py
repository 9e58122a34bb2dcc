"""tf.feature_column against TensorFlow 2.21's compat.v1: input_layer and linear_model over numeric,
bucketized, vocabulary, hash, identity, weighted, indicator and embedding columns; the outputs' names
and static shapes, the variables' names and collections, the values before and after training steps,
the parse specs and the errors, for the cases of ``feature_column_cases.py``.

``data/tf_feature_column_golden.json`` holds TensorFlow's results; regenerate it with
``python tests/layers/data/make_tf_feature_column_golden.py`` in an environment with TensorFlow installed.
"""

import json
import pathlib

import pytest
from feature_column_cases import CASES, make_files

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_feature_column_golden.json").read_text())
HOW = "regenerate with: python tests/layers/data/make_tf_feature_column_golden.py (TensorFlow installed)"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("feature_column_files")
    make_files(tf, path)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_feature_columns_build_what_tensorflow_builds(case, folder):
    with tf.Graph().as_default():
        got = CASES[case](tf, folder)
    assert got == GOLDEN[case], f"{case}; {HOW}"
