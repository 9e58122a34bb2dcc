"""MonitoredSession, its hooks and the Coordinator, against TensorFlow 2.21's tf.compat.v1.train.

``data/tf_monitored_golden.json`` holds TensorFlow's record of four training runs resuming from one
checkpoint directory; regenerate it with ``/opt/tfenv/bin/python
tests/train/data/make_tf_monitored_golden.py``. Messages and behaviours written as literals below
were checked against TensorFlow 2.21.
"""

import itertools
import json
import logging
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

DATA = pathlib.Path(__file__).parent / "data"
golden = load_script(DATA / "make_tf_monitored_golden.py")
GOLDEN = json.loads(golden.GOLDEN.read_text())
TARGET = np.array([3.0, 1.0])
W0 = np.array([1.0, -2.0])


def _model():
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(W0.tolist(), name="w")
    loss = tf.reduce_sum(tf.square(w - TARGET.tolist()))
    return gs, w, tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)


def _w_at(step):
    """w after ``step`` gradient-descent steps: each moves it 0.2 of the way to the target."""
    return TARGET + 0.8 ** step * (W0 - TARGET)


def test_training_runs_resume_as_tensorflow(tmp_path):
    assert len(GOLDEN) == len(golden.RUNS)
    for run, want in zip(golden.RUNS, GOLDEN, strict=True):
        got = golden.train(tf, str(tmp_path), *run)
        np.testing.assert_allclose(got.pop("w"), want["w"], rtol=1e-6)
        assert got == {k: v for k, v in want.items() if k != "w"}


def test_chief_and_worker_on_a_server_target(tmp_path):
    server = tf.train.Server.create_local_server()
    with tf.Graph().as_default():
        gs, w, train = _model()
        with tf.train.MonitoredTrainingSession(master=server.target, checkpoint_dir=str(tmp_path),
                                               save_checkpoint_steps=2,
                                               hooks=[tf.train.StopAtStepHook(last_step=4)]) as sess:
            while not sess.should_stop():
                sess.run(train)
    with tf.Graph().as_default():
        gs, w, train = _model()
        # A worker finds the chief's variables in the server and goes on from them; it saves nothing.
        with tf.train.MonitoredTrainingSession(master=server.target, is_chief=False, checkpoint_dir=str(tmp_path),
                                               hooks=[tf.train.StopAtStepHook(num_steps=2)]) as sess:
            steps = []
            while not sess.should_stop():
                steps.append(sess.run([train, gs])[1])
        assert steps == [5, 6]
        with tf.Session(server.target) as plain:
            np.testing.assert_allclose(plain.run(w), _w_at(6), rtol=1e-6)
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-4")
    server.stop()
    other = tf.train.Server.create_local_server()
    with tf.Graph().as_default():
        gs, w, train = _model()
        with tf.train.MonitoredTrainingSession(master=other.target, checkpoint_dir=str(tmp_path),
                                               hooks=[tf.train.StopAtStepHook(num_steps=1)]) as sess:
            np.testing.assert_allclose(sess.run(w), _w_at(4), rtol=1e-6)
            while not sess.should_stop():
                sess.run(train)
    other.stop()
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model.ckpt-5")


def test_worker_waits_for_the_chief():
    server = tf.train.Server.create_local_server()
    with tf.Graph().as_default():
        _model()
        with pytest.raises(tf.errors.DeadlineExceededError, match="^Session was not ready after waiting 1 secs.$"):
            tf.train.MonitoredTrainingSession(master=server.target, is_chief=False, max_wait_secs=1)
    server.stop()


class _Ends(tf.train.SessionRunHook):
    ended = False

    def end(self, session):
        self.ended = True


@pytest.mark.parametrize("error, swallowed", [(tf.errors.OutOfRangeError(None, None, "eof"), True),
                                              (StopIteration(), True), (KeyError("k"), False)])
def test_context_manager_ends_on_end_of_input(error, swallowed):
    with tf.Graph().as_default() as graph:
        _, _, train = _model()
        hook = _Ends()
        try:
            with tf.train.MonitoredSession(hooks=[hook]) as sess:
                assert graph.finalized
                sess.run(train)
                raise error
        except KeyError:
            assert not swallowed
        assert hook.ended == swallowed and not graph.finalized


def test_run_after_stop_and_double_close():
    with tf.Graph().as_default():
        _, _, train = _model()
        sess = tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])
        sess.run(train)
        assert sess.should_stop()
        with pytest.raises(RuntimeError, match="^Run called even after should_stop requested.$"):
            sess.run(train)
        sess.close()
        with pytest.raises(RuntimeError, match="^Session is already closed.$"):
            sess.close()
        assert sess.should_stop()


