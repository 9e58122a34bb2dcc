"""Run traces: RunOptions/RunMetadata step stats, the Chrome-trace timeline, log_device_placement."""

import json
import threading

import pytest

import numflow as tf
from numflow.tools import timeline

FULL = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


def _traced(sess, fetches, **kwargs):
    metadata = tf.RunMetadata()
    value = sess.run(fetches, options=FULL, run_metadata=metadata, **kwargs)
    return value, metadata


def _node_stats(metadata):
    return [ns for dev in metadata.step_stats.dev_stats for ns in dev.node_stats]


def test_full_trace_records_every_op_once(graph):
    a = tf.constant(2.0, name="a")
    b = tf.square(a, name="b")
    c = tf.add(b, a, name="c")
    with tf.Session() as sess:
        value, metadata = _traced(sess, c)
    assert value == 6.0
    stats = _node_stats(metadata)
    assert sorted(ns.node_name for ns in stats) == ["a", "b", "c"]
    assert [dev.device for dev in metadata.step_stats.dev_stats] == [CPU0]
    for ns in stats:
        assert ns.all_end_rel_micros >= 0 and ns.all_start_micros > 0
        assert ns.thread_id == threading.get_ident()
    labels = {ns.node_name: ns.timeline_label for ns in stats}
    assert labels == {"a": "a = Const()", "b": "b = Square(a)", "c": "c = AddV2(b, a)"}


def test_no_trace_without_full_trace_options(graph):
    c = tf.constant(1.0)
    with tf.Session() as sess:
        metadata = tf.RunMetadata()
        sess.run(c, run_metadata=metadata)
        sess.run(c, options=tf.RunOptions(), run_metadata=metadata)
    assert metadata.step_stats.dev_stats == []


def test_a_failing_traced_run_still_records_the_ops_that_ran(graph, test_ops):
    bad = test_ops.fail(tf.constant([1.0]), name="bad")
    with tf.Session() as sess:
        metadata = tf.RunMetadata()
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(bad, options=FULL, run_metadata=metadata)
    assert "bad" in [ns.node_name for ns in _node_stats(metadata)]


def _trace(metadata, **kwargs):
    return json.loads(timeline.Timeline(metadata.step_stats).generate_chrome_trace_format(**kwargs))


def test_timeline_is_chrome_trace_json_with_one_event_per_op(graph):
    a = tf.constant(2.0, name="a")
    b = tf.square(a, name="b")
    with tf.Session() as sess:
        _, metadata = _traced(sess, b)
    trace = _trace(metadata)
    events = trace["traceEvents"]
    ops = [e for e in events if e["ph"] == "X"]
    assert sorted(e["args"]["name"] for e in ops) == ["a", "b"]
    for e in ops:
        assert e["cat"] == "Op" and e["name"] == e["args"]["op"]
        assert isinstance(e["ts"], int) and isinstance(e["dur"], int) and e["dur"] >= 0
    assert {e["args"]["name"]: e["name"] for e in ops} == {"a": "Const", "b": "Square"}
    assert [e for e in ops if e["args"]["name"] == "b"][0]["args"]["input0"] == "a"
    processes = {e["args"]["name"]: e["pid"] for e in events if e["name"] == "process_name"}
    assert set(processes) == {"Allocators", f"{CPU0} Compute", f"{CPU0} Tensors"}
    assert {e["pid"] for e in ops} == {processes[f"{CPU0} Compute"]}
    lanes = [e for e in events if e["name"] == "thread_name"]
    assert len(lanes) == 1 and lanes[0]["args"]["name"] == threading.current_thread().name


