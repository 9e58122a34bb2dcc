"""TFRecord files: TensorFlow's bytes both ways, every compression, and damaged files."""

import gzip
import pathlib
import struct
import zlib

import google_crc32c
import pytest

import numflow as tf

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden" / "summaries"
RECORDS = [b"hello", b"", b"\x00\xff" * 300, "é".encode()]


def _masked(data):
    crc = google_crc32c.value(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _framed(record):
    header = struct.pack("<Q", len(record))
    return header + struct.pack("<I", _masked(header)) + record + struct.pack("<I", _masked(record))


@pytest.mark.parametrize("compression", ["", "ZLIB", "GZIP"])
def test_reads_what_tensorflow_wrote(compression):
    path = GOLDEN / "tf_records" / (compression or "NONE").lower()
    assert list(tf.python_io.tf_record_iterator(path, tf.python_io.TFRecordOptions(compression))) == RECORDS


@pytest.mark.parametrize("compression", ["", "ZLIB", "GZIP"])
def test_writes_tensorflows_bytes(tmp_path, compression):
    path = tmp_path / "records"
    with tf.io.TFRecordWriter(str(path), compression) as writer:
        for record in RECORDS:
            writer.write(record)
    data = path.read_bytes()
    assert data == (GOLDEN / "tf_records" / (compression or "NONE").lower()).read_bytes()
    plain = {"": lambda d: d, "ZLIB": zlib.decompress, "GZIP": gzip.decompress}[compression](data)
    assert plain == b"".join(_framed(r) for r in RECORDS)


def test_options_and_compression_names():
    options = tf.python_io.TFRecordOptions
    assert options.get_compression_type_string(options(tf.python_io.TFRecordCompressionType.GZIP)) == "GZIP"
    assert options.get_compression_type_string("ZLIB") == "ZLIB"
    assert options.get_compression_type_string(None) == ""
    with pytest.raises(ValueError, match="compression_type"):
        options("LZ4")


def test_flush_makes_records_readable_before_close(tmp_path):
    path = tmp_path / "r.gz"
    writer = tf.python_io.TFRecordWriter(path, "GZIP")
    writer.write("text is written as UTF-8")
    writer.flush()
    reader = zlib.decompressobj(zlib.MAX_WBITS + 16)
    assert reader.decompress(path.read_bytes()) == _framed(b"text is written as UTF-8")
    writer.close()
    writer.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="closed"):
        writer.write(b"x")


@pytest.mark.parametrize("damage, error", [
    (lambda d: d[:-3], "truncated record at 653 of .*: the file ends inside its 2 bytes"),
    (lambda d: d[:2] + bytes([d[2] ^ 1]) + d[3:], r"corrupted record at 0 of .* \(Is this even a TFRecord file\?\)"),
    (lambda d: d[:14] + bytes([d[14] ^ 1]) + d[15:], "corrupted record at 12 of "),
])
def test_damaged_files_raise_data_loss(tmp_path, damage, error):
    data = (GOLDEN / "tf_records" / "none").read_bytes()
    path = tmp_path / "damaged"
    path.write_bytes(damage(data))
    with pytest.raises(tf.errors.DataLossError, match=error):
        list(tf.python_io.tf_record_iterator(path))


def test_a_file_ending_inside_a_header_ends_the_records(tmp_path):
    """A writer may be appending: TensorFlow stops at a partial header without an error."""
    path = tmp_path / "growing"
    path.write_bytes(_framed(b"one") + _framed(b"two")[:7])
    assert list(tf.python_io.tf_record_iterator(path)) == [b"one"]


def test_missing_and_mis_compressed_files(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="No such file"):
        list(tf.python_io.tf_record_iterator(tmp_path / "missing"))
    with pytest.raises(tf.errors.DataLossError, match="not a GZIP stream"):
        list(tf.python_io.tf_record_iterator(GOLDEN / "tf_records" / "none", "GZIP"))
    with pytest.raises(tf.errors.DataLossError, match="Is this even a TFRecord file"):
        list(tf.python_io.tf_record_iterator(GOLDEN / "tf_records" / "gzip"))