def test_error_reported_to_the_coordinator_is_raised_at_close():
    class Fails(_Ends):
        def after_create_session(self, session, coord):
            self.coord = coord

        def after_run(self, run_context, run_values):
            with self.coord.stop_on_exception():
                raise ValueError("boom")

    with tf.Graph().as_default():
        _, _, train = _model()
        hook = Fails()
        runs = 0
        with pytest.raises(ValueError, match="^boom$"):
            with tf.train.MonitoredSession(hooks=[hook]) as sess:
                while not sess.should_stop():
                    sess.run(train)
                    runs += 1
        assert runs == 1 and hook.ended


def test_hooks_feed_and_stop_on_nan():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        inc = tf.train.get_or_create_global_step().assign_add(1)
        with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(x)]) as sess:
            sess.run(inc, {x: 1.0})
            with pytest.raises(tf.train.NanLossDuringTrainingError, match="^NaN loss during training.$"):
                sess.run(inc, {x: np.nan})
        hooks = [tf.train.NanTensorHook(x, fail_on_nan_loss=False), tf.train.FeedFnHook(lambda: {x: np.nan})]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            sess.run(inc)
            assert sess.should_stop()
        with tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(lambda: {x: 1.0})]) as sess:
            with pytest.raises(RuntimeError, match=r"^Same tensor is fed by a SessionRunHook and user. Conflict\(s\): "
                                                   r"\[<tf.Tensor 'Placeholder:0'"):
                sess.run(inc, {x: 2.0})


def test_logging_tensor_hook(caplog):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        y = tf.identity(x * 2.0, name="y")
        gs = tf.train.get_or_create_global_step()
        inc = gs.assign_add(1)
        counter = itertools.count()
        hooks = [tf.train.FeedFnHook(lambda: {x: float(next(counter))}),
                 tf.train.LoggingTensorHook(["x", y], every_n_iter=2),
                 tf.train.LoggingTensorHook({"step": "global_step"}, at_end=True)]
        with caplog.at_level(logging.INFO, logger="tensorflow"):
            with tf.train.SingularMonitoredSession(hooks=hooks) as sess:
                for _ in range(5):
                    sess.run(inc)
    lines = [r.getMessage() for r in caplog.records if "=" in r.getMessage()]
    y_tag = 'Tensor("y:0", shape=(), dtype=float32)'
    assert lines[0] == f"x = 0.0, {y_tag} = 0.0"
    assert [line.split(" (")[0] for line in lines[1:3]] == [f"x = 2.0, {y_tag} = 4.0", f"x = 4.0, {y_tag} = 8.0"]
    assert lines[1].endswith(" sec)") and len(lines) == 4
    assert lines[3] == "step = 5"


def test_hook_argument_errors():
    with pytest.raises(ValueError, match="^One of num_steps or last_step must be specified.$"):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="^Only one of num_steps or last_step can be specified.$"):
        tf.train.StopAtStepHook(num_steps=1, last_step=2)
    with pytest.raises(ValueError, match="^You cannot provide both saver and scaffold.$"):
        tf.train.CheckpointSaverHook("/unused", save_steps=1, saver=object(), scaffold=object())
    with pytest.raises(ValueError, match="^Either every_secs or every_steps should be provided.$"):
        tf.train.CheckpointSaverHook("/unused")
    with pytest.raises(ValueError, match="^Can not provide both every_secs and every_steps.$"):
        tf.train.CheckpointSaverHook("/unused", save_secs=1, save_steps=2)
    with pytest.raises(ValueError, match="^either at_end and/or exactly one of every_n_iter and every_n_secs must be "
                                         "provided.$"):
        tf.train.LoggingTensorHook(["a"])
    with pytest.raises(ValueError, match="^invalid every_n_iter=0.$"):
        tf.train.LoggingTensorHook(["a"], every_n_iter=0)
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(RuntimeError, match="^Global step should be created to use StopAtStepHook.$"):
            tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_step_counter_and_summary_saver_hooks(tmp_path, caplog):
    """The rate is logged and written under ``global_step/sec``; summaries every 2 steps after a START log:
    the event sequence TensorFlow 2.21 writes for this loop (and beside a CheckpointSaverHook, in
    tests/programs)."""
    with pytest.raises(ValueError, match="^exactly one of every_n_steps and every_n_secs should be provided.$"):
        tf.train.StepCounterHook(every_n_steps=None)
    with pytest.raises(ValueError, match="^Exactly one of scaffold or summary_op must be provided.$"):
        tf.train.SummarySaverHook(save_steps=1)
    gs, w, train_op = _model()
    summary = tf.summary.scalar("w0", w[0])
    writer = tf.summary.FileWriter(str(tmp_path))
    hooks = [tf.train.StepCounterHook(every_n_steps=2, summary_writer=writer),
             tf.train.SummarySaverHook(save_steps=2, summary_writer=writer, summary_op=summary)]
    with caplog.at_level(logging.INFO, logger="tensorflow"), tf.train.MonitoredSession(hooks=hooks) as sess:
        for _ in range(5):
            sess.run(train_op)
    writer.close()
    rates = [r.getMessage() for r in caplog.records if r.getMessage().startswith("global_step/sec: ")]
    assert len(rates) == 2 and all(float(r.split(": ")[1]) > 0 for r in rates)
    events = [e for path in tmp_path.iterdir() for e in tf.train.summary_iterator(str(path))][1:]
    seen = [(e.step, e.session_log.status if e.HasField("session_log") else e.summary.value[0].tag) for e in events]
    assert seen == [(1, tf.SessionLog.START), (1, "w0"), (3, "global_step/sec"), (3, "w0"), (5, "global_step/sec"),
                    (5, "w0")]
    np.testing.assert_allclose([e.summary.value[0].simple_value for e in events if e.summary.value[:1] and
                                e.summary.value[0].tag == "w0"], [_w_at(s)[0] for s in (0, 2, 4)], rtol=1e-6)