def test_parallel_ops_appear_on_two_thread_lanes_with_dataflow(graph, test_ops):
    barrier = threading.Barrier(2)
    x = tf.constant([1.0], name="x")
    left = test_ops.barrier(x, barrier, name="left")
    right = test_ops.barrier(x, barrier, name="right")
    total = tf.add(left, right, name="total")
    config = tf.ConfigProto(inter_op_parallelism_threads=2)
    with tf.Session(config=config) as sess:
        value, metadata = _traced(sess, total)
    assert list(value) == [2.0]
    trace = _trace(metadata, show_dataflow=True)
    ops = {e["args"]["name"]: e for e in trace["traceEvents"] if e["ph"] == "X"}
    assert set(ops) == {"x", "left", "right", "total"}
    assert ops["left"]["tid"] != ops["right"]["tid"]
    stats = {ns.node_name: ns for ns in _node_stats(metadata)}
    assert stats["left"].thread_id != stats["right"].thread_id
    # Both waited on the barrier, so their spans overlap.
    for first, second in (("left", "right"), ("right", "left")):
        assert ops[first]["ts"] <= ops[second]["ts"] + ops[second]["dur"]
    lanes = [e for e in trace["traceEvents"] if e["name"] == "thread_name"]
    assert len({e["tid"] for e in lanes}) == len(lanes) >= 2
    flows = [e for e in trace["traceEvents"] if e["ph"] in "st"]
    assert flows and len(flows) % 2 == 0
    ends = [e for e in flows if e["ph"] == "t"]
    assert all(e["cat"] == "DataFlow" for e in flows)
    assert {e["name"] for e in ends} <= {"x", "left", "right"}
    assert all(e["ph"] not in "st" for e in _trace(metadata, show_dataflow=False)["traceEvents"])


def test_timeline_of_an_empty_step():
    trace = json.loads(timeline.Timeline(tf.RunMetadata().step_stats).generate_chrome_trace_format())
    assert trace == {"traceEvents": [{"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "Allocators"}}]}


def test_log_device_placement_prints_each_op_once_per_plan(graph, capsys):
    x = tf.constant(1.0, name="x")
    y = tf.square(x, name="y")
    with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
        sess.run(y)
        first = capsys.readouterr().out
        sess.run(y)
        second = capsys.readouterr().out
    assert sorted(first.splitlines()) == [f"x: (Const): {CPU0}", f"y: (Square): {CPU0}"]
    assert second == ""


def test_no_placement_log_by_default(graph, capsys):
    with tf.Session() as sess:
        sess.run(tf.constant(1.0))
    assert capsys.readouterr().out == ""


def test_a_traced_loop_records_its_body_once_per_iteration_and_a_cond_its_taken_branch(graph):
    i = tf.while_loop(lambda i: i < 3, lambda i: tf.add(i, 1, name="step"), [0], name="loop")
    pick = tf.placeholder(tf.bool, [], name="pick")
    c = tf.cond(pick, lambda: tf.multiply(tf.constant(1.0), 2.0, name="taken"),
                lambda: tf.add(tf.constant(3.0), 1.0, name="skipped"), name="choice")
    with tf.Session() as sess:
        value, metadata = _traced(sess, [i, c], feed_dict={pick: True})
    assert value == [3, 2.0]
    counts = {}
    for ns in _node_stats(metadata):
        counts[ns.node_name] = counts.get(ns.node_name, 0) + 1
    assert counts["loop/step"] == 3 and counts["loop/Less"] == 4  # the condition once more, false
    assert counts["choice/taken"] == 1 and "choice/skipped" not in counts
    assert counts["loop/While"] == counts["choice/If"] == 1


def test_a_traced_run_takes_the_way_an_untraced_run_would(graph):
    a = tf.square(tf.placeholder(tf.float32, [None], name="x"), name="a")
    b = tf.square(tf.placeholder(tf.float32, [None], name="y"), name="b")
    total = a + b
    feed = {"x:0": [1.0, 2.0], "y:0": [3.0, 4.0]}
    with tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=2)) as sess:
        for _ in range(10):
            sess.run(total, feed)
        (plan,) = sess._plans.values()
        for _ in range(3):
            way, runs = plan.ways.choose(), list(plan.ways.runs)
            value, metadata = _traced(sess, total, feed_dict=feed)
            runs[way] += 1
            assert plan.ways.runs == runs
            assert list(value) == [10.0, 20.0]
            assert {ns.node_name for ns in _node_stats(metadata)} == {"a", "b", "add"}
