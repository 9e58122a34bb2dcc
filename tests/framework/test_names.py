"""Operation names and name scopes, as TensorFlow 1.x assigns them."""

import pytest

import numflow as tf


def test_repeated_names_get_numbered_suffixes(graph):
    names = [tf.constant(1, name="a").op.name for _ in range(3)]
    assert names == ["a", "a_1", "a_2"]


def test_default_name_is_the_op_type(graph):
    assert tf.placeholder(tf.float32).op.name == "Placeholder"
    assert tf.placeholder(tf.float32).op.name == "Placeholder_1"
    assert tf.no_op().name == "NoOp"


def test_names_clash_regardless_of_case(graph):
    assert tf.constant(1, name="a").op.name == "a"
    assert tf.constant(1, name="A").op.name == "A_1"
    assert tf.constant(1, name="a").op.name == "a_2"


def test_an_explicit_suffixed_name_skips_taken_names(graph):
    tf.constant(1, name="a")
    tf.constant(1, name="a")  # a_1
    assert tf.constant(1, name="a_1").op.name == "a_1_1"


def test_a_numbered_name_taken_first_is_skipped_later(graph):
    tf.constant(1, name="b_1")
    assert [tf.constant(1, name="b").op.name for _ in range(2)] == ["b", "b_2"]


def test_unique_name_without_marking_does_not_reserve(graph):
    assert graph.unique_name("foo") == "foo"
    assert graph.unique_name("foo", mark_as_used=False) == "foo_1"
    assert graph.unique_name("foo", mark_as_used=False) == "foo_1"
    assert graph.unique_name("foo") == "foo_1"
    assert graph.unique_name("Foo") == "Foo_2"


def test_name_scopes_nest_and_prefix_op_names(graph):
    with tf.name_scope("outer") as outer:
        with tf.name_scope("inner") as inner:
            c = tf.constant(1, name="c")
            assert graph.get_name_scope() == "outer/inner"
    assert (outer, inner) == ("outer/", "outer/inner/")
    assert c.name == "outer/inner/c:0"
    assert graph.get_name_scope() == ""


def test_reopening_a_scope_by_name_makes_a_new_one(graph):
    with tf.name_scope("x") as first:
        pass
    with tf.name_scope("x") as second:
        pass
    assert (first, second) == ("x/", "x_1/")


def test_a_scope_name_ending_in_slash_reenters_it(graph):
    with tf.name_scope("x") as scope:
        c1 = tf.constant(1, name="c")
    with tf.name_scope(scope) as again:
        c2 = tf.constant(1, name="c")
    assert again == "x/"
    assert (c1.op.name, c2.op.name) == ("x/c", "x/c_1")


def test_an_absolute_scope_inside_another_scope_ignores_it(graph):
    with tf.name_scope("a"):
        with tf.name_scope("b/") as scope:
            c = tf.constant(1, name="c")
    assert scope == "b/"
    assert c.op.name == "b/c"


def test_a_deep_absolute_scope_is_used_as_written(graph):
    with tf.name_scope("x/y/") as scope:
        c = tf.constant(1, name="q")
    assert scope == "x/y/"
    assert c.name == "x/y/q:0"


@pytest.mark.parametrize("reset", [None, ""])
def test_none_or_empty_scope_resets_to_the_root(graph, reset):
    with tf.name_scope("x"):
        with tf.name_scope(reset) as scope:
            c = tf.constant(1, name="z")
            assert graph.get_name_scope() == ""
        d = tf.constant(1, name="z")
    assert scope == ""
    assert (c.op.name, d.op.name) == ("z", "x/z")


def test_default_name_is_used_and_uniquified_when_name_is_none(graph):
    with tf.name_scope(None, default_name="d") as first:
        pass
    with tf.name_scope(None, default_name="d") as second:
        pass
    with tf.name_scope("given", default_name="d") as given:
        pass
    assert (first, second, given) == ("d/", "d_1/", "given/")


def test_name_scope_follows_the_graph_of_its_values():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1.0)
    with tf.name_scope("s", values=[c]) as scope:
        assert tf.get_default_graph() is g
        d = tf.identity(c)
    assert scope == "s/"
    assert d.graph is g and d.op.name == "s/Identity"


def test_op_name_ending_in_slash_is_used_without_it(graph):
    with tf.name_scope("ignored"):
        c = tf.constant(1, name="a/b/c/")
    assert c.name == "a/b/c:0"


def test_a_scope_name_and_an_op_name_share_the_counter(graph):
    with tf.name_scope("layer"):
        pass
    assert tf.constant(1, name="layer").op.name == "layer_1"


def test_scopes_are_per_graph():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default(), tf.name_scope("s"):
        with g2.as_default():
            c = tf.constant(1, name="c")
    assert c.op.name == "c"


@pytest.mark.parametrize("name", ["_bad", "a b", "-x", "/x"])
def test_invalid_root_scope_names(graph, name):
    with pytest.raises(ValueError, match=f"'{name}' is not a valid root scope name. A root scope name has to "
                                         "match the following pattern: "):
        with tf.name_scope(name):
            pass


@pytest.mark.parametrize("name", ["_ok", "-ok", "ok/"])
def test_nested_scopes_accept_more_first_characters(graph, name):
    with tf.name_scope("x"):
        with tf.name_scope(name) as scope:
            pass
    assert scope == (name if name.endswith("/") else f"x/{name}/")


def test_invalid_nested_scope_name(graph):
    with tf.name_scope("x"):
        with pytest.raises(ValueError, match="'a b' is not a valid scope name. A scope name has to match the "
                                             "following pattern: "):
            with tf.name_scope("a b"):
                pass


@pytest.mark.parametrize("name", ["a b", "_a", "a:0"])
def test_invalid_op_names(graph, name):
    with pytest.raises(ValueError, match=f"`{name}` is not a valid node name. Accepted names conform to Regex"):
        tf.constant(1, name=name)
