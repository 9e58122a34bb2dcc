"""tf.Variable as TensorFlow 1.x has it: creation, names, attributes, reads, assignments, scatters."""

import numpy as np
import pytest

import numflow as tf


def _init_and_run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


# -- scatter family -------------------------------------------------------------------------------
def test_scatter_ops_return_the_updated_variable_in_index_order():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="v")
    ops = [tf.scatter_update(v, [0, 2], [[0.0, 0.0], [9.0, 9.0]]),
           tf.scatter_add(v, [1, 1], [[1.0, 1.0], [1.0, 1.0]]),  # a repeated index adds twice
           tf.scatter_sub(v, [0], [[1.0, 1.0]]),
           v.scatter_update(tf.IndexedSlices([[5.0, 5.0]], [1])),
           v.scatter_add(tf.IndexedSlices([[5.0, 5.0]], [1])),
           v.scatter_sub(tf.IndexedSlices([[5.0, 5.0]], [1]))]
    assert [op.name for op in ops] == ["ScatterUpdate:0", "ScatterAdd:0", "ScatterSub:0", "ScatterUpdate_1:0",
                                       "ScatterAdd_1:0", "ScatterSub_1:0"]
    assert all(op.dtype == tf.float32._as_ref and op.shape == (3, 2) for op in ops)
    with tf.Session() as sess:
        sess.run(v.initializer)
        got = [sess.run(op).tolist() for op in ops]
    assert got == [[[0, 0], [3, 4], [9, 9]], [[0, 0], [5, 6], [9, 9]], [[-1, -1], [5, 6], [9, 9]],
                   [[-1, -1], [5, 5], [9, 9]], [[-1, -1], [10, 10], [9, 9]], [[-1, -1], [5, 5], [9, 9]]]


def test_scatter_of_a_scalar_writes_every_row_named():
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    w = tf.Variable(np.zeros((3, 2), np.int32), name="w")
    got = _init_and_run([tf.scatter_update(v, [0, 2], 7.0), tf.scatter_add(w, [[1], [1]], 5)])
    assert got[0].tolist() == [7.0, 2.0, 7.0]
    assert got[1].tolist() == [[0, 0], [10, 10], [0, 0]]


def test_scatter_out_of_range_names_the_index_position_and_leaves_the_variable():
    v = tf.Variable(np.zeros((5, 2), np.float32), name="v")
    bad = tf.scatter_sub(v, [[0, 1], [7, 2]], np.ones((2, 2, 2), np.float32))
    negative = tf.scatter_add(v, [-1], [[1.0, 1.0]])
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 7 is not in \[0, 5\)") as e:
            sess.run(bad)
        assert e.value.op is bad.op
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 5\)"):
            sess.run(negative)
        assert sess.run(v).sum() == 0


# -- creation from each kind of initial value -----------------------------------------------------
@pytest.mark.parametrize("value, dtype, shape", [
    (1.0, tf.float32, ()), (3, tf.int32, ()), (2**40, tf.int64, ()), (True, tf.bool, ()),
    ([1, 2, 3], tf.int32, (3,)), ([1, 2.5], tf.float32, (2,)), ("hello", tf.string, ()),
    (np.zeros((2, 3)), tf.float64, (2, 3)), (np.ones((2, 3), np.float32), tf.float32, (2, 3)),
    (np.arange(4), tf.int64, (4,)), (np.float64(2.0), tf.float64, ()),
])
def test_python_and_numpy_initial_values_set_dtype_and_shape_as_tf(value, dtype, shape):
    v = tf.Variable(value)
    assert (v.dtype, v.dtype.base_dtype, v.shape.as_list()) == (dtype._as_ref, dtype, list(shape))
    assert v.get_shape() == v.shape
    assert (v.name, v.op.name, v.op.type) == ("Variable:0", "Variable", "VariableV2")
    assert v.initial_value.name == "Variable/initial_value:0"
    got = _init_and_run(v)
    if dtype == tf.string:
        assert got == b"hello"  # strings come back as bytes, as from TF
    else:
        assert np.asarray(got).dtype == dtype.as_numpy_dtype and np.array_equal(got, value)


def test_every_attribute_of_a_variable():
    v = tf.Variable([[1.0, 2.0]], name="rv")
    assert v.name == "rv:0" and v.op.name == "rv" and v.device == "" and v.graph is tf.get_default_graph()
    assert (v.initializer.name, v.initializer.type) == ("rv/Assign", "Assign")
    assert v.initial_value.name == "rv/initial_value:0" and v.initial_value.dtype == tf.float32
    assert v.value().name == "rv/read:0" and v.value().dtype == tf.float32
    assert v.read_value().name == "read:0" and v.read_value().name == "read_1:0"
    assert v.initialized_value().name == "cond/Merge:0"
    assert v.trainable and v._ref().name == "rv:0" and v._ref().dtype == tf.float32._as_ref
    assert repr(v) == "<tf.Variable 'rv:0' shape=(1, 2) dtype=float32_ref>"
    assert tf.convert_to_tensor(v) is v.value()
    assert tf.identity(v).op.inputs[0] is v.value()


