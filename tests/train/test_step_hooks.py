"""GlobalStepWaiterHook and ProfilerHook in a MonitoredSession: when they let a worker start, when they
trace, and what they write (chrome-trace timelines named by the global step, RunMetadata events)."""

import json
import threading

import pytest

import numflow as tf


def _training_graph():
    step = tf.train.get_or_create_global_step()
    weight = tf.Variable(1.0, name="w")
    train = tf.group(tf.assign_add(weight, 1.0), tf.assign_add(step, 1))
    return step, train


def test_waiter_starts_once_another_session_moves_the_step():
    with tf.Graph().as_default():
        step, train = _training_graph()
        bump = tf.assign(step, 5)
        server = tf.train.Server.create_local_server()
        hook = tf.train.GlobalStepWaiterHook(wait_until_step=5)
        with tf.Session(server.target) as chief:
            chief.run(tf.global_variables_initializer())
            timer = threading.Timer(0.2, lambda: chief.run(bump))
            timer.start()
            with tf.train.MonitoredSession(tf.train.WorkerSessionCreator(master=server.target), hooks=[hook]) as sess:
                sess.run(train)
                assert sess.run(step) == 6  # the step the chief set, and the worker's own increment
            timer.join()


def test_waiter_of_step_zero_runs_at_once_and_needs_a_global_step():
    with tf.Graph().as_default():
        step, train = _training_graph()
        with tf.train.MonitoredSession(hooks=[tf.train.GlobalStepWaiterHook(0)]) as sess:
            sess.run(train)
            assert sess.run(step) == 1
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(RuntimeError, match="Global step should be created to use _GlobalStepWaiterHook."):
            tf.train.MonitoredSession(hooks=[tf.train.GlobalStepWaiterHook(3)])


def test_profiler_writes_a_timeline_every_save_steps(tmp_path):
    with tf.Graph().as_default():
        _, train = _training_graph()
        hook = tf.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            for _ in range(5):
                sess.run(train)
    # The files TensorFlow 2.21 writes for this loop: the first run sets the timer at step 0, the second
    # and fourth runs (global steps 2 and 4 after them) are traced.
    assert sorted(p.name for p in tmp_path.glob("timeline-*.json")) == ["timeline-2.json", "timeline-4.json"]
    trace = json.loads((tmp_path / "timeline-2.json").read_text())
    names = {event.get("args", {}).get("name") for event in trace["traceEvents"]}
    assert {"AssignAdd", "AssignAdd_1"} <= names
    tf.summary.FileWriterCache.get(str(tmp_path)).flush()
    events = list(tf.train.summary_iterator(str(next(tmp_path.glob("events.out.tfevents.*")))))
    assert [e.tagged_run_metadata.tag for e in events if e.HasField("tagged_run_metadata")] == ["step_2", "step_4"]
