"""Every code block of the "Variables" guide (spec 000), run as written with ``import numflow as tf``.

Blocks that need a device or the Saver live with those features' tests.
"""

import numpy as np
import pytest

import numflow as tf


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_get_variable_name_shape_and_default_glorot_uniform():
    my_variable = tf.get_variable("my_variable", [1, 2, 3])
    assert my_variable.name == "my_variable:0"
    assert my_variable.shape.as_list() == [1, 2, 3]
    assert my_variable.dtype.base_dtype == tf.float32
    with tf.Session() as sess:
        sess.run(my_variable.initializer)
        value = sess.run(my_variable)
    # glorot uniform: limit = sqrt(6 / (fan_in + fan_out)), fans of [1, 2, 3] = (2*1, 3*1)
    limit = np.sqrt(6.0 / (2 + 3))
    assert value.shape == (1, 2, 3) and value.dtype == np.float32
    assert np.all(np.abs(value) <= limit) and np.unique(value).size == 6


def test_int_variable_with_zeros_initializer_class():
    my_int_variable = tf.get_variable("my_int_variable", [1, 2, 3], dtype=tf.int32,
                                      initializer=tf.zeros_initializer)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(my_int_variable)
    assert value.dtype == np.int32
    np.testing.assert_array_equal(value, np.zeros((1, 2, 3), np.int32))


def test_initializer_tensor_gives_the_shape():
    other_variable = tf.get_variable("other_variable", dtype=tf.int32, initializer=tf.constant([23, 42]))
    assert other_variable.shape.as_list() == [2]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(other_variable), [23, 42])


def test_shape_with_tensor_initializer_is_refused():
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("bad", shape=[2], dtype=tf.int32, initializer=tf.constant([23, 42]))


def test_collections_local_and_non_trainable():
    my_local = tf.get_variable("my_local", shape=(), collections=[tf.GraphKeys.LOCAL_VARIABLES])
    my_non_trainable = tf.get_variable("my_non_trainable", shape=(), trainable=False)
    assert my_local in tf.get_collection(tf.GraphKeys.LOCAL_VARIABLES)
    assert my_local not in tf.global_variables()
    assert my_non_trainable in tf.global_variables()
    assert my_non_trainable not in tf.trainable_variables()
    tf.add_to_collection("my_collection_name", my_local)
    assert tf.get_collection("my_collection_name") == [my_local]


def test_global_variables_initializer_and_report_uninitialized():
    v = tf.get_variable("v", [2], initializer=tf.ones_initializer())
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer(4.0))
    with tf.Session() as session:
        np.testing.assert_array_equal(session.run(tf.report_uninitialized_variables()),
                                      np.array([b"v", b"w"], dtype=object))
        session.run(v.initializer)
        assert list(session.run(tf.report_uninitialized_variables())) == [b"w"]
        session.run(tf.global_variables_initializer())
        assert session.run(tf.report_uninitialized_variables()).shape == (0,)
        np.testing.assert_array_equal(session.run(w), [4.0, 4.0, 4.0])


def test_reading_before_initialization_names_the_variable():
    v = tf.get_variable("v", [2], initializer=tf.ones_initializer())
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
            sess.run(v + 1)


