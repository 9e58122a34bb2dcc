"""Asynchronous saves: the checkpoint holds the values of the step that asked, whatever comes after;
the state file and max_to_keep's deletions wait until it is complete; a save, sync, the session's
close, a hook's end and the process's exit wait for it; a failure comes back naming the checkpoint."""

import errno
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.train import saver as saver_module

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tensors(path):
    with BundleReader(path) as reader:
        return {name: reader.get_tensor(name) for name in reader.keys()}


def _indexes(directory):
    return sorted(n[:-len(".index")] for n in os.listdir(directory) if n.endswith(".index"))


@pytest.fixture
def held_writes(monkeypatch):
    """Make every bundle write of the Saver wait for ``release.set()``; ``started`` is set when one waits."""
    started, release = threading.Event(), threading.Event()
    real = saver_module.write_snapshots

    def write_snapshots(prefix, keys, snapshots, background=False, specs=None):
        started.set()
        assert release.wait(10), "the test never released the write"
        return real(prefix, keys, snapshots, background, specs)

    monkeypatch.setattr(saver_module, "write_snapshots", write_snapshots)
    return started, release


def test_the_checkpoint_holds_the_values_of_the_step_that_saved(tmp_path, held_writes):
    started, release = held_writes
    w = tf.Variable(tf.random_normal([1 << 18], seed=1), name="w")
    b = tf.Variable(tf.zeros([3, 5], tf.float64), name="b")
    step = tf.train.get_or_create_global_step()
    train = tf.group(w.assign_add(tf.ones_like(w) * 0.5), b.assign_add(tf.ones_like(b)),
                     tf.assign_add(step, 1))
    saver = tf.train.Saver(enable_async=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        expected = dict(zip(["w", "b", "global_step"], sess.run([w, b, step])))
        path = saver.save(sess, str(tmp_path / "m"), global_step=step)
        assert started.wait(10)
        for _ in range(40):  # while the write waits: the updates copy the buffers it will read
            sess.run(train)
        later = sess.run(w)
        release.set()
        saver.sync()
    assert path == str(tmp_path / "m-3")
    got = _tensors(path)
    assert sorted(got) == sorted(expected)
    for name, value in expected.items():
        assert got[name].tobytes() == np.asarray(value).tobytes(), name
    assert not np.array_equal(later, expected["w"])


def test_state_file_and_deletions_wait_for_the_complete_checkpoint(tmp_path, held_writes):
    started, release = held_writes
    v = tf.Variable([1.0], name="v")
    saver = tf.train.Saver(max_to_keep=1)
    with tf.Session() as sess:
        sess.run(v.initializer)
        release.set()
        first = saver.save(sess, str(tmp_path / "m"), global_step=1)
        release.clear()
        started.clear()
        second = saver.save(sess, str(tmp_path / "m"), global_step=2, enable_async=True)
        assert started.wait(10)
        # Written in the background, not complete: the first is still the latest and still there.
        assert tf.train.latest_checkpoint(str(tmp_path)) == first
        assert saver.last_checkpoints == [first] and _indexes(tmp_path) == ["m-1"]
        release.set()
        saver.sync()
        assert tf.train.latest_checkpoint(str(tmp_path)) == second
        assert saver.last_checkpoints == [second] and _indexes(tmp_path) == ["m-2"]


def test_a_save_waits_for_the_unfinished_one(tmp_path, held_writes):
    started, release = held_writes
    v = tf.Variable([1.0], name="v")
    saver = tf.train.Saver(enable_async=True)
    done = []
    with tf.Session() as sess:
        sess.run(v.initializer)
        saver.save(sess, str(tmp_path / "a"))
        assert started.wait(10)
        second = threading.Thread(target=lambda: done.append(saver.save(sess, str(tmp_path / "b"))))
        second.start()
        second.join(0.2)
        assert second.is_alive() and not done  # held until the first is written
        release.set()
        second.join(10)
        assert done == [str(tmp_path / "b")]
    assert _indexes(tmp_path) == ["a", "b"]  # closing the session waited for b


def _full_disk_after(monkeypatch, nbytes):
    """os.write fails with ENOSPC once ``nbytes`` have been written (a disk filling up)."""
    real_write = os.write
    written = [0]

    def write(fd, data):
        size = memoryview(data).nbytes
        if written[0] + size > nbytes:
            raise OSError(errno.ENOSPC, "No space left on device")
        written[0] += size
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


def test_a_full_disk_in_the_background_is_raised_by_the_next_save(tmp_path, monkeypatch):
    v = tf.Variable(tf.ones([1 << 16]), name="v")
    saver = tf.train.Saver(enable_async=True)
    with tf.Session() as sess:
        sess.run(v.initializer)
        good = saver.save(sess, str(tmp_path / "m"), global_step=1)
        saver.sync()
        _full_disk_after(monkeypatch, 1000)
        assert saver.save(sess, str(tmp_path / "m"), global_step=2) == str(tmp_path / "m-2")
        with pytest.raises(tf.errors.ResourceExhaustedError,
                           match=f"Saving checkpoint {tmp_path}/m-2 in the background failed: .*No space left"):
            saver.save(sess, str(tmp_path / "m"), global_step=3)
        monkeypatch.undo()
        assert tf.train.latest_checkpoint(str(tmp_path)) == good
        assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-1.data-00000-of-00001", "m-1.index", "m-1.meta"]
        saver.restore(sess, good)
        saver.save(sess, str(tmp_path / "m"), global_step=3)  # the failure was raised once
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "m-3")


def test_a_failure_in_the_background_is_raised_by_closing_the_session(tmp_path, monkeypatch):
    v = tf.Variable(tf.ones([1 << 16]), name="v")
    saver = tf.train.Saver(enable_async=True)
    sess = tf.Session()
    sess.run(v.initializer)
    _full_disk_after(monkeypatch, 1000)
    saver.save(sess, str(tmp_path / "m"))
    with pytest.raises(tf.errors.ResourceExhaustedError, match=f"checkpoint {tmp_path}/m in the background"):
        sess.close()
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []


def test_the_process_exit_waits_for_the_write(tmp_path):
    code = f"""
import sys; sys.path.insert(0, {ROOT!r})
import numflow as tf
v = tf.Variable(tf.fill([1 << 20], 3.0), name="v")
sess = tf.Session()
sess.run(v.initializer)
tf.train.Saver(enable_async=True).save(sess, {str(tmp_path / "m")!r})
"""
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "m")
    assert (_tensors(str(tmp_path / "m"))["v"] == 3.0).all()


def test_monitored_training_session_saves_in_the_background(tmp_path):
    step = tf.train.get_or_create_global_step()
    w = tf.Variable(tf.zeros([1000]), name="w")
    train = tf.group(w.assign_add(tf.ones([1000])), tf.assign_add(step, 1))
    with tf.train.MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_checkpoint_steps=3,
                                           save_checkpoint_async=True) as sess:
        for _ in range(7):
            sess.run(train)
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == [
        f"model.ckpt-{i}" for i in (0, 3, 6, 7)]
    for path in state.all_model_checkpoint_paths:
        saved_step = int(path.rsplit("-", 1)[1])
        values = _tensors(path)
        assert values["global_step"] == saved_step and (values["w"] == saved_step).all()
