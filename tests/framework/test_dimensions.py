"""Dimension objects as TensorFlow 1 gives them: ``x.shape[1].value``, ``int(x.shape[0])``, arithmetic and
comparisons with unknown sizes, and Dimensions passed to ops, placeholders, variables and layers.

Every case of ``tests/golden/dimensions/regenerate.py`` runs here and gives what TensorFlow 2.21's compat.v1
gave (``tf_dimensions.json``; ``/opt/tfenv/bin/python tests/golden/dimensions/regenerate.py`` rewrites it),
and ``tf1_program.py`` beside it prints what TensorFlow printed.
"""

import json
import re

import numpy as np
import pytest

import numflow as tf
from tests.framework.ported import run_ported
from tests.golden.dimensions import regenerate as CASES

GOLDEN_DIR = CASES.HERE
REGENERATE = "run `/opt/tfenv/bin/python tests/golden/dimensions/regenerate.py` to rewrite the goldens"
GOLDEN = json.loads((GOLDEN_DIR / "tf_dimensions.json").read_text())

_UNKNOWN_TO_INT = r"Cannot convert an unknown Dimension to an int: its size is known only when the graph runs"
_NO_DTYPE = (r"Failed to convert elements of .* to Tensor\. Consider casting elements to a supported type "
             r"\(a Dimension converts to an integer dtype only\)\.")
# Errors that numflow words otherwise, on purpose: the same class, a message that says more.
REWORDED = {
    "dimension.int_unknown": _UNKNOWN_TO_INT,  # TensorFlow: "__int__ returned non-int (type NoneType)"
    "dimension.numpy_shape_unknown": _UNKNOWN_TO_INT,
    "dimension.range_unknown": _UNKNOWN_TO_INT,
    "op.constant_unknown_int32": _UNKNOWN_TO_INT,
    "op.zeros_unknown": _UNKNOWN_TO_INT,
    "op.constant": _NO_DTYPE,  # TensorFlow's ends with a link to its dtypes page
    "op.constant_list": _NO_DTYPE,
    "op.convert_list": _NO_DTYPE,
    "op.convert_list_preferred_float": _NO_DTYPE,
    "op.reshape_unknown": _NO_DTYPE,
    "op.variable_of_dimension_list": _NO_DTYPE,
    # TensorFlow's op builder says which argument failed: "Tried to convert 'depth' to a tensor and failed. ..."
    "op.one_hot_unknown": r"^Cannot convert unknown Dimension \? to a Tensor\.$",
    "op.reshape_partial_shape": r"^Cannot convert a partially known TensorShape \(\?, 3\) to a Tensor\.$",
    # numflow's node summary lists fewer attrs and no partial input values
    "op.reshape_incompatible": r"^Dimension size must be evenly divisible by 3 but is 20 for '\{\{node Reshape\}\}",
}

# Where TensorFlow refuses Dimensions by accident of its conversion path and numflow builds the op: split's
# sizes convert as its other shape arguments do (int32 preferred), so [Dimension(1), Dimension(2)] is sizes 1, 2.
LENIENT = {"op.split_sizes": {"list": [{"Tensor": "split:0", "shape": "(?, 1)", "dtype": "float32"},
                                       {"Tensor": "split:1", "shape": "(?, 2)", "dtype": "float32"}]}}


def _matches(name, ours, theirs):
    if name in LENIENT:
        return theirs.get("error") == "TypeError" and ours == LENIENT[name]
    if name in REWORDED and "error" in theirs:
        return ours.get("error") == theirs["error"] and re.search(REWORDED[name], ours.get("message", ""))
    return ours == theirs


@pytest.mark.parametrize("name", sorted(CASES.CASES))
def test_as_tensorflow(name):
    assert name in GOLDEN, REGENERATE
    ours = CASES.run_case(tf, np, CASES.CASES[name])
    assert _matches(name, ours, GOLDEN[name]), (ours, GOLDEN[name])


def test_the_golden_holds_every_case():
    assert sorted(GOLDEN) == sorted(CASES.CASES), REGENERATE


def test_a_tf1_program_reading_its_sizes_from_shapes_prints_what_tensorflow_printed(tmp_path):
    done = run_ported(GOLDEN_DIR / "tf1_program.py", tmp_path)
    assert done.stdout == (GOLDEN_DIR / "tf1_program.out").read_text()


def _inferred_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4, 3])
        outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(5), x, dtype=tf.float32)
        tensors = [
            tf.layers.dense(x, 8), tf.layers.conv1d(x, 2, 2), outputs, state.h, tf.reshape(x, [-1, 12]),
            *tf.split(x, 3, axis=2), tf.gather(x, [0, 2], axis=1), tf.pad(x, [[0, 0], [1, 1], [0, 0]]),
            tf.reduce_sum(x, axis=1), tf.transpose(x), tf.boolean_mask(x, tf.ones([4], tf.bool), axis=1),
        ]
        return [t.shape.as_list() for t in tensors]


def test_what_ops_infer_is_the_same_whether_shapes_index_into_dimensions_or_ints():
    expected = [[None, 4, 8], [None, 3, 2], [None, 4, 5], [None, 5], [None, 12], [None, 4, 1], [None, 4, 1],
                [None, 4, 1], [None, 2, 3], [None, 6, 3], [None, 3], [3, 4, None], [None, None, 3]]
    assert _inferred_shapes() == expected
    tf.enable_v2_tensorshape()
    try:
        assert type(tf.TensorShape([3])[0]) is int and _inferred_shapes() == expected
    finally:
        tf.disable_v2_tensorshape()
    assert type(tf.TensorShape([3])[0]) is tf.Dimension


def test_disable_v2_behavior_gives_dimensions_back_as_tensorflow_does():
    tf.enable_v2_tensorshape()
    try:
        assert type(tf.TensorShape([3])[0]) is int
        tf.disable_v2_behavior()
        assert type(tf.TensorShape([3])[0]) is tf.Dimension
    finally:
        tf.disable_v2_tensorshape()
