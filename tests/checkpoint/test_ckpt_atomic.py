"""Failures in the middle of a save (disk full, a failing rename, an exception, Ctrl-C) leave the
previous checkpoint with the same prefix intact and readable, and no temporary files behind."""

import errno
import os
import threading

import numpy as np
import pytest

from numflow.checkpoint import bundle, files, state
from numflow.checkpoint.bundle import BundleReader, BundleWriter, write_bundle
from numflow.framework import errors

OLD = {"w": np.arange(6, dtype=np.float32).reshape(2, 3), "step": np.int64(1)}
NEW = {"w": np.full((2, 3), 9, np.float32), "step": np.int64(2), "extra": np.ones(4)}
BIG = {"big": np.arange(600_000, dtype=np.float32), "step": np.int64(3)}  # written in pieces
HUGE = {"huge": np.arange(5 << 20, dtype=np.float32), "step": np.int64(4)}  # 20 MiB: crcs on helper threads


def _save_old(tmp_path):
    prefix = write_bundle(tmp_path / "model", OLD)
    return prefix, sorted(os.listdir(tmp_path))


def _assert_old_intact(tmp_path, prefix, listing):
    assert sorted(os.listdir(tmp_path)) == listing, "temporary or backup files were left behind"
    reader = BundleReader(prefix)
    assert reader.keys() == ["step", "w"]
    for name, value in OLD.items():
        assert np.array_equal(reader.get_tensor(name), value)


def _failing_write(monkeypatch, after_bytes, exc):
    real_write = os.write
    written = [0]

    def write(fd, data):
        size = memoryview(data).nbytes
        if written[0] + size > after_bytes:
            raise exc
        written[0] += size
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize("values, after", [(NEW, 0), (NEW, 20), (BIG, 0), (BIG, 1 << 20), (BIG, 2_000_000),
                                           (HUGE, 12 << 20)])
def test_disk_full_while_writing(tmp_path, monkeypatch, values, after):
    prefix, listing = _save_old(tmp_path)
    _failing_write(monkeypatch, after, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(errors.ResourceExhaustedError, match="No space left on device"):
        write_bundle(prefix, values)
    monkeypatch.undo()
    _assert_old_intact(tmp_path, prefix, listing)


@pytest.mark.parametrize("failing", ["index", "data"])
def test_rename_fails(tmp_path, monkeypatch, failing):
    prefix, listing = _save_old(tmp_path)
    real_replace = os.replace

    def replace(src, dst):
        if ".tempstate" in str(src) and str(dst).endswith(".index" if failing == "index" else "-of-00001"):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(errors.OpError, match="Input/output error"):
        write_bundle(prefix, NEW)
    monkeypatch.undo()
    _assert_old_intact(tmp_path, prefix, listing)


def test_exception_in_the_with_block(tmp_path):
    prefix, listing = _save_old(tmp_path)
    with pytest.raises(RuntimeError, match="user code"):
        with BundleWriter(prefix) as writer:
            writer.add("w", NEW["w"])
            writer.add("big", BIG["big"])
            raise RuntimeError("user code failed")
    _assert_old_intact(tmp_path, prefix, listing)


def test_bad_value_midway(tmp_path):
    prefix, listing = _save_old(tmp_path)
    with pytest.raises(TypeError, match="string tensor holds bytes or str"):
        write_bundle(prefix, {"a": np.ones(3), "b": np.array([b"x", 5], dtype=object)})
    _assert_old_intact(tmp_path, prefix, listing)


def test_keyboard_interrupt_while_computing_crcs(tmp_path, monkeypatch):
    prefix, listing = _save_old(tmp_path)
    calls = [0]
    real_crc = bundle.table.crc32c

    def crc(data, value=0):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real_crc(data, value)

    monkeypatch.setattr(bundle.table, "crc32c", crc)
    with pytest.raises(KeyboardInterrupt):
        write_bundle(prefix, BIG)
    monkeypatch.undo()
    _assert_old_intact(tmp_path, prefix, listing)


def test_failed_first_save_leaves_nothing(tmp_path, monkeypatch):
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith(".index"):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(errors.OpError):
        write_bundle(tmp_path / "model", NEW)
    assert os.listdir(tmp_path) == []


def test_successful_overwrite_leaves_only_the_new_files(tmp_path):
    prefix, listing = _save_old(tmp_path)
    write_bundle(prefix, NEW)
    assert sorted(os.listdir(tmp_path)) == listing
    assert BundleReader(prefix).get_tensor("step") == 2


def test_large_replaced_files_are_unlinked_in_the_background(tmp_path, monkeypatch):
    prefix, listing = _save_old(tmp_path)
    old_data = files.data_filename(prefix, 0, 1)
    old_inode = os.stat(old_data).st_ino
    monkeypatch.setattr(files, "_REMOVE_IN_BACKGROUND", os.stat(old_data).st_size)
    unlinked = []
    real_unlink = os.unlink

    def unlink(path):
        unlinked.append((os.stat(path).st_ino, threading.current_thread().name))
        real_unlink(path)

    monkeypatch.setattr(os, "unlink", unlink)
    write_bundle(prefix, NEW)  # the old data file is as large as the threshold; the index is replaced by its rename
    files.wait_for_removals()
    assert unlinked == [(old_inode, "numflow-remove")]
    assert sorted(os.listdir(tmp_path)) == listing
    assert BundleReader(prefix).get_tensor("step") == 2


def test_writer_refuses_use_after_finish_and_bad_arguments(tmp_path):
    writer = BundleWriter(tmp_path / "m")
    writer.add("a", 1.0)
    with pytest.raises(errors.InvalidArgumentError, match="Adding duplicate key: a"):
        writer.add("a", 2.0)
    with pytest.raises(errors.InvalidArgumentError, match="reserved"):
        writer.add("", 2.0)
    with pytest.raises(ValueError, match="shard_id"):
        writer.add("b", 2.0, shard_id=1)
    with pytest.raises(TypeError, match="Cannot store dtype"):
        writer.add("c", np.zeros(2, np.float128 if hasattr(np, "float128") else "M8[s]"))
    writer.finish()
    with pytest.raises(ValueError, match="already finished"):
        writer.add("d", 1.0)
    assert sorted(os.listdir(tmp_path)) == ["m.data-00000-of-00001", "m.index"]


def test_state_file_write_failure_keeps_the_old_one(tmp_path, monkeypatch):
    state.update_checkpoint_state(tmp_path, str(tmp_path / "model-1"))
    before = (tmp_path / "checkpoint").read_bytes()
    _failing_write(monkeypatch, 5, OSError(errno.ENOSPC, "No space left on device"))
    with pytest.raises(errors.ResourceExhaustedError):
        state.update_checkpoint_state(tmp_path, str(tmp_path / "model-2"))
    monkeypatch.undo()
    assert (tmp_path / "checkpoint").read_bytes() == before
    assert os.listdir(tmp_path) == ["checkpoint"]


def test_commit_puts_displaced_files_back(tmp_path, monkeypatch):
    for name in ("a", "b", "c"):
        (tmp_path / name).write_text("old " + name)
        (tmp_path / (name + ".new")).write_text("new " + name)
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith("c"):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(errors.UnknownError, match=r"c; Input/output error"):
        files.commit([(str(tmp_path / (n + ".new")), str(tmp_path / n)) for n in ("a", "b", "c")])
    monkeypatch.undo()
    assert [(tmp_path / n).read_text() for n in ("a", "b", "c")] == ["old a", "old b", "old c"]
    assert sorted(os.listdir(tmp_path)) == ["a", "b", "c", "c.new"]  # the caller removes its temporaries
