"""The Graph: default graphs, lookup by name, control dependencies, finalize and the version counter."""

import threading

import pytest

import numflow as tf


# -- default graph -----------------------------------------------------------------------------
def test_as_default_nests_and_restores():
    outer = tf.get_default_graph()
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default() as entered:
        assert entered is g1 and tf.get_default_graph() is g1
        with g2.as_default():
            assert tf.get_default_graph() is g2
        assert tf.get_default_graph() is g1
    assert tf.get_default_graph() is outer


def test_ops_go_to_the_default_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1.0)
    assert c.graph is g and c.op.graph is g
    assert g.get_operations() == [c.op]
    assert tf.get_default_graph().get_operations() == []


def test_reset_default_graph_replaces_the_global_graph():
    before = tf.get_default_graph()
    tf.constant(1)
    tf.reset_default_graph()
    after = tf.get_default_graph()
    assert after is not before and after.get_operations() == []


def test_reset_default_graph_calls_the_hooks_registered_for_it(monkeypatch):
    from numflow.framework import graph as graph_module

    calls = []
    monkeypatch.setattr(graph_module, "_reset_hooks", [*graph_module._reset_hooks])
    graph_module.on_reset_default_graph(lambda: calls.append(tf.get_default_graph()))
    tf.reset_default_graph()
    assert calls == [tf.get_default_graph()]


def test_reset_default_graph_drops_the_default_sessions():
    # numflow's choice: TensorFlow keeps a session made default with as_default(), running an old graph.
    sess = tf.Session(graph=tf.Graph())
    with sess.as_default():
        tf.reset_default_graph()
        assert tf.get_default_session() is None
    sess.close()


def test_reset_default_graph_inside_a_nested_graph_raises():
    with tf.Graph().as_default():
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            tf.reset_default_graph()


def test_each_thread_starts_on_the_global_default_graph():
    # numflow shares the global default graph between threads; TensorFlow gives each thread its own
    # (a script correct under TF stays correct). `as_default` stacks are per thread in both.
    seen = []
    with tf.Graph().as_default():
        t = threading.Thread(target=lambda: seen.append(tf.get_default_graph()))
        t.start()
        t.join()
    assert seen == [tf.get_default_graph()]


# -- lookup ------------------------------------------------------------------------------------
def test_get_operations_in_creation_order(graph):
    ops = [tf.constant(i, name=f"c{i}").op for i in range(5)]
    assert graph.get_operations() == ops


def test_get_operation_and_tensor_by_name(graph):
    c = tf.constant(1.0, name="c")
    assert graph.get_operation_by_name("c") is c.op
    assert graph.get_tensor_by_name("c:0") is c


def test_get_operation_by_name_missing(graph):
    with pytest.raises(KeyError, match="The name 'nope' refers to an Operation not in the graph."):
        graph.get_operation_by_name("nope")


def test_get_operation_by_name_of_a_tensor(graph):
    tf.constant(1, name="a")
    with pytest.raises(ValueError, match="Name 'a:0' appears to refer to a Tensor, not a"):
        graph.get_operation_by_name("a:0")


def test_get_operation_by_name_needs_a_string(graph):
    with pytest.raises(TypeError, match="Operation names are strings"):
        graph.get_operation_by_name(3)
    with pytest.raises(TypeError, match="Tensor names are strings"):
        graph.get_tensor_by_name(3)


def test_get_tensor_by_name_missing_op(graph):
    msg = ("The name 'nope:0' refers to a Tensor which does not exist. The operation, 'nope', does not exist "
           "in the graph.")
    with pytest.raises(KeyError, match=msg):
        graph.get_tensor_by_name("nope:0")


def test_get_tensor_by_name_output_out_of_range(graph):
    tf.constant(1, name="a")
    with pytest.raises(KeyError, match="The operation, 'a', exists but only has 1 outputs."):
        graph.get_tensor_by_name("a:1")


def test_as_graph_element_rejects_elements_of_other_graphs(graph):
    with tf.Graph().as_default():
        other = tf.constant(1.0)
    with pytest.raises(ValueError, match="is not an element of this graph"):
        graph.as_graph_element(other)


def test_inputs_from_another_graph_are_rejected(graph):
    a = tf.constant(1.0, name="a")
    with tf.Graph().as_default():
        b = tf.constant(1.0, name="b")
    msg = (r'Tensor\("b:0", shape=\(\), dtype=float32\) must be from the same graph as '
           r'Tensor\("a:0", shape=\(\), dtype=float32\) \(graphs are ')
    with pytest.raises(ValueError, match=msg):
        tf.add(a, b)


