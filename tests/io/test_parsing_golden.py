"""tf.train.Example and tf.parse_example against TensorFlow 2.21's compat.v1: the bytes of the messages,
the parsed values, op names, static shapes and dtypes, and the errors (class and message) of each
case of ``parsing_cases.py``, and TensorFlow's own TFRecord file of Examples parsed in Dataset.map.

``data/tf_parsing_golden.json`` and ``data/examples.tfrecord`` hold TensorFlow's results; regenerate
them with ``python tests/io/data/make_tf_parsing_golden.py`` in an environment with TensorFlow.
"""

import json
import pathlib

import pytest
from parsing_cases import CASES, EXAMPLES_FILE, records

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_parsing_golden.json").read_text())
HOW = "regenerate with: python tests/io/data/make_tf_parsing_golden.py (TensorFlow installed)"


@pytest.mark.parametrize("case", sorted(CASES))
def test_parsing_gives_what_tensorflow_gives(case):
    with tf.Graph().as_default():
        got = CASES[case](tf)
    assert got == GOLDEN[case], f"{case}; {HOW}"


def test_tensorflows_records_read_back_as_numflows_messages():
    written = list(tf.python_io.tf_record_iterator(str(EXAMPLES_FILE)))
    assert written == records(tf)
    example = tf.train.Example.FromString(written[1])
    assert list(example.features.feature["b"].int64_list.value) == [7]
    assert example.features.feature["a"].WhichOneof("kind") == "float_list"


def test_parse_op_exports_to_a_graph_def_with_tensorflows_attrs():
    with tf.Graph().as_default() as graph:
        tf.parse_example(tf.placeholder(tf.string, [None]), {"b": tf.VarLenFeature(tf.int64),
                                                            "s": tf.FixedLenSequenceFeature([2], tf.float32,
                                                                                            allow_missing=True)})
        node = next(n for n in graph.as_graph_def().node if n.op == "ParseExampleV2")
    assert node.attr["num_sparse"].i == 1
    assert [d.size for d in node.attr["dense_shapes"].list.shape[0].dim] == [-1, 2]
    assert list(node.attr["Tdense"].list.type) == [1]  # DT_FLOAT
    assert list(node.attr["sparse_types"].list.type) == [9]  # DT_INT64
