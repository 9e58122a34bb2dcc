"""Errors of the variables layer: TensorFlow's classes and messages, and what numflow says better.

Messages are checked against TensorFlow 2.21's ``tf.compat.v1`` wording; where numflow keeps its
own (clearer) text on purpose, the test says so.
"""

import re

import pytest

import numflow as tf


def test_assign_of_another_shape_fails_when_built_with_tf_node_text():
    v = tf.Variable([1.0, 2.0], name="v")
    want = ("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for "
            "'{{node Assign}} = Assign[T=DT_FLOAT, use_locking=false, validate_shape=true](v, Assign/value)' "
            "with input shapes: [2], [3].")
    with pytest.raises(ValueError, match=re.escape(want)):
        v.assign([1.0, 2.0, 3.0])
    want = ("Shapes must be equal rank, but are 1 and 0 for '{{node AssignAdd}} = AssignAdd[T=DT_FLOAT, "
            "use_locking=false](v, AssignAdd/value)' with input shapes: [2], [].")
    with pytest.raises(ValueError, match=re.escape(want)):
        v.assign_add(1.0)
    with pytest.raises(ValueError, match=re.escape("AssignSub[T=DT_FLOAT, use_locking=false](v, AssignSub/value)")):
        tf.assign_sub(v, [[1.0, 2.0]])


def test_assign_of_another_dtype_is_a_type_error():
    v = tf.Variable([1, 2], name="v")
    with pytest.raises(TypeError, match=re.escape(
            "Expected int32 passed to parameter 'value' of op 'Assign', got [1.5, 2.5] of type 'list' instead.")):
        v.assign([1.5, 2.5])
    with pytest.raises(TypeError, match=re.escape(
            "Input 'value' of 'Assign' Op has type float32 that does not match type int32 of argument 'ref'.")):
        v.assign(tf.constant([1.0, 2.0]))


def test_scatter_update_shape_errors_name_the_node():
    v = tf.Variable([[1.0, 2.0]], name="v")
    want = ("Shapes must be equal rank, but are 1 and 2 for '{{node ScatterUpdate}} = ScatterUpdate[T=DT_FLOAT, "
            "Tindices=DT_INT32, use_locking=true](v, ScatterUpdate/indices, ScatterUpdate/updates)' with input "
            "shapes: [1,2], [1], [3].")
    with pytest.raises(ValueError, match=re.escape(want)):
        tf.scatter_update(v, [0], [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Value passed to parameter 'indices' has DataType float32"):
        tf.scatter_add(v, [0.0], [[1.0, 2.0]])
