"""Session.run: fetch structures, names, feeds, and the errors TensorFlow gives for bad ones."""

import collections

import numpy as np
import pytest

import numflow as tf

Pair = collections.namedtuple("Pair", "x y")


@pytest.fixture
def g(graph):
    a = tf.constant(1.0, name="a")
    b = tf.constant([1, 2], name="b")
    p = tf.placeholder(tf.float32, shape=[None, 2], name="p")
    q = tf.placeholder(tf.int32, shape=[], name="q")
    r = tf.multiply(p, 2.0, name="r")
    with tf.Session() as sess:
        yield sess, a, b, p, q, r


def _eq(x, y):
    return type(x) is type(y) and np.array_equal(x, y)


# -- fetch structures --------------------------------------------------------------------------
def test_single_tensor_gives_a_numpy_value(g):
    sess, a, b, *_ = g
    assert _eq(sess.run(a), np.float32(1.0))
    assert _eq(sess.run(b), np.array([1, 2], np.int32))


def test_list_and_tuple(g):
    sess, a, b, *_ = g
    got = sess.run([a, b])
    assert isinstance(got, list) and _eq(got[0], np.float32(1)) and _eq(got[1], np.array([1, 2], np.int32))
    got = sess.run((a, b))
    assert isinstance(got, tuple) and len(got) == 2


def test_dict_and_ordered_dict_keep_keys_and_order(g):
    sess, a, b, *_ = g
    got = sess.run({"x": a, "y": [b]})
    assert type(got) is dict and set(got) == {"x", "y"} and isinstance(got["y"], list)
    od = sess.run(collections.OrderedDict([("y", b), ("x", a)]))
    assert type(od) is collections.OrderedDict and list(od) == ["y", "x"]


def test_namedtuple(g):
    sess, a, b, *_ = g
    got = sess.run(Pair(a, b))
    assert type(got) is Pair and got.x == 1.0 and list(got.y) == [1, 2]


def test_nested_structure_with_operations(g):
    sess, a, b, *_ = g
    got = sess.run([a, (b, {"k": [a.op]})])
    assert got[0] == 1.0 and list(got[1][0]) == [1, 2] and got[1][1] == {"k": [None]}


def test_operation_fetch_gives_none(g):
    sess, a, *_ = g
    assert sess.run(a.op) is None
    assert sess.run(tf.group(a)) is None


def test_names_of_tensors_and_operations(g):
    sess, *_ = g
    assert sess.run(["a:0", "a"]) == [1.0, None]
    assert sess.run("a:0") == 1.0


def test_empty_structures(g):
    sess, *_ = g
    assert sess.run([]) == []
    assert sess.run({}) == {}
    assert sess.run(()) == ()


def test_the_same_tensor_twice(g):
    sess, a, *_ = g
    assert sess.run([a, a]) == [1.0, 1.0]


def test_fetched_arrays_are_not_shared_with_constants(g):
    sess, _, b, *_ = g
    first = sess.run(b)
    first[0] = 99
    assert list(sess.run(b)) == [1, 2]


@pytest.mark.parametrize("fetch", [None, [None]])
def test_fetch_none_is_a_type_error(g, fetch):
    sess, *_ = g
    with pytest.raises(TypeError, match="None has invalid type"):
        sess.run(fetch)


def test_fetch_of_wrong_type(g):
    sess, *_ = g
    with pytest.raises(TypeError, match="3 has invalid type .*int.*must be a string or Tensor"):
        sess.run(3)


def test_fetch_from_another_graph(g):
    sess, *_ = g
    with tf.Graph().as_default():
        other = tf.constant(1.0, name="other")
    with pytest.raises(ValueError, match="cannot be interpreted as a Tensor.*is not an element of this graph"):
        sess.run(other)
    with pytest.raises(ValueError, match="is not an element of this graph"):
        sess.run([other.op])


# -- feeds ---------------------------------------------------------------------------------------
def test_feed_by_tensor_and_by_name(g):
    sess, *_, p, q, r = g
    want = np.array([[2.0, 4.0]], np.float32)
    assert _eq(sess.run(r, {p: [[1, 2]]}), want)
    assert _eq(sess.run(r, {"p:0": [[1, 2]]}), want)
    assert _eq(sess.run(r, feed_dict={p: np.ones((3, 2))}), np.full((3, 2), 2.0, np.float32))


def test_fed_values_take_the_tensors_dtype(g):
    sess, *_, p, q, r = g
    assert sess.run(r, {p: np.ones((1, 2), np.float64)}).dtype == np.float32
    assert sess.run(q, {q: 1.5}) == 1
    assert sess.run(q, {q: True}) == 1


