"""variable_scope and get_variable: names, sharing, defaults and custom getters, as in TensorFlow 1.x.

Every expectation here was checked against TensorFlow 2.21's ``tf.compat.v1`` in graph mode.
"""

import threading

import numpy as np
import pytest

import numflow as tf


def _values(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


# -- names -----------------------------------------------------------------------------------------
def test_nested_scopes_name_variables_and_ops():
    with tf.variable_scope("foo"):
        with tf.variable_scope("bar") as scope:
            v = tf.get_variable("v", [1])
            x = tf.constant(1.0, name="x")
            y = 1.0 + v
    assert (v.name, x.name, y.op.name) == ("foo/bar/v:0", "foo/bar/x:0", "foo/bar/add")
    assert (scope.name, scope.original_name_scope, scope.reuse) == ("foo/bar", "foo/bar/", False)
    assert tf.get_variable_scope().name == "" and tf.get_variable_scope().original_name_scope == ""


def test_get_variable_ignores_name_scopes_and_tf_variable_does_not():
    with tf.name_scope("ns"):
        v = tf.get_variable("v", [1])
        w = tf.Variable(1.0, name="w")
    with tf.variable_scope("vs"):
        with tf.name_scope("ns2"):
            x = tf.get_variable("x", [1])
            c = tf.constant(1.0, name="c")
    assert [v.name, w.name, x.name, c.name] == ["v:0", "ns/w:0", "vs/x:0", "vs/ns2/c:0"]
    assert [x.initializer.name, x.initial_value.name] == ["vs/x/Assign", "vs/x/Initializer/random_uniform:0"]


def test_reopening_a_scope_by_name_opens_a_new_name_scope():
    with tf.variable_scope("foo") as s1:
        a = tf.constant(1.0, name="c")
    with tf.variable_scope("foo") as s2:
        b = tf.constant(1.0, name="c")
        v = tf.get_variable("v", [1])
    assert (a.name, b.name, v.name) == ("foo/c:0", "foo_1/c:0", "foo/v:0")
    assert (s1.original_name_scope, s2.original_name_scope) == ("foo/", "foo_1/")


def test_a_name_scope_of_the_same_name_pushes_the_variable_scopes_ops_aside():
    with tf.name_scope("foo"):
        a = tf.constant(1.0, name="a")
    with tf.variable_scope("foo") as s:
        b = tf.constant(1.0, name="b")
        v = tf.get_variable("v", [1])
    assert (a.name, b.name, v.name, v.initializer.name, s.original_name_scope) == (
        "foo/a:0", "foo_1/b:0", "foo/v:0", "foo/v/Assign", "foo_1/")


def test_variable_scope_inside_a_name_scope():
    with tf.name_scope("ns"):
        with tf.variable_scope("vs") as s:
            c = tf.constant(1.0, name="c")
            v = tf.get_variable("v", [1])
    assert (s.name, s.original_name_scope, c.name, v.name) == ("vs", "ns/vs/", "ns/vs/c:0", "vs/v:0")


def test_reentering_a_scope_object_keeps_its_name_and_opens_a_name_scope_where_it_is():
    with tf.variable_scope("model") as scope:
        v = tf.get_variable("v", [1])
        c1 = tf.constant(1.0, name="c")
    with tf.variable_scope(scope, reuse=True) as again:
        assert tf.get_variable("v", [1]) is v
        c2 = tf.constant(1.0, name="c")
    assert (again.name, again.original_name_scope, again.reuse) == ("model", "model/", True)
    with tf.variable_scope("other"):
        with tf.variable_scope(scope) as inside:
            c3 = tf.constant(1.0, name="c")
            with tf.variable_scope("in") as nested:
                w = tf.get_variable("w", [1])
    assert (c1.name, c2.name, c3.name) == ("model/c:0", "model_1/c:0", "other/model/c:0")
    assert (inside.reuse, nested.name, nested.original_name_scope, w.name) == (
        False, "model/in", "other/model/in/", "model/in/w:0")


def test_default_name_is_made_unique_and_counts_restart_in_each_reopened_parent():
    names = []
    for _ in range(3):
        with tf.variable_scope(None, default_name="layer") as s:
            names.append((s.name, tf.get_variable("w", [1]).name, tf.constant(1.0, name="c").name))
    assert names == [("layer", "layer/w:0", "layer/c:0"), ("layer_1", "layer_1/w:0", "layer_1/c:0"),
                     ("layer_2", "layer_2/w:0", "layer_2/c:0")]
    with tf.variable_scope("a"):
        with tf.variable_scope(None, default_name="l") as s1:
            pass
        with tf.variable_scope(None, default_name="l") as s2:
            pass
    with tf.variable_scope("a"):
        with tf.variable_scope(None, default_name="l") as s3:
            pass
    assert (s1.name, s2.name, s3.name, s3.original_name_scope) == ("a/l", "a/l_1", "a/l", "a_1/l/")
    with tf.variable_scope("x", default_name="ignored") as named:
        pass
    assert named.name == "x"


def test_default_name_is_not_unique_against_name_scopes():
    with tf.name_scope("layer"):
        pass
    with tf.variable_scope(None, default_name="layer") as s:
        c = tf.constant(1.0, name="c")
    assert (s.name, s.original_name_scope, c.name) == ("layer", "layer_1/", "layer_1/c:0")


def test_a_reentered_scope_object_keeps_the_default_name_counts_of_its_block():
    with tf.variable_scope("a") as a:
        with tf.variable_scope(None, default_name="l") as first:
            pass
        with tf.variable_scope(a):
            with tf.variable_scope(None, default_name="l") as second:
                pass
        with tf.variable_scope(None, default_name="l") as third:
            pass
    assert (first.name, second.name, third.name) == ("a/l", "a/l_1", "a/l_1")


def test_auxiliary_name_scope_false_stays_in_the_current_name_scope():
    with tf.variable_scope("s", auxiliary_name_scope=False) as s:
        c = tf.constant(1.0, name="c")
        v = tf.get_variable("v", [1])
    assert (s.name, s.original_name_scope, c.name, v.name) == ("s", "", "c:0", "s/v:0")
    with tf.variable_scope("t") as t:
        pass
    with tf.variable_scope(t, auxiliary_name_scope=False) as t2:
        d = tf.constant(1.0, name="d")
        with tf.name_scope(t2.original_name_scope):
            e = tf.constant(1.0, name="e")
    assert (t2.original_name_scope, d.name, e.name) == ("t/", "d:0", "t/e:0")


def test_an_empty_scope_name_adds_a_slash_to_variable_names_and_no_name_scope():
    with tf.variable_scope("a"):
        with tf.variable_scope("") as s:
            v = tf.get_variable("v", [1])
            c = tf.constant(1.0, name="c")
    assert (s.name, s.original_name_scope, v.name, c.name) == ("a/", "", "a//v:0", "a/c:0")


def test_scope_names_with_slashes():
    with tf.variable_scope("a/b") as s:
        v = tf.get_variable("v", [1])
        c = tf.constant(1.0, name="c")
    assert (s.name, s.original_name_scope, v.name, c.name) == ("a/b", "a/b/", "a/b/v:0", "a/b/c:0")


def test_values_pick_the_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1.0)
    with tf.variable_scope("s", values=[c]):
        v = tf.get_variable("v", [1])
    assert v.graph is g and tf.get_default_graph() is not g


