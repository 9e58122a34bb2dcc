"""tf.gfile and tf.io.gfile on local paths and on fsspec's memory:// filesystem, as TensorFlow 2.21's.

The expected values and error classes were observed on TensorFlow 2.21's ``tf.compat.v1.gfile``
running the same calls on local files; messages that name no path in TensorFlow
(``file already exists``) name it here.
"""

import subprocess
import sys
import uuid

import pytest

import numflow as tf
from numflow.io import gfile

pytest.importorskip("fsspec")


@pytest.fixture(params=["local", "memory"])
def root(request, tmp_path):
    if request.param == "local":
        yield str(tmp_path)
        return
    path = f"memory://gfile-{uuid.uuid4().hex}"
    tf.gfile.MakeDirs(path)
    yield path
    tf.gfile.DeleteRecursively(path)


def _write(path, data, mode="w"):
    with tf.gfile.GFile(path, mode) as f:
        f.write(data)


def test_text_and_bytes_reads(root):
    path = gfile.join(root, "f.txt")
    _write(path, "héllo\nworld\n")
    assert tf.gfile.GFile(path).read() == "héllo\nworld\n"
    assert tf.gfile.GFile(path, "rb").read() == "héllo\nworld\n".encode()
    assert tf.gfile.GFile(path).readline() == "héllo\n"
    assert tf.gfile.GFile(path).readlines() == ["héllo\n", "world\n"]
    assert list(tf.gfile.GFile(path, "rb")) == [b"h\xc3\xa9llo\n", b"world\n"]
    assert tf.gfile.GFile(path, "rb").read(2) == b"h\xc3"  # n counts bytes, as in TF
    assert tf.gfile.GFile(path).size() == 13
    f = tf.gfile.Open(path)
    f.seek(3)
    f.seek(2, 1)
    assert (f.tell(), f.read(2)) == (5, "o\n")
    f.seek(-6, 2)
    assert f.read() == "world\n"
    f.close()
    assert f.read(1) == "h"  # a closed file reopens at its start, as TF's does


def test_writing_appending_and_bytes(root):
    path = gfile.join(root, "w.bin")
    with tf.gfile.GFile(path, "wb") as f:
        f.write(b"abc")
        f.write(bytearray(b"d"))
        f.write("é")
        assert f.tell() == 6
    _write(path, "!", "ab")
    assert tf.gfile.FastGFile(path, "rb").read() == b"abcd\xc3\xa9!"
    assert not tf.gfile.Exists(gfile.join(root, "never"))
    tf.gfile.GFile(gfile.join(root, "never"), "w").close()  # opened on the first write, as in TF
    assert not tf.gfile.Exists(gfile.join(root, "never"))


def test_mode_errors(root):
    path = gfile.join(root, "m.txt")
    _write(path, "x")
    with pytest.raises(tf.errors.InvalidArgumentError, match="mode is not 'r' or 'w'"):
        tf.gfile.GFile(path, "x")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        tf.gfile.GFile(path).write("y")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for reading"):
        tf.gfile.GFile(path, "w").read()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid whence argument: 3"):
        tf.gfile.GFile(path).seek(0, 3)


def test_missing_paths_name_themselves(root):
    missing = gfile.join(root, "d", "x")
    with pytest.raises(tf.errors.NotFoundError, match=f"^{missing}; No such file or directory"):
        tf.gfile.GFile(missing).read()
    with pytest.raises(tf.errors.NotFoundError, match=f"^{missing}; No such file or directory"):
        tf.gfile.Remove(missing)
    with pytest.raises(tf.errors.NotFoundError, match=f"^{missing}; No such file or directory"):
        tf.gfile.Stat(missing)
    with pytest.raises(tf.errors.NotFoundError, match=f"^Could not find directory {missing}$"):
        tf.gfile.ListDirectory(missing)
    with pytest.raises(tf.errors.NotFoundError, match=f"^{missing} not found$"):
        tf.gfile.DeleteRecursively(missing)
    with pytest.raises(tf.errors.NotFoundError, match=missing):
        tf.gfile.Copy(missing, gfile.join(root, "y"))
    assert not tf.gfile.IsDirectory(missing) and not tf.gfile.Exists(missing)
    assert list(tf.gfile.Walk(missing)) == [] and tf.gfile.Glob(gfile.join(missing, "*")) == []


