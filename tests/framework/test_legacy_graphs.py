"""GraphDefs of older TensorFlow versions: op types since replaced (Add, Div, BatchMatMul, Inv) and
Placeholders whose ``shape {}`` meant any shape up to GraphDef version 21 (TensorFlow 1.0 wrote both).

TensorFlow 2.21 reads the GraphDef below to the same values (checked when this test was written).
"""

import numpy as np
import pytest
from google.protobuf import text_format

import numflow as tf

NODES = """
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { } } } }
node { name: "n" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "shape" value { shape { } } } }
node { name: "two" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 2.0 } } } }
node { name: "three" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 3 } } } }
node { name: "sum" op: "Add" input: "x" input: "two" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "half" op: "Div" input: "x" input: "two" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "thirds" op: "Div" input: "n" input: "three" attr { key: "T" value { type: DT_INT32 } } }
node { name: "inverse" op: "Inv" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "gram" op: "BatchMatMul" input: "x" input: "x"
  attr { key: "T" value { type: DT_FLOAT } } attr { key: "adj_x" value { b: false } }
  attr { key: "adj_y" value { b: true } } }
"""
X = np.array([[[1.0, 2.0, 4.0], [-1.0, 0.5, 8.0]]], np.float32)
N = np.array([-7, 7, 9], np.int32)


def _graph_def(producer):
    graph_def = tf.GraphDef()
    text_format.Parse(NODES + f"versions {{ producer: {producer} }}", graph_def)
    return graph_def


def test_a_tensorflow_1_0_graph_def_runs_its_replaced_op_types_to_the_same_values():
    graph_def = _graph_def(21)
    written = graph_def.SerializeToString()
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            got = sess.run(["sum:0", "half:0", "thirds:0", "inverse:0", "gram:0"], {"x:0": X, "n:0": N})
        x_shape = graph.get_tensor_by_name("x:0").shape
    np.testing.assert_array_equal(got[0], X + 2)
    np.testing.assert_array_equal(got[1], X / 2)
    np.testing.assert_array_equal(got[2], [-2, 2, 3])  # Div of integers truncates, as C does
    np.testing.assert_array_equal(got[3], 1 / X)
    np.testing.assert_array_equal(got[4], X @ X.transpose(0, 2, 1))
    assert x_shape.ndims is None  # `shape {}` of version 21: any shape
    assert graph_def.SerializeToString() == written  # the caller's GraphDef is left as it was


def test_from_version_22_a_placeholder_of_shape_braces_is_a_scalar():
    graph_def = _graph_def(22)
    del graph_def.node[-1]  # gram: a product of scalars is refused as TensorFlow refuses it
    with tf.Graph().as_default() as graph:
        tf.import_graph_def(graph_def, name="")
        assert graph.get_tensor_by_name("x:0").shape == tf.TensorShape([])
        with tf.Session() as sess, pytest.raises(ValueError, match="shape"):
            sess.run("sum:0", {"x:0": X})