# -- sharing ---------------------------------------------------------------------------------------
def test_reuse_true_is_inherited_and_false_does_not_switch_it_off():
    with tf.variable_scope("foo"):
        with tf.variable_scope("bar"):
            v = tf.get_variable("v", [1])
    with tf.variable_scope("foo", reuse=True) as s:
        with tf.variable_scope("bar") as t:
            assert tf.get_variable("v", [1]) is v
        with tf.variable_scope("bar", reuse=False) as u:
            assert tf.get_variable("v") is v
    assert (s.reuse, t.reuse, u.reuse) == (True, True, True)


def test_reuse_variables_applies_to_the_scope_and_scopes_opened_after():
    with tf.variable_scope("model") as scope:
        v = tf.get_variable("v", [1])
        scope.reuse_variables()
        assert tf.get_variable_scope().reuse is True and tf.get_variable("v", [1]) is v
        with tf.variable_scope("inner") as inner:
            assert inner.reuse is True
    with tf.variable_scope("model") as again:
        assert again.reuse is False


def test_auto_reuse_creates_then_shares_and_is_inherited():
    def f():
        with tf.variable_scope("foo", reuse=tf.AUTO_REUSE):
            return tf.get_variable("v", [1])

    assert f() is f()
    with tf.variable_scope("bar", reuse=tf.AUTO_REUSE):
        with tf.variable_scope("in") as inner:
            assert inner.reuse is tf.AUTO_REUSE
            assert tf.get_variable("c", [1]) is tf.get_variable("c", [1])
        with tf.variable_scope("in2", reuse=True) as strict:
            assert strict.reuse is True
    assert [v.name for v in tf.global_variables()] == ["foo/v:0", "bar/in/c:0"]