def test_directories_listing_glob_walk_stat(root):
    tf.gfile.MakeDirs(gfile.join(root, "a", "b"))
    tf.gfile.MakeDirs(gfile.join(root, "a", "b"))  # again: nothing
    tf.gfile.MkDir(gfile.join(root, "a"))  # exists: nothing, as TF 2.21
    _write(gfile.join(root, "f.txt"), "12345")
    _write(gfile.join(root, "g.txt"), "")
    _write(gfile.join(root, "a", "h.bin"), "1")
    assert tf.gfile.ListDirectory(root) == ["a", "f.txt", "g.txt"]
    assert tf.gfile.IsDirectory(gfile.join(root, "a")) and not tf.gfile.IsDirectory(gfile.join(root, "f.txt"))
    assert [p.rsplit("/", 1)[-1] for p in tf.gfile.Glob(gfile.join(root, "*.txt"))] == ["f.txt", "g.txt"]
    walked = [(top[len(root):], dirs, files) for top, dirs, files in tf.gfile.Walk(root)]
    assert walked == [("", ["a"], ["f.txt", "g.txt"]), ("/a", ["b"], ["h.bin"]), ("/a/b", [], [])]
    assert [top[len(root):] for top, _, _ in tf.gfile.Walk(root, in_order=False)] == ["/a/b", "/a", ""]
    info = tf.gfile.Stat(gfile.join(root, "f.txt"))
    assert (info.length, info.is_directory) == (5, False)
    assert isinstance(info.mtime_nsec, int) and info.mtime_nsec > 1_600_000_000 * 10**9
    with pytest.raises(tf.errors.FailedPreconditionError, match="Is a directory"):
        tf.gfile.Remove(gfile.join(root, "a"))
    tf.gfile.DeleteRecursively(gfile.join(root, "a"))
    tf.gfile.DeleteRecursively(gfile.join(root, "g.txt"))  # a file, as TF allows
    assert tf.gfile.ListDirectory(root) == ["f.txt"]


def test_mkdir_needs_its_parent(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.gfile.MkDir(str(tmp_path / "p" / "q"))


def test_rename_and_copy_overwrite(root):
    src, dst = gfile.join(root, "src"), gfile.join(root, "dst")
    _write(src, "new")
    _write(dst, "old")
    with pytest.raises(tf.errors.AlreadyExistsError, match=f"{dst}; file already exists"):
        tf.gfile.Rename(src, dst)
    with pytest.raises(tf.errors.AlreadyExistsError, match="file already exists"):
        tf.gfile.Copy(src, dst)
    assert tf.gfile.GFile(dst).read() == "old"
    tf.gfile.Copy(src, dst, overwrite=True)
    assert tf.gfile.GFile(dst).read() == "new"
    _write(src, "newer")
    tf.gfile.Rename(src, dst, overwrite=True)
    assert tf.gfile.GFile(dst).read() == "newer" and not tf.gfile.Exists(src)


def test_copy_and_rename_across_filesystems(tmp_path):
    local = str(tmp_path / "a.bin")
    remote = f"memory://across-{uuid.uuid4().hex}/a.bin"
    _write(local, b"\x00\x01" * 1000, "wb")
    tf.io.gfile.copy(local, remote)
    tf.io.gfile.rename(remote, str(tmp_path / "b.bin"))
    assert tf.gfile.GFile(str(tmp_path / "b.bin"), "rb").read() == b"\x00\x01" * 1000
    assert not tf.gfile.Exists(remote)


def test_unknown_scheme_and_missing_package_are_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError,
                       match=r"File system scheme 'foo' not implemented \(file: 'foo://bucket/x'\)"):
        tf.gfile.Exists("foo://bucket/x")
    with pytest.raises(tf.errors.UnimplementedError, match="foo://bucket/x"):
        tf.gfile.GFile("foo://bucket/x")


def test_v2_names_and_join():
    assert tf.io.gfile.exists is gfile.exists and tf.gfile.Open is tf.gfile.GFile
    assert gfile.join("s3://b/run", "m", "x") == "s3://b/run/m/x"
    assert gfile.join("a", "b") == "a/b"
    assert {"", "file", "memory"} <= set(gfile.get_registered_schemes())


def test_local_paths_never_import_fsspec(tmp_path):
    code = ("import sys, numflow as tf; p = sys.argv[1] + '/x'; tf.gfile.GFile(p, 'w').write('1'); "
            "assert tf.gfile.Exists(p) and tf.gfile.ListDirectory(sys.argv[1]) == ['x']; "
            "assert 'fsspec' not in sys.modules, 'fsspec imported'")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True)
