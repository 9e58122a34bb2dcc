"""``tf.io``: ``tf.io.gfile`` (files on the local disk or any fsspec filesystem) and the TFRecord names
of ``tf.python_io``, loaded when first used."""

from numflow.io import gfile
from numflow.ops.decode_ops import decode_csv, decode_raw
from numflow.ops.file_ops import decode_base64, encode_base64, matching_files, read_file, write_file
from numflow.ops.parsing_config import FixedLenFeature, FixedLenSequenceFeature, VarLenFeature
from numflow.ops.parsing_ops import parse_example, parse_single_example

_RECORD_NAMES = ("TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator")

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "decode_base64", "decode_csv",
           "decode_raw", "encode_base64", "gfile", "matching_files", "parse_example", "parse_single_example",
           "read_file", "write_file", *_RECORD_NAMES]


def __getattr__(name):
    if name in _RECORD_NAMES:
        from numflow import records

        return getattr(records, name)
    raise AttributeError(f"module 'numflow.io' has no attribute {name!r}")
