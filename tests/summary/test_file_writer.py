"""FileWriter's event files, read back by TensorBoard's own readers and served by TensorBoard itself."""

import json
import os
import pathlib
import re
import subprocess
import sys
import time
import urllib.request
import warnings

import numpy as np
import pytest

import numflow as tf

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden" / "summaries"
event_accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")


def _accumulate(logdir):
    accumulator = event_accumulator.EventAccumulator(str(logdir), size_guidance={event_accumulator.TENSORS: 0})
    accumulator.Reload()
    return accumulator


def _events(logdir):
    (path,) = pathlib.Path(logdir).glob("events.out.tfevents.*")
    return list(tf.train.summary_iterator(str(path)))


def _train(logdir, steps=3):
    """A small graph with name scopes and every kind of summary; ``steps`` steps written to ``logdir``."""
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    with tf.name_scope("layer"):
        w = tf.Variable([[0.5], [-1.0]], name="w")
        y = tf.matmul(x, w)
    loss = tf.reduce_mean(tf.square(y), name="mse")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("w", w)
    tf.summary.image("inputs", tf.reshape(x, [-1, 1, 2, 1]), max_outputs=1)
    tf.summary.text("note", tf.constant("hello"))
    merged = tf.summary.merge_all()
    feed = {x: [[1.0, 2.0], [3.0, -1.0]]}
    losses = []
    with tf.Session() as sess, tf.summary.FileWriter(logdir, sess.graph) as writer:
        sess.run(tf.global_variables_initializer())
        for step in range(steps):
            metadata = tf.RunMetadata()
            options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE) if step == 1 else None
            summary, value, _ = sess.run([merged, loss, train], feed, options=options, run_metadata=metadata)
            writer.add_summary(summary, global_step=step)
            losses.append(float(value))
            if step == 1:
                writer.add_run_metadata(metadata, "step1", global_step=step)
    return losses


def test_tensorboards_reader_sees_every_summary_graph_and_run_metadata(tmp_path):
    losses = _train(tmp_path)
    acc = _accumulate(tmp_path)
    tags = acc.Tags()
    assert tags["scalars"] == ["loss"] and tags["histograms"] == ["w"] and tags["images"] == ["inputs/image"]
    assert tags["tensors"] == ["note"] and tags["run_metadata"] == ["step1"]
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(s, pytest.approx(v)) for s, v in enumerate(losses)]
    assert acc.Histograms("w")[0].histogram_value.num == 2
    assert acc.Images("inputs/image")[0].width == 2
    nodes = {n.name: n for n in acc.Graph().node}
    assert nodes["layer/w"].op == "VariableV2" and nodes["layer/MatMul"].input == ["x", "layer/w/read"]
    assert "_output_shapes" in nodes["layer/MatMul"].attr
    assert {n.name for n in acc.MetaGraph().graph_def.node} == set(nodes)
    traced = {s.node_name for d in acc.RunMetadata("step1").step_stats.dev_stats for s in d.node_stats}
    assert {"layer/MatMul", "mse"} <= traced


def test_event_file_name_first_event_and_steps(tmp_path):
    before = int(time.time())
    with tf.summary.FileWriter(str(tmp_path), filename_suffix=".run") as writer:
        assert writer.get_logdir() == str(tmp_path)
        writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.START), global_step=5)
        writer.add_summary(tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=1.5)]), 6)
    (path,) = tmp_path.iterdir()
    match = re.fullmatch(r"events\.out\.tfevents\.(\d{10})\.(.+)\.run", path.name)
    assert match and before <= int(match.group(1)) <= time.time() and match.group(2) == os.uname().nodename
    first, log, scalar = _events(tmp_path)
    assert first.file_version == "brain.Event:2" and first.wall_time == int(first.wall_time)
    assert (log.step, log.session_log.status) == (5, tf.summary.SessionLog.START)
    assert (scalar.step, scalar.summary.value[0].simple_value) == (6, 1.5)
    assert first.wall_time <= log.wall_time <= scalar.wall_time


def test_reads_tensorflows_event_file():
    (path,) = (GOLDEN / "tf_events").iterdir()
    events = list(tf.train.summary_iterator(str(path)))
    assert events[0].file_version == "brain.Event:2"
    graph = tf.GraphDef.FromString(events[1].graph_def)
    assert "layer/mul" in {n.name for n in graph.node}
    assert events[-2].summary.value[0].tag == "loss" and events[-2].step == 7
    assert events[-1].session_log.status == tf.summary.SessionLog.STOP


def test_metadata_is_kept_for_the_first_value_of_a_tag_only(tmp_path):
    text = tf.summary.text("t", tf.constant("x"))
    with tf.Session() as sess, tf.summary.FileWriter(tmp_path) as writer:
        for step in range(2):
            writer.add_summary(sess.run(text), step)
    first, second = (e.summary.value[0] for e in _events(tmp_path)[1:])
    assert first.metadata.plugin_data.plugin_name == "text" and not second.HasField("metadata")


def test_close_reopen_and_the_cache(tmp_path):
    writer = tf.summary.FileWriter(tmp_path / "a", max_queue=1, flush_secs=0.01)
    assert list((tmp_path / "a").iterdir()) == []  # no file before the first event, as in TensorFlow
    writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.START))
    writer.close()
    with pytest.warns(UserWarning, match="closed FileWriter"):
        writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.STOP))
    writer.reopen()
    writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.STOP))
    writer.flush()
    files = sorted((tmp_path / "a").iterdir())
    assert len(files) == 2
    statuses = [e.session_log.status for f in files for e in tf.train.summary_iterator(str(f))][1:]
    assert statuses[-1] == tf.summary.SessionLog.STOP and len(statuses) == 3  # 2 file versions, the dropped one
    writer.close()
    with pytest.raises(ValueError, match="already used"), pytest.warns(UserWarning, match="closed FileWriter"):
        writer.add_run_metadata(tf.RunMetadata(), "t")
        writer.add_run_metadata(tf.RunMetadata(), "t")
    cached = tf.summary.FileWriterCache.get(str(tmp_path / "b"))
    assert tf.summary.FileWriterCache.get(str(tmp_path / "b")) is cached
    tf.summary.FileWriterCache.clear()
    assert tf.summary.FileWriterCache.get(str(tmp_path / "b")) is not cached
    tf.summary.FileWriterCache.clear()


