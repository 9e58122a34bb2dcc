"""tf.train.Supervisor's services and LooperThread; the training loop a TF1 program runs under a Supervisor
is checked against TensorFlow in tests/programs (program ``supervisor``)."""

import threading

import pytest

import numflow as tf


class RecordingWriter:
    """A summary writer that keeps what it is given, in order, and tells when it has seen enough."""

    def __init__(self):
        self.records, self.changed = [], threading.Condition()

    def _record(self, item):
        with self.changed:
            self.records.append(item)
            self.changed.notify_all()

    def add_summary(self, summary, global_step=None):
        value = tf.summary.Summary.FromString(summary) if isinstance(summary, bytes) else summary
        self._record((global_step, value.value[0].tag))

    def add_session_log(self, session_log, global_step=None):
        self._record((global_step, tf.SessionLog.SessionStatus.Name(session_log.status)))

    def add_graph(self, graph):
        self._record((None, "graph"))

    def add_meta_graph(self, meta_graph_def):
        self._record((None, "meta_graph"))

    def reopen(self):
        pass

    def close(self):
        self._record((None, "closed"))

    def wait_for(self, count):
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.records) >= count, timeout=60), self.records


def test_standard_services_run_once_at_start(tmp_path):
    """What TensorFlow 2.21 writes for this model when the services have had time to run once: a
    checkpoint, the summaries and the steps per second at step 0 (in any order), between START and STOP."""
    w = tf.Variable([1.0, 2.0], name="w")
    tf.train.get_or_create_global_step()
    tf.summary.scalar("w0", w[0])
    writer = RecordingWriter()
    sv = tf.train.Supervisor(logdir=str(tmp_path), summary_writer=writer, save_model_secs=3600,
                             save_summaries_secs=3600)
    with sv.managed_session():
        writer.wait_for(6)
    assert writer.records[:3] == [(None, "graph"), (None, "meta_graph"), (0, "START")]
    assert sorted(writer.records[3:6]) == [(0, "CHECKPOINT"), (0, "global_step/sec"), (0, "w0")]
    assert writer.records[6:] == [(None, "STOP"), (None, "closed")]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-0")
    assert (tmp_path / "graph.pbtxt").exists()


def test_an_exception_in_the_block_stops_the_supervisor_and_is_raised():
    tf.Variable(1.0)
    sv = tf.train.Supervisor(logdir=None)
    with pytest.raises(ValueError, match="bad batch"), sv.managed_session():
        raise ValueError("bad batch")
    assert sv.should_stop()
    with pytest.raises(RuntimeError, match="Only chief supervisor can start standard services"):
        tf.train.Supervisor(graph=tf.Graph(), is_chief=False).start_standard_services(None)


def test_looper_thread_calls_its_target_until_stopped():
    coord = tf.train.Coordinator()
    calls = []
    enough = threading.Event()

    def target(tag):
        calls.append(tag)
        if len(calls) == 3:
            enough.set()

    looper = tf.train.LooperThread.loop(coord, None, target, args=("x",))
    assert enough.wait(60)
    coord.request_stop()
    coord.join()
    assert not looper.is_alive() and calls[:3] == ["x"] * 3
    with pytest.raises(ValueError, match="'args' and 'kwargs' argument require that you also pass 'target'"):
        tf.train.LooperThread(coord, 1.0, args=(1,))
    with pytest.raises(ValueError, match="'coord' argument must be a Coordinator"):
        tf.train.LooperThread(object(), 1.0)


def test_a_failing_looper_reports_to_the_coordinator():
    coord = tf.train.Coordinator()

    def fail():
        raise RuntimeError("loop failed")

    tf.train.LooperThread.loop(coord, 3600, fail)
    assert coord.wait_for_stop(60)
    with pytest.raises(RuntimeError, match="loop failed"):
        coord.join()