def test_scaffold_and_singular_session(tmp_path):
    with tf.Graph().as_default() as graph:
        gs, w, train = _model()
        set_w = w.assign([5.0, 5.0])
        scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: sess.run(set_w))
        with tf.train.SingularMonitoredSession(scaffold=scaffold) as sess:
            assert sess.raw_session().graph is graph
            np.testing.assert_array_equal(sess.run(w), [5.0, 5.0])
            sess.run(train)
            path = scaffold.saver.save(sess.raw_session(), str(tmp_path / "model.ckpt"), global_step=gs)
        # Names and collections as TensorFlow's Scaffold gives them.
        assert scaffold.init_op.name == "group_deps" and scaffold.local_init_op.name == "group_deps_1"
        assert tf.get_collection(tf.GraphKeys.SAVERS) == [scaffold.saver] and scaffold.summary_op is None
        assert tf.get_collection(tf.GraphKeys.INIT_OP) == [scaffold.init_op]
        with tf.train.SingularMonitoredSession(checkpoint_filename_with_path=path) as sess:
            assert sess.run(gs) == 1
            np.testing.assert_allclose(sess.run(w), TARGET + 0.8 * (5.0 - TARGET), rtol=1e-6)


def test_run_step_fn():
    with tf.Graph().as_default():
        gs, _, train = _model()
        seen = []

        def step_fn(step_context):
            seen.append(int(step_context.session.run(gs)))
            step_context.run_with_hooks(train)
            if seen[-1] == 2:
                step_context.request_stop()

        with tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(last_step=10)]) as sess:
            while not sess.should_stop():
                sess.run_step_fn(step_fn)
        assert seen == [0, 1, 2]
        with pytest.raises(ValueError, match="`step_fn` may either have one `step_context` argument"):
            tf.train.MonitoredSession().run_step_fn(lambda ctx: None)


def test_coordinator():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "end of input"))  # a clean stop: not re-raised
    assert coord.should_stop() and coord.wait_for_stop(0)
    coord.join()
    coord.clear_stop()
    with coord.stop_on_exception():
        raise ValueError("first")
    coord.request_stop(ValueError("second"))
    with pytest.raises(ValueError, match="^first$"):
        coord.join()
    assert coord.joined


def test_logged_values_print_as_numpy_prints_them(caplog):
    """TensorFlow 2.21 logs ``str()`` of each value, tags of a dict in sorted order, arrays without
    scientific notation: a float32 14.17 as 14.17, not as the float64 it widens to."""
    with tf.Graph().as_default():
        value = tf.constant(14.17)
        pair = tf.constant([1e-8, 2.5])
        hook = tf.train.LoggingTensorHook({"value": value, "pair": pair}, every_n_iter=1)
        with caplog.at_level(logging.INFO, logger="tensorflow"):
            with tf.train.SingularMonitoredSession(hooks=[hook]) as sess:
                sess.run(value)
    assert [r.getMessage() for r in caplog.records if "=" in r.getMessage()] == [
        "pair = [0.00000001 2.5       ], value = 14.17"]