def test_feeding_any_tensor_replaces_its_value(g):
    sess, a, *_ = g
    assert sess.run(a * 2.0, {a: 5.0}) == 10.0
    assert sess.run(a, {a: 5.0}) == 5.0
    assert sess.run(a) == 1.0


def test_a_fed_tensor_does_not_run_its_producer(graph, test_ops):
    x = tf.placeholder(tf.float32, shape=[2])
    broken = test_ops.fail(x, message="should not run")
    y = broken * 2.0
    with tf.Session() as sess:
        assert list(sess.run(y, {broken: [1.0, 2.0]})) == [2.0, 4.0]


def test_a_control_dependency_on_a_fed_placeholder_is_met_by_the_feed(graph):
    # Checked against TF 2.21: 2.0, and the assign_add whose output is fed still runs.
    x = tf.placeholder(tf.float32, name="x")
    with tf.control_dependencies([x]):
        y = tf.identity(tf.constant(2.0))
    v = tf.Variable(0.0)
    increment = tf.assign_add(v, 1.0)
    with tf.control_dependencies([increment]):
        z = tf.identity(tf.constant(3.0))
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(y, {x: 1.0}) == 2.0
        assert sess.run(z, {increment: 5.0}) == 3.0 and sess.run(v) == 1.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder tensor 'x'"):
            sess.run(y)


def test_feed_key_from_another_graph(g):
    sess, a, *_ = g
    with tf.Graph().as_default():
        other = tf.constant(1.0)
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: .*is not an element of this "
                                        "graph."):
        sess.run(a, {other: 1.0})


@pytest.mark.parametrize("name, value, shape, want", [
    ("p", [1, 2], r"\(2,\)", r"\(\?, 2\)"),
    ("q", [1, 2], r"\(2,\)", r"\(\)"),
    ("p", np.zeros((2, 3)), r"\(2, 3\)", r"\(\?, 2\)"),
])
def test_feed_of_wrong_shape(g, name, value, shape, want):
    sess, *_, p, q, r = g
    tensor = {"p": p, "q": q}[name]
    with pytest.raises(ValueError, match=f"Cannot feed value of shape {shape} for Tensor '?{name}:0'?, which has "
                                         f"shape '?{want}'?"):
        sess.run(tensor, {tensor: value})


def test_feed_of_a_value_that_does_not_fit_the_dtype(g):
    sess, *_, q, r = g
    with pytest.raises(ValueError):
        sess.run(q, {q: "x"})
    with pytest.raises(TypeError, match="Type of feed value 1099511627776 with type <class 'int'> is not compatible "
                                        "with Tensor type"):
        sess.run(q, {q: 2**40})


def test_feed_value_that_is_a_tensor(g):
    sess, a, *_, q, r = g
    with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object."):
        sess.run(q, {q: a})


def test_unfed_placeholder_names_itself(g):
    sess, *_, p, q, r = g
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="You must feed a value for placeholder tensor 'p' with dtype float") as info:
        sess.run(r)
    assert info.value.op is p.op


def test_placeholder_with_default(graph):
    x = tf.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[None])
    with tf.Session() as sess:
        assert list(sess.run(x)) == [1.0, 2.0]
        assert list(sess.run(x, {x: [5.0]})) == [5.0]


def test_feed_by_operation_name_is_a_type_error(g):
    sess, *_, q, r = g
    with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: The name 'p' refers to an "
                                        "Operation, not a Tensor."):
        sess.run(r, {"p": [[1, 2]]})


@pytest.mark.parametrize("name, missing", [
    ("nope:0", "The name 'nope:0' refers to a Tensor which does not exist. The operation, 'nope', does not exist "
               "in the graph."),
    ("nope", "The name 'nope' refers to an Operation not in the graph."),
])
def test_fetch_of_missing_name(g, name, missing):
    sess, *_ = g
    with pytest.raises(ValueError) as info:
        sess.run(name)
    assert str(info.value) == f'Argument `fetch` = {name} cannot be interpreted as a Tensor. ("{missing}")'


def test_fetch_error_messages_are_tensorflows(g):
    sess, *_ = g
    with pytest.raises(TypeError) as info:
        sess.run([None])
    assert str(info.value) == 'Argument `fetch` = None has invalid type "NoneType". Cannot be None'
    with pytest.raises(TypeError) as info:
        sess.run(3)
    assert str(info.value) == ('Argument `fetch` = 3 has invalid type "int" must be a string or Tensor. (Can not '
                               'convert a int into a Tensor or Operation.)')


