"""``tf.io``: ``tf.io.gfile`` (files on the local disk or any fsspec filesystem) and the TFRecord names
of ``tf.python_io``, loaded when first used."""

from numflow.framework.graph_io import write_graph
from numflow.io import gfile
from numflow.ops.decode_ops import decode_csv, decode_raw
from numflow.ops.file_ops import decode_base64, decode_compressed, encode_base64, matching_files, read_file, write_file
from numflow.ops.image_codec_ops import (
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
)
from numflow.ops.parsing_config import FixedLenFeature, FixedLenSequenceFeature, VarLenFeature
from numflow.ops.parsing_ops import parse_example, parse_single_example
from numflow.ops.sequence_parsing_ops import parse_sequence_example, parse_single_sequence_example
from numflow.ops.serialize_ops import decode_json_example, parse_tensor, serialize_tensor

_RECORD_NAMES = ("TFRecordCompressionType", "TFRecordOptions", "TFRecordWriter", "tf_record_iterator")

__all__ = ["decode_base64", "decode_bmp", "decode_compressed", "decode_csv", "decode_gif", "decode_image",
           "decode_json_example", "decode_jpeg", "decode_png", "decode_raw", "encode_base64", "encode_jpeg",
           "encode_png", "extract_jpeg_shape", "FixedLenFeature",
           "FixedLenSequenceFeature", "gfile", "is_jpeg", "match_filenames_once", "matching_files", "parse_example",
           "parse_sequence_example", "parse_single_example", "parse_single_sequence_example", "parse_tensor",
           "read_file", "serialize_tensor", "VarLenFeature", "write_file", "write_graph", *_RECORD_NAMES]


def __getattr__(name):
    if name == "match_filenames_once":  # tf.train's; numflow.train imports this package
        from numflow.train.input import match_filenames_once

        return match_filenames_once
    if name in _RECORD_NAMES:
        from numflow import records

        return getattr(records, name)
    raise AttributeError(f"module 'numflow.io' has no attribute {name!r}")