def test_bad_arguments(tmp_path):
    with tf.summary.FileWriter(tmp_path) as writer:
        with pytest.raises(TypeError, match="must be an instance of `Graph`"):
            writer.add_graph(None)
        with pytest.raises(ValueError, match="not both"):
            writer.add_graph(tf.get_default_graph(), graph_def=tf.GraphDef())
        with pytest.raises(TypeError, match="meta_graph_def must be type MetaGraphDef"):
            writer.add_meta_graph(tf.GraphDef())


def test_a_failing_writer_thread_raises_in_the_caller(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        writer = tf.summary.FileWriter(tmp_path)
        os.rmdir(tmp_path)  # the file is made by the first event, in a directory now gone
        writer.add_session_log(tf.summary.SessionLog())
        with pytest.raises(FileNotFoundError):
            writer.flush()


def _free_tensorboard(logdir):
    """Start ``tensorboard --logdir`` on a port the system picks on the loopback; (process, base url)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tensorboard.main", "--logdir", str(logdir), "--host", "127.0.0.1", "--port", "0",
         "--load_fast", "false", "--reload_interval", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline, lines = time.time() + 90, []
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return process, f"http://127.0.0.1:{match.group(1)}"
    process.kill()
    raise AssertionError("tensorboard did not start:\n" + "".join(lines))


def _get(url, deadline):
    """GET ``url`` until it answers 200 with a non-empty body (TensorBoard loads runs in the background)."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                body = response.read().decode()
            if body.strip() not in ("", "[]", "{}"):
                return body
        except OSError:
            pass
        if time.time() > deadline:
            raise AssertionError(f"no answer from {url}")
        time.sleep(0.25)


def test_tensorboard_serves_the_scalars_and_the_graph(tmp_path):
    pytest.importorskip("tensorboard.main")
    losses = _train(tmp_path)
    process, base = _free_tensorboard(tmp_path)
    try:
        deadline = time.time() + 60
        scalars = json.loads(_get(f"{base}/data/plugin/scalars/scalars?run=.&tag=loss", deadline))
        assert [(step, pytest.approx(value)) for _, step, value in scalars] == list(enumerate(losses))
        graph = _get(f"{base}/data/plugin/graphs/graph?run=.&conceptual=false", deadline)
        assert 'name: "layer/MatMul"' in graph and 'op: "MatMul"' in graph
        metadata = _get(f"{base}/data/plugin/graphs/run_metadata?run=.&tag=step1", deadline)
        assert 'node_name: "layer/MatMul"' in metadata
    finally:
        process.kill()
        process.wait(timeout=30)
        process.stdout.close()


def test_histogram_of_a_trained_variable_matches_numpy(tmp_path):
    values = np.array([0.25, -1.5, 3.0, 0.0], np.float32)
    with tf.Session() as sess, tf.summary.FileWriter(tmp_path) as writer:
        writer.add_summary(sess.run(tf.summary.histogram("v", tf.constant(values))), 0)
    histo = _accumulate(tmp_path).Histograms("v")[0].histogram_value
    assert (histo.min, histo.max, histo.num, histo.sum) == (-1.5, 3.0, 4, 1.75)
    assert histo.sum_squares == float(np.sum(values.astype(np.float64) ** 2))


def test_bytes_that_are_not_a_summary_raise_and_lose_nothing_else(tmp_path):
    from google.protobuf.message import DecodeError

    writer = tf.summary.FileWriter(tmp_path)
    writer.add_summary(tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=1.0)]), 1)
    writer.add_summary(b"\xff\xff not a summary", 2)
    writer.add_summary(tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=3.0)]), 3)
    with pytest.raises(DecodeError, match="add_summary was given bytes that are not a Summary"):
        writer.flush()
    writer.add_summary(tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=4.0)]), 4)
    writer.close()
    assert [(e.step, e.summary.value[0].simple_value) for e in _events(tmp_path)[1:]] == [(1, 1.0), (3, 3.0),
                                                                                        (4, 4.0)]


def test_event_and_record_files_on_an_fsspec_url():
    import uuid

    logdir = f"memory://events-{uuid.uuid4().hex}/run"
    loss = tf.summary.scalar("loss", tf.constant(0.5))
    with tf.Session() as sess, tf.summary.FileWriter(logdir, sess.graph) as writer:
        writer.add_summary(sess.run(loss), global_step=3)
    (path,) = tf.gfile.Glob(f"{logdir}/events.out.tfevents.*")
    events = list(tf.train.summary_iterator(path))
    assert events[0].file_version == "brain.Event:2"
    assert events[1].graph_def
    (scalar,) = [e for e in events if e.HasField("summary")]
    assert (scalar.step, scalar.summary.value[0].tag, scalar.summary.value[0].simple_value) == (3, "loss", 0.5)
    with tf.python_io.TFRecordWriter(f"{logdir}/data.tfrecord") as records:
        records.write(b"one")
        records.write(b"two")
    assert list(tf.python_io.tf_record_iterator(f"{logdir}/data.tfrecord")) == [b"one", b"two"]
