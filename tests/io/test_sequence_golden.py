"""tf.io.parse_sequence_example, serialize_tensor/parse_tensor and make_tensor_proto/make_ndarray against
TensorFlow 2.21's compat.v1: values, op names, static shapes and dtypes, proto bytes, and the errors
(class and message) of each case of ``sequence_cases.py``.

``data/tf_sequence_golden.json`` holds TensorFlow's results; regenerate it with
``python tests/io/data/make_tf_sequence_golden.py`` in an environment with TensorFlow.
"""

import json
import pathlib

import pytest
from sequence_cases import CASES

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_sequence_golden.json").read_text())
HOW = "regenerate with: python tests/io/data/make_tf_sequence_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("case", sorted(CASES))
def test_sequence_and_tensor_protos_give_what_tensorflow_gives(case):
    with tf.Graph().as_default():
        got = CASES[case](tf)
    assert got == GOLDEN[case], f"{case}; {HOW}"
