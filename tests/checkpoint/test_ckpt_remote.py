"""Checkpoints on fsspec filesystems: memory://, and S3 through s3fs against moto's server on loopback.

A bundle written to a URL has the very bytes of one written to the local disk. Object stores have
no renames, so the data files are uploaded first and the index only once they are complete, then
the state file: a reader never finds an index without its data, and a failed save leaves the last
good checkpoint the latest. Bad input (a missing bucket, missing credentials, a scheme with no
filesystem) is TensorFlow's error class with a message naming the path.
"""

import errno
import os

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint import BundleReader, latest_checkpoint, write_bundle
from numflow.checkpoint.bundle import BundleWriter
from numflow.tools import inspect_checkpoint

DATA = ".data-00000-of-00001"
TENSORS = {
    "big": np.arange(9 << 18, dtype=np.float32),  # 9 MiB: read back in two ranged requests
    "s": np.array([b"ab", b"", "\u00e9".encode()], dtype=object),
    "step": np.int64(7),
    "w": np.arange(6, dtype=np.float64).reshape(2, 3),
}


def _read_all(path):
    with BundleReader(path) as reader:
        return {name: reader.get_tensor(name) for name in reader.keys()}


def _assert_same(got, want):
    assert sorted(got) == sorted(want)
    for name, value in want.items():
        np.testing.assert_array_equal(got[name], value)


def _bytes(path):
    with tf.gfile.GFile(path, "rb") as f:
        return f.read()


def test_a_bundle_on_memory_has_the_bytes_of_a_local_one(tmp_path, memory_root):
    local = write_bundle(str(tmp_path / "m"), TENSORS)
    remote = write_bundle(f"{memory_root}/run/m", TENSORS)
    for suffix in (".index", DATA):
        assert _bytes(remote + suffix) == _bytes(local + suffix)
    _assert_same(_read_all(remote), TENSORS)
    assert tf.gfile.ListDirectory(f"{memory_root}/run") == ["m.data-00000-of-00001", "m.index"]


def test_the_index_is_written_once_the_data_is_complete(memory_root, monkeypatch):
    import fsspec.implementations.memory as memory

    prefix = f"{memory_root}/m"
    seen = []
    real_pipe = memory.MemoryFileSystem.pipe_file

    def pipe_file(self, path, value, **kwargs):
        seen.append((path.rsplit("/", 1)[-1], self.exists(path.replace(".index", DATA)),
                     self.size(path.replace(".index", DATA))))
        return real_pipe(self, path, value, **kwargs)

    monkeypatch.setattr(memory.MemoryFileSystem, "pipe_file", pipe_file)
    write_bundle(prefix, TENSORS)
    assert seen == [("m.index", True, len(_bytes(prefix + DATA)))]


def test_a_failed_upload_leaves_no_index_and_the_last_checkpoint(memory_root, monkeypatch):
    import fsspec.implementations.memory as memory

    old = write_bundle(f"{memory_root}/m-1", {"w": np.ones(3, np.float32)})
    tf.train.update_checkpoint_state(memory_root, old)

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(memory.MemoryFile, "write", write)
    with pytest.raises(tf.errors.ResourceExhaustedError, match=f"{memory_root}/m-2{DATA}; No space left on device"):
        write_bundle(f"{memory_root}/m-2", TENSORS)
    monkeypatch.undo()
    assert tf.gfile.ListDirectory(memory_root) == ["checkpoint", "m-1.data-00000-of-00001", "m-1.index"]
    assert latest_checkpoint(memory_root) == old
    _assert_same(_read_all(old), {"w": np.ones(3, np.float32)})


def test_corrupt_remote_data_is_data_loss(memory_root):
    prefix = write_bundle(f"{memory_root}/m", TENSORS)
    data = bytearray(_bytes(prefix + DATA))
    data[-3] ^= 1  # inside w
    with tf.gfile.GFile(prefix + DATA, "wb") as f:
        f.write(bytes(data))
    with BundleReader(prefix) as reader:
        np.testing.assert_array_equal(reader.get_tensor("big"), TENSORS["big"])
        with pytest.raises(tf.errors.DataLossError, match=f"Checksum does not match.*tensor w in {prefix}{DATA}"):
            reader.get_tensor("w")


def test_inspect_checkpoint_prints_a_url_as_a_local_checkpoint(tmp_path, memory_root, capsys):
    """The local tool's output is checked against TensorFlow's in tests/tools."""
    outputs = []
    for prefix in (str(tmp_path / "m"), f"{memory_root}/m"):
        write_bundle(prefix, TENSORS)
        inspect_checkpoint.print_tensors_in_checkpoint_file(prefix, tensor_name="", all_tensors=True)
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "tensor: w (float64) [2, 3]" in outputs[0]


def test_writer_abandons_a_remote_bundle_on_an_exception(memory_root):
    with pytest.raises(RuntimeError, match="user code"):
        with BundleWriter(f"{memory_root}/m") as writer:
            writer.add("w", np.ones(4))
            raise RuntimeError("user code failed")
    assert not tf.gfile.Exists(f"{memory_root}/m{DATA}") and not tf.gfile.Exists(f"{memory_root}/m.index")
    assert os.environ.get("AWS_EC2_METADATA_DISABLED") in (None, "true")


def test_local_saves_never_import_fsspec(tmp_path):
    import subprocess
    import sys

    code = ("import sys, numflow as tf; v = tf.Variable([1.0], name='v'); saver = tf.train.Saver(); "
            "sess = tf.Session(); sess.run(v.initializer); saver.save(sess, sys.argv[1] + '/m', global_step=1); "
            "saver.restore(sess, tf.train.latest_checkpoint(sys.argv[1])); tf.train.list_variables(sys.argv[1]); "
            "assert 'fsspec' not in sys.modules, 'fsspec imported'")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
