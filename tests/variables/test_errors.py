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


def test_assign_of_another_matrix_shape_prints_dims_as_tf():
    v = tf.Variable(tf.zeros([2, 3]), name="v")
    want = "Dimension 1 in both shapes must be equal, but are 3 and 4. Shapes are [2,3] and [2,4]. for "
    with pytest.raises(ValueError, match=re.escape(want)):
        v.assign(tf.zeros([2, 4]))


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


# -- get_variable ------------------------------------------------------------------------------------
def test_creating_an_existing_variable_says_where_it_was_defined():
    with tf.variable_scope("conv1"):
        tf.get_variable("weights", [2])  # the line the message points at
        with pytest.raises(ValueError) as e:
            tf.get_variable("weights", [2])
    message = str(e.value)
    assert message.startswith("Variable conv1/weights already exists, disallowed. Did you mean to set reuse=True "
                              "or reuse=tf.AUTO_REUSE in VarScope? Originally defined at:\n\n")
    assert "test_errors.py" in message and 'tf.get_variable("weights", [2])  # the line' in message
    assert "/numflow/" not in message


def test_reusing_a_variable_that_does_not_exist():
    with tf.variable_scope("conv1", reuse=True):
        with pytest.raises(ValueError, match=re.escape(
                "Variable conv1/weights does not exist, or was not created with tf.get_variable(). Did you mean to "
                "set reuse=tf.AUTO_REUSE in VarScope?")):
            tf.get_variable("weights", [2])
    tf.Variable(1.0, name="plain")
    with tf.variable_scope("", reuse=True):
        with pytest.raises(ValueError, match="Variable plain does not exist"):
            tf.get_variable("plain")


def test_sharing_with_another_shape_or_dtype():
    with tf.variable_scope("a"):
        tf.get_variable("w", [2, 3])
        tf.get_variable("i", dtype=tf.int32, initializer=tf.constant([1, 2]))
    with tf.variable_scope("a", reuse=True):
        with pytest.raises(ValueError, match=re.escape(
                "Trying to share variable a/w, but specified shape (3, 2) and found shape (2, 3).")):
            tf.get_variable("w", [3, 2])
        with pytest.raises(ValueError, match=re.escape(
                "Trying to share variable a/w, but specified dtype int32 and found dtype float32_ref.")):
            tf.get_variable("w", [2, 3], dtype=tf.int32)
        with pytest.raises(ValueError, match="specified dtype float32 and found dtype int32_ref"):
            tf.get_variable("i")  # the default dtype float32 is checked too, as in TF


def test_shape_with_a_value_initializer():
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("other_variable", [2], dtype=tf.int32, initializer=tf.constant([23, 42]))
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("listed", [2], initializer=[1.0, 2.0])


def test_initializer_of_another_dtype_than_asked():
    with pytest.raises(ValueError, match=re.escape(
            "Initializer type '<dtype: 'int32'>' and explicit dtype '<dtype: 'float32'>' don't match.")):
        tf.get_variable("a", dtype=tf.float32, initializer=tf.constant([23, 42]))
    with pytest.raises(ValueError, match=re.escape(
            "Initializer type '<dtype: 'float32'>' and explicit dtype '<dtype: 'float64'>' don't match.")):
        tf.get_variable("b", dtype=tf.float64, initializer=[1.0, 2.0])


def test_missing_or_partial_shapes():
    with pytest.raises(ValueError, match=re.escape(
            "Variable v did not get an initializer, so its `shape` argument must be specified.")):
        tf.get_variable("v")
    for initializer in (None, tf.zeros_initializer()):
        with pytest.raises(ValueError, match="The initializer passed is not valid. It should be a callable with no "
                                             "arguments and the shape should not be provided"):
            tf.get_variable("w", [None, 3], initializer=initializer)


# -- running ---------------------------------------------------------------------------------------
def test_reading_an_uninitialized_variable_names_it_and_the_failing_op():
    with tf.variable_scope("scope"):
        v = tf.Variable(1.0, name="v")
        w = tf.get_variable("w", [2])
    cases = [(v + 1, "scope/v/read", "scope/v"), (v.read_value(), "read", "scope/v"),
             (w * 2, "scope/w/read", "scope/w"), (v.assign_add(1.0), "AssignAdd", "scope/v"),
             (tf.scatter_add(w, [0], [1.0]), "ScatterAdd", "scope/w")]
    with tf.Session() as sess:
        for fetch, op_name, var_name in cases:
            with pytest.raises(tf.errors.FailedPreconditionError) as e:
                sess.run(fetch)
            assert e.value.message.startswith(f"Attempting to use uninitialized value {var_name}")
            assert e.value.op.name == op_name and e.value.error_code == tf.errors.FAILED_PRECONDITION
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value scope/v"):
            v.eval()


def test_an_initial_value_reading_an_uninitialized_variable_fails_at_its_read():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(a + 1, name="b")
    c = tf.Variable(b * 10, name="c")  # b is guarded, but b's own initial value reads a
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value a") as e:
            sess.run(c.initializer)
        assert e.value.op.name == "a/read"
        # Beyond TF (where this races): one run that also initializes a orders the read after it.
        sess.run(tf.global_variables_initializer())
        assert sess.run([a, b, c]) == [1.0, 2.0, 20.0]


def test_fed_values_of_another_shape_fail_when_run():
    v = tf.Variable([1.0, 2.0], name="v")
    x = tf.placeholder(tf.float32)
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
                "Assign requires shapes of both tensors to match. lhs shape= [2] rhs shape= [3]")):
            sess.run(v.assign(x), {x: [1.0, 2.0, 3.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Parameters and update must be the same size"):
            sess.run(v.assign_add(x), {x: [1.0, 2.0, 3.0]})
        assert sess.run(tf.assign(v, x, validate_shape=False), {x: [1.0, 2.0, 3.0]}).tolist() == [1, 2, 3]


def test_assigning_to_a_tensor_is_a_type_error():
    # TF raises AttributeError ("'SymbolicTensor' object has no attribute 'assign'"); numflow says what to do.
    with pytest.raises(TypeError, match="is not a variable: assignments need a tf.Variable"):
        tf.assign(tf.constant([1.0]), [2.0])


def test_a_variable_converts_only_to_its_own_dtype():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Incompatible type conversion requested to type 'int32' for variable of "
                                         "type 'float32_ref'"):
        tf.convert_to_tensor(v, dtype=tf.int32)


def test_arithmetic_updates_need_a_number_type():
    words = tf.Variable(["a", "bc"], name="words")
    flags = tf.Variable([True], name="flags")
    allowed = "not in list of allowed values: float32, float64, int32, uint8"
    with pytest.raises(TypeError, match=f"Value passed to parameter 'ref' has DataType string {allowed}"):
        words.assign_add(["x", "y"])
    with pytest.raises(TypeError, match=f"DataType bool {allowed}"):
        tf.assign_sub(flags, [False])
    with pytest.raises(TypeError, match=f"DataType string {allowed}"):
        tf.scatter_add(words, [0], ["x"])
    assert words.assign(["x", "y"]).dtype == tf.string._as_ref  # plain assignment takes any type