def test_sharing_checks_shape_compatibility_and_dtype():
    with tf.variable_scope("a"):
        v = tf.get_variable("w", [2, 3])
    with tf.variable_scope("a", reuse=True):
        assert tf.get_variable("w", [None, 3]) is v and tf.get_variable("w") is v


# -- defaults --------------------------------------------------------------------------------------
def test_scope_initializer_and_dtype_are_defaults_for_get_variable_only():
    with tf.variable_scope("s", initializer=tf.constant_initializer(3.0), dtype=tf.float64) as s:
        a = tf.get_variable("a", [2])
        b = tf.get_variable("b", [2], initializer=tf.zeros_initializer())
        c = tf.get_variable("c", [2], dtype=tf.float32)
        with tf.variable_scope("inner") as inner:
            d = tf.get_variable("d", [2])
        e = tf.Variable(1.0)
    assert [x.dtype.base_dtype for x in (a, b, c, d, e)] == [tf.float64, tf.float64, tf.float32, tf.float64,
                                                             tf.float32]
    assert (s.dtype, inner.dtype) == (tf.float64, tf.float64)
    assert [list(x) for x in _values([a, b, c, d])] == [[3, 3], [0, 0], [3, 3], [3, 3]]
    with tf.variable_scope("i", dtype=tf.int32):
        assert _values(tf.get_variable("z", [2])).tolist() == [0, 0]  # zeros for ints


def test_scope_setters():
    with tf.variable_scope("a") as s:
        s.set_initializer(tf.ones_initializer())
        s.set_dtype(tf.float64)
        v = tf.get_variable("v", [2])
    assert v.dtype == tf.float64._as_ref and _values(v).tolist() == [1.0, 1.0]


def test_get_variable_takes_shape_and_dtype_from_a_tensor_value_or_callable():
    other = tf.get_variable("other_variable", dtype=tf.int32, initializer=tf.constant([23, 42]))
    from_list = tf.get_variable("from_list", initializer=[1.0, 2.0])
    from_fn = tf.get_variable("from_fn", initializer=lambda: tf.constant([1.0, 2.0, 3.0]))
    int_from_tensor = tf.get_variable("int_from_tensor", initializer=tf.constant([1, 2]))
    assert [(v.dtype.base_dtype, v.shape.as_list()) for v in (other, from_list, from_fn, int_from_tensor)] == [
        (tf.int32, [2]), (tf.float32, [2]), (tf.float32, [3]), (tf.int32, [2])]
    assert from_list.initial_value.name == "from_list/initial_value:0"
    assert from_fn.initial_value.name == "from_fn/Initializer/Const:0"
    assert [list(x) for x in _values([other, from_list, from_fn])] == [[23, 42], [1, 2], [1, 2, 3]]


def test_get_variable_default_initializers_by_dtype():
    f = tf.get_variable("f", [3, 4])
    ints = [tf.get_variable(n, [2], dtype=d) for n, d in [("i", tf.int32), ("b", tf.bool), ("u8", tf.uint8)]]
    assert f.initial_value.op.type == "RandomUniform"  # glorot_uniform
    values = _values([f] + ints)
    assert np.abs(values[0]).max() <= np.sqrt(6 / 7) and [v.tolist() for v in values[1:]] == [[0, 0], [False] * 2,
                                                                                               [0, 0]]


def test_get_local_variable_and_the_guides_collections():
    with tf.variable_scope("s"):
        v = tf.get_local_variable("v", [2])
    my_local = tf.get_variable("my_local", shape=(), collections=[tf.GraphKeys.LOCAL_VARIABLES])
    my_non_trainable = tf.get_variable("my_non_trainable", shape=(), trainable=False)
    assert not v.trainable and v.name == "s/v:0"
    assert tf.local_variables() == [v, my_local]
    assert tf.global_variables() == [my_non_trainable]
    assert tf.trainable_variables() == [my_local]  # as in TF: collections= does not make it untrainable


