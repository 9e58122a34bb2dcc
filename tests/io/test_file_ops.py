"""tf.read_file, tf.write_file, tf.matching_files and web-safe base64, on local paths and fsspec URLs.
Expected bytes are the files the tests write, and the encodings TensorFlow 2.21 gives."""

import base64
import os

import numpy as np
import pytest

import numflow as tf


@pytest.fixture
def files(tmp_path):
    for name in ("b.txt", "a.txt", "c.csv", ".hidden.txt"):
        (tmp_path / name).write_bytes(name.encode() * 2)
    return tmp_path


def test_read_file_gives_the_bytes_and_a_missing_file_is_not_found_naming_it(files):
    read = tf.read_file(str(files / "a.txt"))
    assert read.shape.as_list() == [] and read.dtype == tf.string
    missing = str(files / "nope.txt")
    with tf.Session() as sess:
        assert sess.run(read) == b"a.txta.txt"
        with pytest.raises(tf.errors.NotFoundError, match=f"{missing}; No such file or directory"):
            sess.run(tf.io.read_file(missing))


def test_write_file_makes_missing_directories_and_runs_again_each_time(tmp_path):
    path = tmp_path / "sub" / "dir" / "out.bin"
    contents = tf.placeholder(tf.string, [])
    write = tf.write_file(str(path), contents)
    assert write.type == "WriteFile" and write.outputs == []
    with tf.Session() as sess:
        for data in (b"xyz\x00", b"second"):
            sess.run(write, {contents: data})
            assert path.read_bytes() == data


def test_matching_files_sorts_matches_of_every_pattern_hidden_files_included(files):
    one = tf.matching_files(str(files / "*.txt"))
    several = tf.io.matching_files([str(files / "*.txt"), str(files / "?.csv"), str(files / "*.txt")])
    assert one.shape.as_list() == [None]
    with tf.Session() as sess:
        assert [os.path.basename(p) for p in sess.run(one)] == [b".hidden.txt", b"a.txt", b"b.txt"]
        assert [os.path.basename(p) for p in sess.run(several)] == [b".hidden.txt", b"a.txt", b"b.txt", b"c.csv"]
        assert sess.run(tf.matching_files(str(files / "none*"))).tolist() == []


def test_the_file_ops_take_fsspec_urls():
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    fs.pipe("/file_ops/x1.txt", b"one")
    fs.pipe("/file_ops/x2.txt", b"two")
    with tf.Session() as sess:
        sess.run(tf.write_file("memory://file_ops/out/y.bin", b"\x00\x01"))
        assert fs.cat("/file_ops/out/y.bin") == b"\x00\x01"
        assert sess.run(tf.read_file("memory://file_ops/x2.txt")) == b"two"
        assert sess.run(tf.matching_files("memory://file_ops/x*.txt")).tolist() == [
            b"memory:///file_ops/x1.txt", b"memory:///file_ops/x2.txt"]
        with pytest.raises(tf.errors.NotFoundError, match="memory://file_ops/none; No such file"):
            sess.run(tf.read_file("memory://file_ops/none"))


def test_base64_is_web_safe_padded_on_request_and_decodes_either_way():
    data = tf.constant([b"hello?>", b"", bytes(range(256))])
    plain, padded = tf.io.encode_base64(data), tf.io.encode_base64(data, pad=True)
    with tf.Session() as sess:
        got_plain, got_padded = sess.run([plain, padded])
        assert got_plain[0] == b"aGVsbG8_Pg" and got_padded[0] == b"aGVsbG8_Pg=="  # TensorFlow's
        assert got_padded[2] == base64.b64encode(bytes(range(256)), altchars=b"-_")
        for encoded in (plain, padded):
            assert sess.run(tf.io.decode_base64(encoded)).tolist() == sess.run(data).tolist()


@pytest.mark.parametrize("text, message", [(b"a", "Base64 string length cannot be 1 modulo 4."),
                                           (b"ab+c", "Invalid character found in base64.")])
def test_bad_base64_is_an_invalid_argument_naming_the_op(text, message):
    decoded = tf.io.decode_base64(tf.constant([text]), name="decoded")
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
        sess.run(decoded)
    assert info.value.op.name == "decoded"


def test_bad_inputs_are_refused_when_the_op_is_built():
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.read_file([b"a", b"b"])
    with pytest.raises(ValueError, match="Shape must be at most rank 1 but is rank 2"):
        tf.matching_files([[b"a"]])
    with pytest.raises(TypeError, match="Input 'input' of 'EncodeBase64' Op has type int32 that does not match "
                                        "expected type of string."):
        tf.io.encode_base64(tf.constant(1))


def test_tf_queue_names_the_queue_classes():
    assert tf.queue.FIFOQueue is tf.FIFOQueue and tf.queue.RandomShuffleQueue is tf.RandomShuffleQueue
    queue = tf.queue.PaddingFIFOQueue(4, [tf.int32], shapes=[[None]])
    with tf.Session() as sess:
        sess.run(queue.enqueue_many([np.array([[1, 2], [3, 0]], np.int32)]))
        assert sess.run(queue.dequeue()).tolist() == [1, 2]