def test_a_tensor_initial_value_keeps_its_name_and_a_callable_builds_one_under_initializer():
    biases = tf.Variable(tf.constant(0.0, shape=[200]), name="biases")
    assert biases.initial_value.name == "Const:0" and biases.shape == (200,)
    c = tf.Variable(lambda: tf.constant([1.0, 2.0]), name="c")
    assert c.initial_value.name == "c/Initializer/Const:0"
    with tf.device("/cpu:0"):
        d = tf.Variable(lambda: tf.constant([1.0]), name="d")
    assert d.initial_value.device == "" and d.device == "/device:CPU:0"


def test_dtype_argument_converts_python_values_and_rejects_tensors_of_another_dtype():
    assert tf.Variable(1, dtype=tf.float32).dtype == tf.float32._as_ref
    assert tf.Variable(np.zeros(2), dtype=tf.float32).dtype == tf.float32._as_ref
    with pytest.raises(ValueError, match="initial_value: Tensor conversion requested dtype float32 for Tensor with "
                                         "dtype int32"):
        tf.Variable(tf.constant([1, 2]), dtype=tf.float32)
    with pytest.raises(TypeError, match="Expected int32"):
        tf.Variable(1.5, dtype=tf.int32)


def test_shape_argument_is_the_variables_shape_as_given():
    assert tf.Variable(tf.constant(0.0, shape=[2, 3]), shape=[None, 3]).shape.as_list() == [None, 3]
    assert tf.Variable(tf.constant(0.0, shape=[2, 3]), shape=tf.TensorShape(None)).shape.ndims is None


def test_validate_shape_false_allows_unknown_and_changing_shapes():
    x = tf.placeholder(tf.float32, [None, 3])
    v = tf.Variable(tf.constant(0.0, shape=[2, 3]), validate_shape=False, name="vs")
    w = tf.Variable(tf.ones_like(x) if hasattr(tf, "ones_like") else x, validate_shape=False, name="w")
    assert v.shape.ndims is None and w.shape.ndims is None
    assert repr(v) == "<tf.Variable 'vs:0' shape=<unknown> dtype=float32_ref>"
    grow = tf.assign(v, [1.0, 2.0, 3.0, 4.0, 5.0], validate_shape=False)
    assert grow.shape == (5,)
    with tf.Session() as sess:
        sess.run(w.initializer, {x: np.ones((4, 3))})
        assert sess.run(w).shape == (4, 3)
        sess.run(v.initializer)
        assert sess.run(grow).tolist() == [1, 2, 3, 4, 5] and sess.run(v.value()).shape == (5,)
    with pytest.raises(ValueError, match=r"initial_value must have a shape specified: Tensor\(\"Placeholder:0\""):
        tf.Variable(x)


def test_names_are_made_unique_in_the_current_name_scope():
    made = [tf.Variable(1.0), tf.Variable(1.0), tf.Variable(1.0, name="v"), tf.Variable(1.0, name="v"),
            tf.Variable(1.0, name="v_1")]
    assert [v.name for v in made] == ["Variable:0", "Variable_1:0", "v:0", "v_1:0", "v_1_1:0"]
    with tf.name_scope("ns"):
        a = tf.Variable(1.0, name="v")
        with tf.variable_scope("vs"):
            b = tf.Variable(1.0, name="v")
    with tf.name_scope("ns"):
        c = tf.Variable(1.0, name="v")
    assert [a.name, b.name, c.name] == ["ns/v:0", "ns/vs/v:0", "ns_1/v:0"]
    assert [a.initializer.name, a.value().name, a.initial_value.name] == ["ns/v/Assign", "ns/v/read:0",
                                                                         "ns/v/initial_value:0"]


def test_a_variable_ignores_the_control_dependencies_it_is_created_in():
    x = tf.Variable(0.0, name="x")
    inc = x.assign_add(1.0)
    with tf.control_dependencies([inc]):
        v = tf.Variable(5.0, name="v")
        w = tf.get_variable("w", [1])
        i = v.initialized_value()
    for op in (v.op, v.initializer, v.initial_value.op, v.value().op, w.op, w.initializer, w.initial_value.op, i.op):
        assert op.control_inputs == []
    with tf.Session() as sess:
        sess.run(x.initializer)
        sess.run([v.initializer, w.initializer])
        assert sess.run(v) == 5.0 and sess.run(x) == 0.0


