"""Graph collections: GraphKeys, add, get with a scope filter, live references, keys."""

import pytest

import numflow as tf


def test_graph_keys_have_tensorflow_values():
    assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
    assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
    assert tf.GraphKeys.LOCAL_VARIABLES == "local_variables"
    assert tf.GraphKeys.UPDATE_OPS == "update_ops"
    assert tf.GraphKeys.SAVERS == "savers"
    assert tf.GraphKeys.VARIABLES == tf.GraphKeys.GLOBAL_VARIABLES


def test_add_and_get_keep_insertion_order(graph):
    a = tf.constant(1, name="a")
    b = tf.constant(2, name="b")
    tf.add_to_collection("k", b)
    tf.add_to_collection("k", a)
    tf.add_to_collection("k", 5)
    assert tf.get_collection("k") == [b, a, 5]
    assert graph.get_collection("k") == [b, a, 5]


def test_missing_collection_is_empty_and_not_created(graph):
    assert tf.get_collection("missing") == []
    assert "missing" not in tf.get_all_collection_keys()


def test_get_collection_returns_a_copy(graph):
    tf.add_to_collection("k", 1)
    items = tf.get_collection("k")
    items.append(2)
    assert tf.get_collection("k") == [1]


def test_get_collection_ref_is_live(graph):
    ref = tf.get_collection_ref("k")
    assert ref == [] and "k" in tf.get_all_collection_keys()
    tf.add_to_collection("k", 1)
    ref.append(2)
    assert tf.get_collection("k") == [1, 2]
    assert tf.get_collection_ref("k") is ref
    del ref[:]
    assert tf.get_collection("k") == []


def test_scope_filters_by_name_with_a_regex_from_the_start(graph):
    top = tf.constant(1, name="a")
    with tf.name_scope("x"):
        in_x = tf.constant(1, name="c")
    with tf.name_scope("xy"):
        in_xy = tf.constant(1, name="c")
    with tf.name_scope("y"):
        with tf.name_scope("x"):
            in_y_x = tf.constant(1, name="c")
    for item in (top, in_x, in_xy, in_y_x, "no name", 5):
        tf.add_to_collection("k", item)
    assert tf.get_collection("k", scope="x") == [in_x, in_xy]
    assert tf.get_collection("k", scope="x/") == [in_x]
    assert tf.get_collection("k", scope=".*x/") == [in_x, in_y_x]
    assert tf.get_collection("k", scope="a") == [top]
    assert tf.get_collection("k", scope="nothing") == []


def test_add_to_collections_with_one_name_or_several(graph):
    tf.add_to_collections("one", 1)
    tf.add_to_collections(["m", "n"], 2)
    tf.add_to_collections(("d", "d"), 3)  # a name repeated: added once
    assert sorted(tf.get_all_collection_keys()) == ["d", "m", "n", "one"]
    assert (tf.get_collection("one"), tf.get_collection("m"), tf.get_collection("n")) == ([1], [2], [2])
    assert tf.get_collection("d") == [3]


def test_collections_are_per_graph(graph):
    tf.add_to_collection("k", 1)
    other = tf.Graph()
    assert other.get_collection("k") == []
    with other.as_default():
        assert tf.get_collection("k") == []


def test_all_collection_keys_lists_string_keys_only(graph):
    graph.add_to_collection("k", 1)
    graph.add_to_collection(("not", "a", "string"), 1)
    assert graph.get_all_collection_keys() == ["k"]


def test_clear_collection(graph):
    graph.add_to_collection("k", 1)
    graph.clear_collection("k")
    assert graph.get_collection("k") == []
    graph.clear_collection("never")


@pytest.mark.parametrize("key", [tf.GraphKeys.GLOBAL_VARIABLES, "custom"])
def test_get_collection_ref_creates_the_key(graph, key):
    graph.get_collection_ref(key)
    assert key in graph.get_all_collection_keys()


def test_a_finalized_graph_refuses_collection_changes(graph):
    graph.add_to_collection("k", 1)
    graph.finalize()
    for change in (lambda: graph.add_to_collection("k", 2), lambda: graph.add_to_collections(["k"], 2),
                   lambda: graph.clear_collection("k")):
        with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified."):
            change()
    assert graph.get_collection("k") == [1]
    assert graph.get_collection_ref("k") == [1]