def test_feed_key_of_wrong_type_or_missing(g):
    sess, *_, q, r = g
    with pytest.raises(TypeError) as info:
        sess.run(q, {3: 1})
    assert str(info.value) == "Cannot interpret feed_dict key as Tensor: Can not convert a int into a Tensor."
    with pytest.raises(TypeError) as info:
        sess.run(q, {"zz:0": 1})
    assert str(info.value) == ("Cannot interpret feed_dict key as Tensor: The name 'zz:0' refers to a Tensor which "
                               "does not exist. The operation, 'zz', does not exist in the graph.")


def test_feed_value_errors_are_tensorflows(g):
    sess, a, *_, q, r = g
    with pytest.raises(TypeError) as info:
        sess.run(q, {q: 2**40})
    assert str(info.value) == (
        "Type of feed value 1099511627776 with type <class 'int'> is not compatible with Tensor type "
        "<class 'numpy.int32'>. Try explicitly setting the type of the feed tensor to a larger type (e.g. int64).")
    with pytest.raises(TypeError) as info:
        sess.run(q, {q: a})
    assert str(info.value).endswith(
        'the tensor object was Tensor("a:0", shape=(), dtype=float32) which was passed to the argument '
        '`feed_dict` with key Tensor("q:0", shape=(), dtype=int32).')


def test_results_never_alias_the_callers_fed_arrays(graph):
    x = tf.placeholder(tf.float32, shape=[4])
    same = tf.identity(x)
    arr = np.arange(4, dtype=np.float32)
    with tf.Session() as sess:
        fed, out, again = sess.run([x, same, same], {x: arr})
    assert fed is arr  # a fed tensor gives back what was fed, as in TensorFlow
    assert not np.shares_memory(out, arr) and out is again
    out += 10
    assert list(arr) == [0, 1, 2, 3]


def test_a_fed_scalar_comes_back_as_fed(graph):
    q = tf.placeholder(tf.float32, shape=[])
    with tf.Session() as sess:
        got = sess.run(q, {q: 1.0})
        doubled = sess.run(q * 2.0, {q: 1.0})
    assert isinstance(got, np.ndarray) and got.shape == () and got == 1.0
    assert isinstance(doubled, np.float32) and doubled == 2.0


def test_fed_strings_reach_ops_as_utf8_bytes_and_come_back_as_fed():
    """TensorFlow's ops see a fed str as its UTF-8 bytes; the fed tensor itself is fetched as it was given."""
    p = tf.placeholder(tf.string)
    n = tf.placeholder(tf.float32)
    through = tf.identity(p)
    with tf.Session() as sess:
        assert sess.run(through, {p: "x"}) == b"x"
        fed, out, number = sess.run([p, through, n], {n: 2.0, p: ["é", b"y"]})
    assert fed.tolist() == ["é", b"y"] and out.tolist() == ["é".encode(), b"y"] and number == 2.0


def test_make_callable_feeds_its_arguments_in_order_and_runs_the_fetches():
    a = tf.placeholder(tf.float32, [None], name="a")
    doubled = a * 2
    counter = tf.Variable(1.0)
    count = tf.assign_add(counter, 1.0)
    with tf.Session() as sess:
        sess.run(counter.initializer)
        both = sess.make_callable([doubled, doubled + 1], feed_list=[a])
        by_name = sess.make_callable(doubled, feed_list=["a:0"])
        step = sess.make_callable(count.op)
        np.testing.assert_array_equal(both(np.array([1.0, 2.0]))[1], [3.0, 5.0])
        np.testing.assert_array_equal(by_name([4.0]), [8.0])
        assert step() is None and sess.run(counter) == 2.0
        metadata = tf.RunMetadata()
        by_name([1.0], options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=metadata)
        assert metadata.step_stats.dev_stats
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"You must feed a value for placeholder tensor 'a' with dtype float and shape \[\?\]"):
            both()


def test_a_tuple_of_tensors_is_fed_a_tuple_of_values_leaf_by_leaf():
    # An RNN's state fed back: ``{initial_state: final_state_value}``, an LSTMStateTuple each.
    with tf.Graph().as_default(), tf.Session() as sess:
        c, h = tf.placeholder(tf.float32, [2]), tf.placeholder(tf.float32, [2])
        state = tf.nn.rnn_cell.LSTMStateTuple(c, h)
        total = c * 10.0 + h
        value = tf.nn.rnn_cell.LSTMStateTuple(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
        np.testing.assert_array_equal(sess.run(total, {state: value}), [13.0, 24.0])
        np.testing.assert_array_equal(sess.run(total, {(c, (h,)): (np.ones(2), (np.full(2, 2.0),))}), [12.0, 12.0])
        with pytest.raises(ValueError, match="Key had 2 elements, but value had 1 elements"):
            sess.run(total, {state: np.zeros(2)})
        with pytest.raises(ValueError, match="is not unique"):
            sess.run(total, {state: value, c: np.zeros(2)})