def test_collections_argument_must_be_a_collection():
    with pytest.raises(ValueError, match="collections argument to Variable constructor must be a list, tuple, or set"):
        tf.Variable(1.0, collections="x")
    with pytest.raises(ValueError, match="initial_value must be specified."):
        tf.Variable()


# -- reading -------------------------------------------------------------------------------------
def test_a_variable_is_its_value_in_any_expression():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="v")
    exprs = [v + 1, v * 2.0, 2.0 * v, -v, tf.matmul(v, v), v[0], abs(v) - v]
    assert [e.name for e in exprs[:4]] == ["add:0", "mul:0", "mul_1:0", "Neg:0"]
    got = _init_and_run(exprs)
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    for g, w in zip(got, [a + 1, a * 2, 2 * a, -a, a @ a, a[0], abs(a) - a]):
        np.testing.assert_array_equal(g, w)


def test_read_value_under_control_dependencies_sees_the_update():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    assignment = v.assign_add(1)
    with tf.control_dependencies([assignment]):
        w = v.read_value()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert [sess.run(w), sess.run(w), sess.run(v)] == [1.0, 2.0, 2.0]


def test_initialized_value_is_the_initial_value_until_the_variable_is_initialized():
    v = tf.Variable(3.0, name="v")
    iv = v.initialized_value()
    with tf.Session() as sess:
        assert sess.run(iv) == 3.0 and not sess.run(tf.is_variable_initialized(v))
        sess.run(v.initializer)
        sess.run(v.assign(7.0))
        assert sess.run(iv) == 7.0


def test_an_initial_value_reading_another_variable_uses_its_initial_value_until_it_is_set():
    v = tf.Variable(3.0, name="v")
    w = tf.Variable(v + 1, name="w")
    x = tf.get_variable("x", initializer=v.read_value() * 2)
    assert w.initial_value.name == "add:0"  # the guarded copy feeds the initializer only
    assert w.initializer.inputs[1].name == "add_w:0"
    with tf.Session() as sess:
        sess.run([w.initializer, x.initializer])
        assert (sess.run(w), sess.run(x)) == (4.0, 6.0)
        assert not sess.run(tf.is_variable_initialized(v))
        sess.run(v.initializer)
        sess.run(v.assign(10.0))
        sess.run(w.initializer)
        assert sess.run(w) == 11.0


def test_guide_initialized_value_examples_share_one_draw():
    weights = tf.Variable(tf.random_normal([784, 200], stddev=0.35), name="weights")
    w2 = tf.Variable(weights.initialized_value(), name="w2")
    w_twice = tf.Variable(weights.initialized_value() * 2.0, name="w_twice")
    for _ in range(3):  # any order of the three initializers in one run gives the same draw
        a, b, c = _init_and_run([weights, w2, w_twice])
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(2 * a, c)
    v = tf.Variable(tf.random_normal([2], seed=1), name="v")
    u = tf.Variable(v.initialized_value(), name="u")
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(u.initializer)  # computes v's initial value again, as TF's cond does
        np.testing.assert_array_equal(sess.run(u), sess.run(v))


def test_eval_and_load():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        v.load([5.0, 6.0], sess)
        assert v.eval(sess).tolist() == [5.0, 6.0] and v.eval().tolist() == [5.0, 6.0]
        ops = len(tf.get_default_graph().get_operations())
        v.load(np.array([1.0, 1.0]))
        assert sess.run(v).tolist() == [1.0, 1.0]
        assert len(tf.get_default_graph().get_operations()) == ops  # load adds nothing to the graph
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            v.load([1.0, 2.0, 3.0], sess)
    with pytest.raises(ValueError, match="Either session argument should be provided"):
        v.load([1.0, 2.0])
    with pytest.raises(ValueError, match="No default session is registered"):
        v.eval()


# -- updating ------------------------------------------------------------------------------------
def test_assign_family_returns_the_updated_value():
    v = tf.Variable([1.0, 2.0], name="v")
    ops = [v.assign([3.0, 4.0]), v.assign_add([1.0, 1.0]), v.assign_sub([0.5, 0.5]),
           tf.assign(v, [9.0, 9.0]), tf.assign_add(v, [1.0, 1.0]), tf.assign_sub(v, [1.0, 1.0])]
    assert [op.name for op in ops] == ["Assign:0", "AssignAdd:0", "AssignSub:0", "Assign_1:0", "AssignAdd_1:0",
                                       "AssignSub_1:0"]
    assert all(op.dtype == tf.float32._as_ref and op.shape == (2,) for op in ops)
    assert isinstance(v.assign([7.0, 7.0], read_value=False), tf.Operation)
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert [sess.run(op).tolist() for op in ops] == [[3, 4], [4, 5], [3.5, 4.5], [9, 9], [10, 10], [9, 9]]


