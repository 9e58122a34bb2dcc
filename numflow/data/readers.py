"""``tf.data.TFRecordDataset``, ``tf.data.TextLineDataset`` and ``tf.data.FixedLengthRecordDataset``: the
records, lines or fixed-length pieces of files, one file after another, as string scalars (TFRecord
framing and compression from ``numflow.records``)."""

import numpy as np

from numflow.data.dataset_ops import _make
from numflow.data.datasets import Dataset as _DatasetValue
from numflow.data.structure import Spec
from numflow.framework import dtypes, errors
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import convert_to_tensor
from numflow_kernels.registry import register

_TEXT = Spec(dtypes.string, TensorShape([]))


def _file_inputs(filenames, compression_type, buffer_size):
    from numflow.ops.array_ops import reshape

    names = convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
    if names.shape.ndims not in (None, 0, 1):
        raise TypeError("`filenames` must be a `tf.Tensor` of `tf.string` scalar or vector.")
    return [reshape(names, [-1], name="flat_filenames"),
            convert_to_tensor(compression_type or "", dtype=dtypes.string, name="compression_type"),
            convert_to_tensor(buffer_size or 256 * 1024, dtype=dtypes.int64, name="buffer_size")]


def TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):  # noqa: N802
    """A dataset of the records of the TFRecord files ``filenames`` (``""``, ``"ZLIB"`` or ``"GZIP"``)."""
    return _make("TFRecordDataset", _file_inputs(filenames, compression_type, buffer_size), _TEXT, name)


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):  # noqa: N802
    """A dataset of the lines of the text files ``filenames``, without their line ends."""
    return _make("TextLineDataset", _file_inputs(filenames, compression_type, buffer_size), _TEXT, name)


def FixedLengthRecordDataset(filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,  # noqa: N802
                            compression_type=None, num_parallel_reads=None, name=None):
    """A dataset of the ``record_bytes``-byte records of the files ``filenames``, after each file's
    ``header_bytes`` and before its ``footer_bytes`` (InvalidArgumentError for a file whose body is
    no whole number of records)."""
    from numflow.ops.array_ops import reshape

    names = convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
    inputs = [reshape(names, [-1], name="flat_filenames"), convert_to_tensor(header_bytes or 0, dtypes.int64),
              convert_to_tensor(record_bytes, dtypes.int64), convert_to_tensor(footer_bytes or 0, dtypes.int64),
              convert_to_tensor(buffer_size or 256 * 1024, dtypes.int64),
              convert_to_tensor(compression_type or "", dtype=dtypes.string)]
    return _make("FixedLengthRecordDatasetV2", inputs, _TEXT, name)


class _FileDataset(_DatasetValue):
    def __init__(self, filenames, compression):
        self.filenames = [f.decode() if isinstance(f, bytes) else str(f) for f in np.asarray(filenames).tolist()]
        self.compression = compression.decode() if isinstance(compression, bytes) else str(compression)

    def elements(self):
        for path in self.filenames:
            for item in self.items(path):
                yield (np.array(item, dtype=object),)


class _RecordDataset(_FileDataset):
    def items(self, path):
        from numflow import records

        return records.tf_record_iterator(path, records.TFRecordOptions(self.compression or None))


class _LineDataset(_FileDataset):
    def items(self, path):
        from numflow import records

        if self.compression:
            raise errors.UnimplementedError(None, None, "numflow's TextLineDataset reads uncompressed files only.")
        try:
            file = records.open_file(path, "rb")
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
        with file:
            for line in file:
                yield line.rstrip(b"\n").rstrip(b"\r")


@register("TFRecordDataset")
def _tf_record(ctx, filenames, compression_type, buffer_size):
    return _RecordDataset(filenames, compression_type.item())


@register("TextLineDataset")
def _text_line(ctx, filenames, compression_type, buffer_size):
    return _LineDataset(filenames, compression_type.item())


class _FixedLengthDataset(_FileDataset):
    def __init__(self, filenames, compression, header, size, footer):
        super().__init__(filenames, compression)
        if self.compression:
            raise errors.UnimplementedError(None, None, "numflow's FixedLengthRecordDataset reads uncompressed "
                                            "files only.")
        if size <= 0:
            raise errors.InvalidArgumentError(None, None, "record_bytes must be greater than zero.")
        self.header, self.size, self.footer = header, size, footer

    def items(self, path):
        from numflow.runtime.readers import fixed_length_records, read_file

        data = read_file(path)
        body = max(0, len(data) - self.header - self.footer)
        if body % self.size:
            raise errors.InvalidArgumentError(
                None, None, f"Excluding the header ({self.header} bytes) and footer ({self.footer} bytes), input file "
                f"\"{path}\" has body length {body} bytes, which is not an exact multiple of the record length "
                f"({self.size} bytes).")
        return fixed_length_records(data, self.header, self.size, self.footer)


@register("FixedLengthRecordDatasetV2")
def _fixed_length(ctx, filenames, header_bytes, record_bytes, footer_bytes, buffer_size, compression_type):
    return _FixedLengthDataset(filenames, compression_type.item(), int(header_bytes), int(record_bytes),
                               int(footer_bytes))