# -- custom getters --------------------------------------------------------------------------------
def test_a_custom_getter_gets_tf_keyword_arguments_and_can_change_them():
    seen = []

    def getter(getter, *args, **kwargs):
        seen.append((args, sorted(kwargs), kwargs["name"], kwargs["trainable"], kwargs["reuse"]))
        kwargs["trainable"] = False
        kwargs["name"] += "_x"
        return getter(*args, **kwargs)

    with tf.variable_scope("s", custom_getter=getter):
        v = tf.get_variable("v", [2])
    assert v.name == "s/v_x:0" and tf.trainable_variables() == []
    assert seen == [((), ["aggregation", "caching_device", "collections", "constraint", "dtype", "initializer",
                          "name", "partitioner", "regularizer", "reuse", "shape", "synchronization", "trainable",
                          "use_resource", "validate_shape"], "s/v", True, False)]


def test_nested_scope_getters_compose_and_a_get_variable_getter_replaces_them():
    log = []

    def make(tag):
        def getter(getter, name, *args, **kwargs):
            log.append(f"{tag}:{name}")
            return getter(name, *args, **kwargs)

        return getter

    with tf.variable_scope("a", custom_getter=make("outer")):
        with tf.variable_scope("b", custom_getter=make("inner")):
            tf.get_variable("v", [1])
            tf.get_variable("w", [1], custom_getter=make("call"))
    assert log == ["inner:a/b/v", "outer:a/b/v", "call:a/b/w"]


def test_a_getter_without_constraint_or_kwargs_is_not_passed_one():
    def getter(getter, name, shape, dtype, initializer, regularizer, reuse, trainable, collections,
               caching_device, partitioner, validate_shape, use_resource, synchronization, aggregation):
        return getter(name, shape=shape, dtype=dtype, trainable=trainable)

    with tf.variable_scope("s", custom_getter=getter):
        assert tf.get_variable("v", [2]).name == "s/v:0"


# -- collections of a scope, threads ----------------------------------------------------------------
def test_scope_collection_methods_filter_by_the_scope_name():
    with tf.variable_scope("foo") as foo:
        a = tf.get_variable("a", [1])
        with tf.variable_scope("bar"):
            b = tf.get_variable("b", [1])
        c = tf.get_local_variable("c", [1])
    with tf.variable_scope("foobar"):
        tf.get_variable("d", [1])
    assert foo.global_variables() == [a, b] and foo.trainable_variables() == [a, b]
    assert foo.local_variables() == [c] and foo.get_collection(tf.GraphKeys.GLOBAL_VARIABLES) == [a, b]


def test_the_current_scope_belongs_to_the_thread_that_opened_it():
    seen = {}
    inside = threading.Event()
    done = threading.Event()

    def other_thread():
        inside.wait(5)
        with graph.as_default():
            seen["scope"] = tf.get_variable_scope().name
            seen["var"] = tf.get_variable("t", [1]).name
        done.set()

    graph = tf.get_default_graph()
    thread = threading.Thread(target=other_thread)
    thread.start()
    with tf.variable_scope("main_thread"):
        inside.set()
        done.wait(5)
    thread.join()
    assert seen == {"scope": "", "var": "t:0"}


def test_argument_checks():
    with pytest.raises(TypeError, match="If default_name is None then name_or_scope is required"):
        with tf.variable_scope(None):
            pass
    with pytest.raises(TypeError, match="VariableScope: name_or_scope must be a string or VariableScope."):
        with tf.variable_scope(3):
            pass
    with pytest.raises(ValueError, match="The reuse parameter must be True or False or None."):
        with tf.variable_scope("a", reuse="yes"):
            pass
    with pytest.raises(ValueError, match="reuse=True cannot be used without a name_or_scope"):
        with tf.variable_scope(None, default_name="x", reuse=True):
            pass
    with pytest.raises(TypeError, match="The auxiliary_name_scope must be `True` or `False`, while get 1"):
        with tf.variable_scope("a", auxiliary_name_scope=1):
            pass


def test_one_variable_scope_object_can_be_entered_again():
    vs = tf.variable_scope("foo")
    with vs as first:
        a = tf.get_variable("a", [1])
        c1 = tf.constant(1.0, name="c")
    with vs as second:
        assert tf.get_variable_scope().get_variable("a", [1], reuse=True) is a
        c2 = tf.constant(1.0, name="c")
    assert first is not second and (second.name, second.original_name_scope) == ("foo", "foo/")
    assert (c1.name, c2.name) == ("foo/c:0", "foo_1/c:0")
    layer = tf.variable_scope(None, default_name="layer")
    with layer as s1:
        d1 = tf.constant(1.0, name="d")
    with layer as s2:
        d2 = tf.constant(1.0, name="d")
    assert (s1.name, s2.name, d1.name, d2.name) == ("layer", "layer", "layer/d:0", "layer_1/d:0")