def test_guide_assignment_runs_as_sess_run_op_run_and_eval():
    v = tf.get_variable("v", shape=(), initializer=tf.zeros_initializer())
    assignment = v.assign_add(1)
    with tf.Session() as sess:
        tf.global_variables_initializer().run()
        assert sess.run(assignment) == 1.0
        assignment.op.run()
        assert assignment.eval() == 3.0


def test_python_values_are_converted_to_the_variables_dtype():
    v = tf.Variable([1.0, 2.0], name="v")
    assert _init_and_run(v.assign([3, 4])).tolist() == [3.0, 4.0]


def test_iterating_over_a_variable_is_a_type_error():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(TypeError, match="Iterating over a symbolic `tf.Tensor` is not allowed"):
        list(v)
    with pytest.raises(TypeError, match="has no len"):
        len(v)


# -- collections and initialization ---------------------------------------------------------------
def test_default_and_custom_collections():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b", trainable=False)
    c = tf.get_variable("c", [1], collections=[tf.GraphKeys.LOCAL_VARIABLES])
    d = tf.get_variable("d", shape=(), trainable=False)
    e = tf.get_variable("e", [1], collections=[tf.GraphKeys.MODEL_VARIABLES, tf.GraphKeys.GLOBAL_VARIABLES])
    f = tf.Variable(1.0, name="f", collections=[])
    g = tf.Variable(1.0, name="g", collections=("x", "y"))
    assert tf.global_variables() == [a, b, d, e] and tf.get_collection(tf.GraphKeys.VARIABLES) == [a, b, d, e]
    assert tf.trainable_variables() == [a, c, e, f, g]
    assert tf.local_variables() == [c] and tf.model_variables() == [e]
    assert tf.get_collection("x") == [g] == tf.get_collection("y")
    assert (f.trainable, b.trainable, c.trainable, d.trainable) == (True, False, True, False)
    tf.add_to_collection("my_collection_name", c)
    tf.add_to_collections(["p", "q"], c)
    assert tf.get_collection("my_collection_name") == [c] == tf.get_collection("q")
    assert tf.get_collection("missing") == []


def test_get_collection_scope_is_a_regex_matched_from_the_start_of_names():
    with tf.variable_scope("foo"):
        a = tf.get_variable("a", [1])
        with tf.variable_scope("bar"):
            b = tf.get_variable("b", [1])
    with tf.variable_scope("foobar"):
        c = tf.get_variable("c", [1])
    d = tf.get_variable("xfoo", [1])
    tf.add_to_collection(tf.GraphKeys.GLOBAL_VARIABLES, 3)  # items without a name never match a scope
    key = tf.GraphKeys.GLOBAL_VARIABLES
    assert tf.get_collection(key, scope="foo") == [a, b, c]
    assert tf.get_collection(key, scope="foo/") == [a, b]
    assert tf.get_collection(key, scope="foo.*b") == [b, c]
    assert tf.get_collection(key, scope=".*foo") == [a, b, c, d]
    assert tf.global_variables("foo/bar") == [b] and tf.trainable_variables("foobar") == [c]


def test_initializer_ops_are_named_as_in_tf():
    a = tf.Variable(1.0, name="a")
    b = tf.get_variable("b", [1], collections=[tf.GraphKeys.LOCAL_VARIABLES])
    inits = [tf.global_variables_initializer(), tf.local_variables_initializer(), tf.variables_initializer([]),
             tf.variables_initializer([a, b], name="both"), tf.initialize_all_variables()]
    assert [(i.name, i.type) for i in inits] == [("init", "NoOp"), ("init_1", "NoOp"), ("init_2", "NoOp"),
                                                 ("both", "NoOp"), ("init_3", "NoOp")]
    assert [sorted(c.name for c in i.control_inputs) for i in inits] == [
        ["a/Assign"], ["b/Assign"], [], ["a/Assign", "b/Assign"], ["a/Assign"]]


