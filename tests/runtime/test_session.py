"""Session lifetime and defaults: with-blocks, as_default, InteractiveSession, eval and run, closing."""

import threading

import pytest

import numflow as tf


def test_session_runs_the_default_graph_by_default():
    c = tf.constant(2.0) * 3.0
    sess = tf.Session()
    try:
        assert sess.graph is tf.get_default_graph()
        assert sess.run(c) == 6.0
    finally:
        sess.close()


def test_with_block_makes_session_and_graph_the_defaults_then_closes():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1.0)
    outer_graph = tf.get_default_graph()
    with tf.Session(graph=g) as sess:
        assert tf.get_default_session() is sess
        assert tf.get_default_graph() is g
        assert c.eval() == 1.0
    assert tf.get_default_session() is None
    assert tf.get_default_graph() is outer_graph
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        sess.run(c)


def test_as_default_does_not_close(graph):
    c = tf.constant(1.0)
    sess = tf.Session()
    with sess.as_default() as entered:
        assert entered is sess and tf.get_default_session() is sess
        assert c.eval() == 1.0
    assert tf.get_default_session() is None
    assert sess.run(c) == 1.0
    sess.close()


def test_default_sessions_nest(graph):
    tf.constant(1.0)
    s1, s2 = tf.Session(), tf.Session()
    with s1.as_default():
        with s2.as_default():
            assert tf.get_default_session() is s2
        assert tf.get_default_session() is s1
    s1.close()
    s2.close()


def test_default_session_is_per_thread(graph):
    tf.constant(1.0)
    seen = []
    with tf.Session():
        t = threading.Thread(target=lambda: seen.append(tf.get_default_session()))
        t.start()
        t.join()
    assert seen == [None]


def test_close_twice_is_harmless(graph):
    tf.constant(1.0)
    sess = tf.Session()
    sess.close()
    sess.close()
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        sess.run([])


def test_empty_graph_cannot_run():
    with pytest.raises(RuntimeError, match="The Session graph is empty. Add operations to the graph before "
                                           r"calling run\(\)."):
        tf.Session(graph=tf.Graph()).run([])


def test_empty_fetch_list_runs_nothing(graph):
    tf.constant(1.0)
    with tf.Session() as sess:
        assert sess.run([]) == []


def test_interactive_session_is_default_until_closed():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(4.0)
    sess = tf.InteractiveSession(graph=g)
    try:
        assert tf.get_default_session() is sess
        assert tf.get_default_graph() is g
        assert c.eval() == 4.0
    finally:
        sess.close()
    assert tf.get_default_session() is None
    assert tf.get_default_graph() is not g


# -- Tensor.eval and Operation.run --------------------------------------------------------------
def test_eval_with_an_explicit_session_and_feeds(graph):
    x = tf.placeholder(tf.float32, shape=[])
    y = x + 1.0
    sess = tf.Session()
    assert y.eval(feed_dict={x: 2.0}, session=sess) == 3.0
    sess.close()


def test_operation_run_uses_the_default_session(graph, test_ops):
    log = []
    x = test_ops.record(tf.constant(1.0), log, name="rec")
    with tf.Session():
        assert x.op.run() is None
    assert [name for name, _ in log] == ["rec"]


def test_eval_without_a_default_session(graph):
    c = tf.constant(1.0)
    with pytest.raises(ValueError, match=r"Cannot evaluate tensor using `eval\(\)`: No default session is "
                                         r"registered. Use `with sess.as_default\(\)` or pass an explicit "
                                         r"session to `eval\(session=sess\)`"):
        c.eval()


def test_operation_run_without_a_default_session(graph):
    c = tf.constant(1.0)
    with pytest.raises(ValueError) as info:
        c.op.run()
    assert str(info.value) == (
        "Cannot execute operation using `run()`: No default session is registered. Use `with "
        "sess.as_default():` or pass an explicit session to `run(session=sess)`")


def test_operation_run_in_sessions_of_another_graph(graph):
    c = tf.constant(1.0)
    other = tf.Graph()
    with other.as_default():
        tf.constant(1.0)
    with tf.Session(graph=other) as sess:
        with pytest.raises(ValueError) as info:
            c.op.run()
        assert str(info.value) == (
            "Cannot use the default session to execute operation: the operation's graph is different from the "
            "session's graph. Pass an explicit session to run(session=sess).")
        with pytest.raises(ValueError) as info:
            c.op.run(session=sess)
        assert str(info.value) == ("Cannot use the given session to execute operation: the operation's graph is "
                                   "different from the session's graph.")


def test_eval_in_a_default_session_of_another_graph(graph):
    c = tf.constant(1.0)
    other = tf.Graph()
    with other.as_default():
        tf.constant(1.0)
    with tf.Session(graph=other):
        with pytest.raises(ValueError, match="Cannot use the default session to evaluate tensor: the tensor's "
                                             "graph is different from the session's graph."):
            c.eval()


def test_eval_with_a_session_of_another_graph(graph):
    c = tf.constant(1.0)
    other = tf.Graph()
    with other.as_default():
        tf.constant(1.0)
    with tf.Session(graph=other) as sess:
        with pytest.raises(ValueError, match="Cannot use the given session to evaluate tensor: the tensor's graph "
                                             "is different from the session's graph."):
            c.eval(session=sess)


def test_session_config_and_target():
    config = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=1,
                            allow_soft_placement=True, log_device_placement=False)
    tf.constant(1.0)
    with tf.Session("", config=config) as sess:
        assert sess.sess_str == b""
        devices = sess.list_devices()
    assert [d.device_type for d in devices] == ["CPU"]
    assert devices[0].name == "/job:localhost/replica:0/task:0/device:CPU:0"