# -- control dependencies ------------------------------------------------------------------------
def _names(ops):
    return [op.name for op in ops]


def test_control_dependencies_apply_to_ops_created_inside(graph):
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        c = tf.identity(b, name="c")
    d = tf.identity(b, name="d")
    assert _names(c.op.control_inputs) == ["a"]
    assert d.op.control_inputs == []


def test_control_dependencies_nest_and_accumulate(graph):
    a, b, x = (tf.constant(float(i), name=n) for i, n in enumerate("abx"))
    with tf.control_dependencies([a]):
        with tf.control_dependencies([b.op]):
            c = tf.identity(x, name="c")
    assert _names(c.op.control_inputs) == ["a", "b"]


def test_control_dependencies_none_clears_then_restores(graph):
    a, b, x = (tf.constant(float(i), name=n) for i, n in enumerate("abx"))
    with tf.control_dependencies([a]):
        with tf.control_dependencies(None):
            cleared = tf.identity(x)
            with tf.control_dependencies([b]):
                only_b = tf.identity(x)
        restored = tf.identity(x)
    assert cleared.op.control_inputs == []
    assert _names(only_b.op.control_inputs) == ["b"]
    assert _names(restored.op.control_inputs) == ["a"]


def test_a_data_input_is_not_also_a_control_input(graph):
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a, b]):
        c = tf.identity(a, name="c")
    assert _names(c.op.control_inputs) == ["b"]
    assert list(c.op.inputs) == [a]


def test_repeated_control_inputs_are_listed_once(graph):
    a = tf.constant(1.0, name="a")
    with tf.control_dependencies([a, a]):
        with tf.control_dependencies([a]):
            c = tf.constant(0.0, name="c")
    assert _names(c.op.control_inputs) == ["a"]


def test_an_input_created_in_the_block_already_carries_its_controls(graph):
    a, b, x = (tf.constant(float(i), name=n) for i, n in enumerate("abx"))
    with tf.control_dependencies([a]):
        with tf.control_dependencies([b]):
            one = tf.constant(1.0, name="one")  # created inside both blocks: runs after a and b
            y = tf.add(x, one, name="y")
            z = tf.identity(x, name="z")
    assert _names(one.op.control_inputs) == ["a", "b"]
    assert y.op.control_inputs == []
    assert _names(z.op.control_inputs) == ["a", "b"]


def test_an_input_from_an_inner_block_skips_only_that_blocks_controls(graph):
    a, b, x = (tf.constant(float(i), name=n) for i, n in enumerate("abx"))
    with tf.control_dependencies([a]):
        outside_b = tf.identity(x, name="outside_b")
        with tf.control_dependencies([b]):
            y = tf.add(outside_b, x, name="y")
    assert _names(y.op.control_inputs) == ["b"]


def test_control_inputs_by_name(graph):
    a = tf.constant(1.0, name="a")
    with tf.control_dependencies(["a", "a:0"]):
        c = tf.constant(2.0, name="c")
    assert c.op.control_inputs == [a.op]


def test_control_dependencies_reject_non_graph_elements(graph):
    with pytest.raises(TypeError, match="Can not convert a int into a Tensor or Operation."):
        with tf.control_dependencies([1]):
            pass


def test_control_dependencies_reject_other_graphs(graph):
    with tf.Graph().as_default():
        other = tf.constant(1)
    with pytest.raises(ValueError, match="not an element of this graph|same graph"):
        with tf.control_dependencies([other]):
            pass


def test_group_runs_after_all_its_inputs(graph):
    a, b = tf.constant(1.0, name="a"), tf.constant(2.0, name="b")
    g = tf.group(a, b.op, name="g")
    assert g.type == "NoOp" and _names(g.control_inputs) == ["a", "b"]


# -- finalize and version ----------------------------------------------------------------------
def test_finalize_forbids_new_ops(graph):
    tf.constant(1.0)
    assert not graph.finalized
    graph.finalize()
    assert graph.finalized
    with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified."):
        tf.constant(2.0)


def test_a_finalized_graph_can_still_be_run(graph):
    c = tf.constant(3.0) * 2.0
    graph.finalize()
    with tf.Session() as sess:
        assert sess.run(c) == 6.0


def test_version_grows_with_every_op(graph):
    v0 = graph.version
    tf.constant(1.0)
    v1 = graph.version
    tf.constant(2.0)
    assert v0 < v1 < graph.version


