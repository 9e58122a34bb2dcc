"""Bad uses of tf.layers give TensorFlow's error class and message (``errors`` of ``data/tf_layers_golden.json``,
regenerated with the layers' golden file).

numflow's messages start with TensorFlow's, with two differences: a shape given as a tuple prints its sizes
(``(None, 28, 28)``, where TensorFlow 1 mode printed ``(Dimension(None), Dimension(28), ...)``), and a
bad argument of a layer's constructor, whose message names only the argument, is followed by the layer's
name. What an op raises while the graph is built is compared up to the op's node text, which numflow
does not print.
"""

import json
import pathlib
import re

import pytest
from error_cases import CASES, raised

import numflow as tf

ERRORS = json.loads((pathlib.Path(__file__).parent / "data" / "tf_layers_golden.json").read_text())["errors"]
NAMED_ARGUMENTS = {"data_format": "conv2d_1", "padding": "conv2d_1", "pool_padding": "max_pooling2d_1",
                   "pool_size": "max_pooling2d_1", "pool_size_zero": "average_pooling2d_1", "kernel_size": "conv2d_1",
                   "kernel_size_text": "conv2d_1", "filters": "conv2d_1", "causal_conv2d": "conv2d_1",
                   "strides_and_dilation": "conv2d_1", "flatten_data_format": "flatten_1",
                   "transpose_output_padding": "conv2d_transpose_1"}


def _tf2_shapes(message):
    return re.sub(r"Dimension\((\w+)\)", r"\1", message)


def _expected_start(message):
    message = _tf2_shapes(message)
    for cut in (" for '{{node", "Originally defined at:"):
        message = message.split(cut)[0]
    return message


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_class_and_message_as_tensorflow(case):
    kind, message = raised(tf, case)
    want_kind, want_message = ERRORS[case]
    assert kind == want_kind, message
    assert message.startswith(_expected_start(want_message)), (message, want_message)
    if case in NAMED_ARGUMENTS:
        assert message.endswith(f'(layer "{NAMED_ARGUMENTS[case]}")')


def test_a_failed_build_leaves_the_layer_usable():
    with tf.Graph().as_default():
        layer = tf.layers.Dense(2)
        with pytest.raises(ValueError, match="should be defined"):
            layer(tf.placeholder(tf.float32, [None, None]))
        assert not layer.built and layer.weights == []
        assert layer(tf.zeros([3, 4])).shape.as_list() == [3, 2]