def test_report_uninitialized_variables_lists_names_as_bytes():
    a = tf.Variable(1.0, name="a")
    with tf.variable_scope("s"):
        tf.get_variable("b", [1])
    tf.get_local_variable("c", [1])
    report, only_a, none = (tf.report_uninitialized_variables(), tf.report_uninitialized_variables([a]),
                            tf.report_uninitialized_variables([]))
    assert (report.name, report.dtype, report.shape.as_list()) == (
        "report_uninitialized_variables/boolean_mask/GatherV2:0", tf.string, [None])
    assert (only_a.name, none.name, none.shape.as_list()) == (
        "report_uninitialized_variables_1/boolean_mask/GatherV2:0", "report_uninitialized_variables_2/Const:0", [0])
    with tf.Session() as sess:
        assert sess.run(report).tolist() == [b"a", b"s/b", b"c"]
        sess.run(a.initializer)
        assert sess.run(report).tolist() == [b"s/b", b"c"] and sess.run(only_a).tolist() == []
        sess.run(tf.local_variables_initializer())
        assert sess.run(report).tolist() == [b"s/b"] and sess.run(none).dtype == object


def test_is_variable_initialized_and_assert_variables_initialized():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable([1.0, 2.0], name="b")
    check = tf.is_variable_initialized(a)
    assert (check.name, check.dtype, check.shape.as_list()) == ("IsVariableInitialized:0", tf.bool, [])
    both, only_a = tf.assert_variables_initialized(), tf.assert_variables_initialized([a])
    assert (both.name, only_a.name) == ("stack:0", "Rank_2:0")
    with tf.Session() as sess:
        assert not sess.run(check)
        sess.run(a.initializer)
        assert sess.run(check) and sess.run(only_a) == 0
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value b") as e:
            sess.run(both)
        assert e.value.op.name == "b/read"
        sess.run(b.initializer)
        assert sess.run(both).tolist() == [0, 1]
    tf.reset_default_graph()
    assert tf.assert_variables_initialized() is None


def test_two_local_sessions_hold_separate_values():
    v = tf.Variable(1.0, name="v")
    with tf.Session() as s1, tf.Session() as s2:
        s1.run(v.initializer)
        s1.run(v.assign(5.0))
        with pytest.raises(tf.errors.FailedPreconditionError):
            s2.run(v)
        s2.run(v.initializer)
        assert (s1.run(v), s2.run(v)) == (5.0, 1.0)
    with tf.Session() as s3:  # a closed session's values are gone
        assert not s3.run(tf.is_variable_initialized(v))


def test_a_fed_variable_is_read_as_the_fed_value_for_that_run():
    v = tf.Variable(1.0, name="v")
    y = v * 2
    with tf.Session() as sess:
        assert sess.run(y, {v: 5.0}) == 10.0 and sess.run(y, {v.value(): 4.0}) == 8.0
        assert not sess.run(tf.is_variable_initialized(v))  # feeding does not set the variable
        sess.run(v.initializer)
        assert sess.run(y) == 2.0


def test_fetched_values_are_copies():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        for fetch in (v, v.value(), v.assign_add([1.0, 1.0])):
            sess.run(fetch)[0] = 100.0
        assert sess.run(v).tolist() == [2.0, 3.0]


def test_a_variable_may_keep_its_fresh_initial_value_but_never_shares_a_buffer():
    t = tf.random_normal([3], seed=1)
    a, b = tf.Variable(t, name="a"), tf.Variable(t, name="b")  # one draw read twice: both copy
    c = tf.Variable(tf.random_uniform([3], seed=2), name="c")  # read once: kept without a copy
    d = tf.Variable(c.initialized_value(), name="d")
    bump = [v.assign_add([1.0, 1.0, 1.0]) for v in (a, c)]
    with tf.Session() as sess:
        _, drawn = sess.run([tf.global_variables_initializer(), t])  # t also fetched: not kept
        sess.run(bump)
        values = sess.run([a, b, c, d])
    np.testing.assert_array_equal(values[0], values[1] + 1)
    np.testing.assert_array_equal(values[2], values[3] + 1)
    np.testing.assert_array_equal(drawn, values[1])
    with tf.Session() as sess:  # a second initializer run keeps its new draw in place of the old buffer
        sess.run(c.initializer)
        first = sess.run(c)
        sess.run(c.initializer)
        assert not np.array_equal(sess.run(c), first)


def test_count_up_to_returns_the_old_value_until_the_limit_and_keeps_earlier_snapshots():
    # TensorFlow 2.21's compat.v1 gives 0 then 1, then OutOfRangeError "Reached limit of 2" with v at 2.
    v = tf.Variable(0, name="v")
    count = v.count_up_to(2)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v"):
            sess.run(count)
        sess.run(v.initializer)
        before = sess.run(v.read_value())
        assert [sess.run(count), sess.run(count)] == [0, 1]
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
            sess.run(count)
        assert sess.run(v) == 2 and before == 0