def test_lookups_do_not_change_the_version(graph):
    c = tf.constant(1.0, name="c")
    v = graph.version
    graph.get_operation_by_name("c")
    graph.get_tensor_by_name("c:0")
    graph.get_operations()
    with tf.name_scope("s"):
        pass
    with tf.Session() as sess:
        sess.run(c)
    assert graph.version == v


# -- tensors and operations --------------------------------------------------------------------
def test_tensor_and_operation_attributes(graph):
    x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
    y = tf.identity(x, name="y")
    assert (y.name, y.value_index, y.dtype, y.shape.as_list()) == ("y:0", 0, tf.float32, [None, 3])
    assert y.get_shape() == y.shape
    assert (y.op.name, y.op.type, list(y.op.inputs), y.op.outputs) == ("y", "Identity", [x], [y])
    assert y.graph is graph and y.op.graph is graph
    assert x.consumers() == [y.op]


def test_tensors_hash_and_compare_by_identity(graph):
    a = tf.constant(1.0)
    b = tf.constant(1.0)
    assert a == a and a != b
    assert len({a, b, a}) == 2


def test_tensor_in_a_python_condition_raises(graph):
    with pytest.raises(TypeError, match="`tf.Tensor` as a Python `bool` is not allowed."):
        if tf.constant(True):
            pass


def test_operators_build_ops(graph):
    a = tf.constant(6.0)
    b = tf.constant(4.0)
    exprs = [a + b, a - b, a * b, a / b, a // b, a % b, a ** b, -a, abs(a), a < b, a <= b, a > b, a >= b,
             2.0 - a, 12.0 / a]
    with tf.Session() as sess:
        got = sess.run(exprs)
    assert [float(v) for v in got] == [10, 2, 24, 1.5, 1, 2, 1296, -6, 6, 0, 0, 1, 1, -4, 2]


# -- lookup errors in TensorFlow's words ---------------------------------------------------------
def test_get_tensor_by_name_of_an_operation(graph):
    tf.constant(1, name="a")
    msg = 'The name \'a\' refers to an Operation, not a Tensor. Tensor names must be of the form "<op_name>:'
    with pytest.raises(ValueError, match=msg):
        graph.get_tensor_by_name("a")
    with pytest.raises(ValueError, match="The name 'nope' looks like an \\(invalid\\) Operation name, not a Tensor."):
        graph.get_tensor_by_name("nope")


@pytest.mark.parametrize("name", ["a:0:0", "a:x", "a:"])
def test_get_tensor_by_name_malformed(graph, name):
    tf.constant(1, name="a")
    with pytest.raises(ValueError, match=f"The name '{name}' looks a like a Tensor name, but is not a valid one."):
        graph.get_tensor_by_name(name)


def test_as_graph_element_by_name_and_kind(graph):
    c = tf.constant(1, name="a")
    assert graph.as_graph_element("a:0") is c
    assert graph.as_graph_element("a") is c.op
    assert graph.as_graph_element(c, allow_operation=False) is c
    with pytest.raises(TypeError, match="Can not convert a Operation into a Tensor."):
        graph.as_graph_element(c.op, allow_operation=False)
    with pytest.raises(TypeError, match="Can not convert a int into a Tensor or Operation."):
        graph.as_graph_element(3)


def test_elements_of_another_graph_are_named_in_the_error(graph):
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    msg = r'Tensor Tensor\("other:0", shape=\(\), dtype=float32\) is not an element of this graph.'
    with pytest.raises(ValueError, match=msg):
        graph.as_graph_element(other)
    with pytest.raises(ValueError, match="(?s)Operation .*other.* is not an element of this graph."):
        graph.as_graph_element(other.op)


def test_tensor_str_and_repr(graph):
    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    assert str(x) == 'Tensor("x:0", shape=(?, 2), dtype=float32)'
    assert repr(x) == "<tf.Tensor 'x:0' shape=(?, 2) dtype=float32>"


def test_an_empty_graph_is_true():
    g = tf.Graph()
    assert g and not g.get_operations()
    assert (g or None) is g


def test_operation_traceback_points_at_the_creating_line(graph):
    c = tf.constant(1.0, name="here")
    frames = [f for f in c.op.traceback if f.filename == __file__]
    assert frames[-1].name == "test_operation_traceback_points_at_the_creating_line"
    assert frames[-1].line == 'c = tf.constant(1.0, name="here")'
    assert c.op.traceback[0].filename != __file__  # outermost frame first
