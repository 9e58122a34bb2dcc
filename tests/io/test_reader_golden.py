"""tf.TFRecordReader, TextLineReader, FixedLengthRecordReader and WholeFileReader against TensorFlow
2.21's compat.v1: the keys and values each reads over a queue of file names, its counts, the end of
the queue, the op types, names and static shapes, for the cases of ``reader_cases.py``.

``data/tf_reader_golden.json`` holds TensorFlow's results; regenerate it with
``python tests/io/data/make_tf_reader_golden.py`` in an environment with TensorFlow installed.
"""

import json
import pathlib

import pytest
from reader_cases import CASES, make_files

import numflow as tf

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "tf_reader_golden.json").read_text())
HOW = "regenerate with: python tests/io/data/make_tf_reader_golden.py (TensorFlow installed)"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("reader_files")
    make_files(tf, path)
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_reader_reads_what_tensorflow_reads(case, folder):
    with tf.Graph().as_default():
        got = CASES[case](tf, folder)
    assert got == GOLDEN[case], f"{case}; {HOW}"


def test_a_missing_file_is_not_found_and_names_it(tmp_path):
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(1, tf.string)
        _, value = tf.WholeFileReader().read(queue)
        with tf.Session() as sess:
            sess.run(queue.enqueue([str(tmp_path / "absent.txt")]))
            with pytest.raises(tf.errors.NotFoundError, match="absent.txt; No such file or directory"):
                sess.run(value)


def test_reset_reads_the_file_again(folder):
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(2, tf.string)
        reader = tf.TextLineReader()
        _, value = reader.read(queue)
        with tf.Session() as sess:
            sess.run(queue.enqueue_many([[str(folder / "b.txt")] * 2]))
            assert sess.run(value) == b"head b"
            sess.run(reader.reset())
            assert [sess.run(value) for _ in range(2)] == [b"head b", b"x1"]
            assert sess.run(reader.num_records_produced()) == 2