def test_initialized_value_makes_dependent_initialization_safe():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    w = tf.get_variable("w", initializer=v.initialized_value() + 1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(w) == 1.0


def test_initial_value_reading_another_variable_waits_for_it_in_one_run():
    # The guide warns this may fail in TensorFlow; numflow orders the read after v's initializer.
    v = tf.get_variable("v", shape=(), initializer=tf.constant_initializer(3.0))
    w = tf.get_variable("w", initializer=v + 1)
    with tf.Session() as sess:
        for _ in range(5):
            sess.run(tf.global_variables_initializer())
            assert sess.run(w) == 4.0


def test_using_a_variable_in_an_expression():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    w = v + 1
    assert isinstance(w, tf.Tensor)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(w) == 1.0


def test_assign_add_three_ways():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    assignment = v.assign_add(1)
    with tf.Session() as sess:
        tf.global_variables_initializer().run()
        assert sess.run(assignment) == 1.0
        assignment.op.run()
        assert assignment.eval() == 3.0
        assert sess.run(v) == 3.0


def test_read_value_after_control_dependency():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    assignment = v.assign_add(1)
    with tf.control_dependencies([assignment]):
        w = v.read_value()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(w) == 1.0
        assert sess.run(w) == 2.0


def conv_relu(input, kernel_shape, bias_shape):
    weights = tf.get_variable("weights", kernel_shape, initializer=tf.random_normal_initializer())
    biases = tf.get_variable("biases", bias_shape, initializer=tf.constant_initializer(0.0))
    conv = tf.nn.conv2d(input, weights, strides=[1, 1, 1, 1], padding="SAME")
    return tf.nn.relu(conv + biases)


def my_image_filter(input_images):
    with tf.variable_scope("conv1"):
        relu1 = conv_relu(input_images, [5, 5, 32, 32], [32])
    with tf.variable_scope("conv2"):
        return conv_relu(relu1, [5, 5, 32, 32], [32])


def test_calling_conv_relu_twice_fails():
    input1 = tf.random_normal([1, 10, 10, 32])
    x = conv_relu(input1, kernel_shape=[5, 5, 32, 32], bias_shape=[32])
    with pytest.raises(ValueError, match="Variable weights already exists, disallowed"):
        conv_relu(x, kernel_shape=[5, 5, 32, 32], bias_shape=[32])


def test_my_image_filter_names_its_variables():
    input1 = tf.random_normal([1, 10, 10, 32])
    out = my_image_filter(input1)
    names = sorted(v.name for v in tf.global_variables())
    assert names == ["conv1/biases:0", "conv1/weights:0", "conv2/biases:0", "conv2/weights:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(out)
    assert value.shape == (1, 10, 10, 32) and np.all(value >= 0)


def _shared(make_second):
    input1 = tf.random_normal([1, 10, 10, 32])
    input2 = tf.random_normal([1, 20, 20, 32])
    output1, output2 = make_second(input1, input2)
    assert len(tf.global_variables()) == 4
    assert all(v.name.startswith("model/conv") for v in tf.global_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a, b = sess.run([output1, output2])
    assert a.shape == (1, 10, 10, 32) and b.shape == (1, 20, 20, 32)


def test_sharing_with_reuse_true():
    def build(input1, input2):
        with tf.variable_scope("model"):
            output1 = my_image_filter(input1)
        with tf.variable_scope("model", reuse=True):
            output2 = my_image_filter(input2)
        return output1, output2

    _shared(build)


def test_sharing_with_reuse_variables():
    def build(input1, input2):
        with tf.variable_scope("model") as scope:
            output1 = my_image_filter(input1)
            scope.reuse_variables()
            output2 = my_image_filter(input2)
        return output1, output2

    _shared(build)


def test_sharing_by_reentering_a_scope_object():
    def build(input1, input2):
        with tf.variable_scope("model") as scope:
            output1 = my_image_filter(input1)
        with tf.variable_scope(scope, reuse=True):
            output2 = my_image_filter(input2)
        return output1, output2

    _shared(build)


# -- "Variables: Creation, Initialization, Saving, and Loading" (spec 004) ---------------------------
def test_creating_a_variable_adds_the_variable_its_initializer_and_the_initial_value_ops():
    weights = tf.Variable(tf.random_normal([784, 200], stddev=0.35), name="weights")
    biases = tf.Variable(tf.zeros([200]), name="biases")
    ops = {op.name: op.type for op in tf.get_default_graph().get_operations()}
    assert ops["weights"] == "VariableV2" and ops["weights/Assign"] == "Assign" and ops["zeros"] in ("Const", "Fill")
    assert weights.initializer.type == "Assign" and isinstance(weights, tf.Variable)
    init_op = tf.global_variables_initializer()
    with tf.Session() as sess:
        sess.run(init_op)
        w, b = sess.run([weights, biases])
    assert w.shape == (784, 200) and abs(w.std() - 0.35) < 0.01 and not b.any()


def test_custom_initialization_of_a_subset():
    tf.Variable(1.0, name="v1")
    v2 = tf.Variable(2.0, name="v2")
    with tf.Session() as sess:
        sess.run(tf.variables_initializer([v2]))
        assert sess.run(tf.report_uninitialized_variables()).tolist() == [b"v1"]
        assert sess.run(v2) == 2.0
