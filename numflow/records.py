"""TFRecord files: ``tf.python_io.TFRecordWriter``, ``tf_record_iterator`` and ``TFRecordOptions``.

A TFRecord file is a sequence of records, each framed as::

    uint64 length (little-endian) | uint32 masked crc32c of those 8 bytes | data | uint32 masked crc32c of data

with the masked crc32c the checkpoint index uses (``numflow.checkpoint.table``). With ``ZLIB`` or
``GZIP`` compression the whole framed stream is compressed (zlib's or gzip's wrapper around deflate),
as TensorFlow's ``ZlibOutputBuffer`` writes it. TensorBoard's event files are TFRecord files.

Files are opened through :func:`open_file`, the one place to switch to another file system.
"""

import functools
import os
import struct
import zlib

from numflow.framework import errors
from numflow.io.filesystem import is_url, resolve

_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")


def open_file(path, mode):
    """Open ``path`` (binary ``mode``): every record and event file is opened here.

    A local path is opened by ``open`` itself; an fsspec URL (``s3://...``) through numflow's
    filesystem layer, where a new object (``"xb"``) is simply written (``"wb"``)."""
    path = os.fspath(path)
    if not is_url(path):
        return open(path, mode)
    return resolve(path).open(path, mode.replace("x", "w"))


def make_dirs(path):
    """Create directory ``path`` and its parents (nothing when it exists), local or at a URL."""
    path = os.fspath(path)
    if not is_url(path):
        os.makedirs(path, exist_ok=True)
    else:
        resolve(path).makedirs(path)


class TFRecordCompressionType:
    """The compression of a TFRecord file."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
          TFRecordCompressionType.GZIP: "GZIP"}
_BY_NAME = {"": TFRecordCompressionType.NONE, "NONE": TFRecordCompressionType.NONE,
            "ZLIB": TFRecordCompressionType.ZLIB, "GZIP": TFRecordCompressionType.GZIP}


class TFRecordOptions:
    """How a TFRecord file is compressed.

    Parameters
    ----------
    compression_type : str, int or None
        ``"ZLIB"``, ``"GZIP"``, ``""``/``None`` (none), or a ``TFRecordCompressionType``.
    compression_level : int, optional
        zlib's level, 0-9 (default: zlib's default, 6).
    window_bits, mem_level, compression_strategy : int, optional
        zlib's parameters (defaults: 15, 9 and the default strategy, as TensorFlow's).
    flush_mode, input_buffer_size, output_buffer_size, compression_method :
        Accepted for TensorFlow's signature.
    """

    compression_type_map = dict(_NAMES)

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        del flush_mode, input_buffer_size, output_buffer_size, compression_method
        self.compression_type = _NAMES[_compression(compression_type)]
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """``""``, ``"ZLIB"`` or ``"GZIP"`` for options, a compression type, or None."""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return _NAMES[_compression(options)]

    def _wbits(self):
        bits = self.window_bits or zlib.MAX_WBITS
        return bits + 16 if self.compression_type == "GZIP" else bits


def _compression(value):
    if value is None:
        return TFRecordCompressionType.NONE
    if isinstance(value, int) and value in _NAMES:
        return value
    if isinstance(value, str) and value.upper() in _BY_NAME:
        return _BY_NAME[value.upper()]
    raise ValueError(f'compression_type must be "", "ZLIB", "GZIP" or a TFRecordCompressionType, not {value!r}')


def _options(options):
    return options if isinstance(options, TFRecordOptions) else TFRecordOptions(options)


@functools.cache
def _crc_table():
    from numflow.checkpoint import table  # with google-crc32c, loaded on the first record

    return table


def _masked_crc(data):
    table = _crc_table()
    return table.mask_crc(table.crc32c(data))


def frame(record):
    """``record`` (bytes) framed as a TFRecord: header, data, footer."""
    header = struct.pack("<Q", len(record))
    return b"".join((header, _FOOTER.pack(_masked_crc(header)), record, _FOOTER.pack(_masked_crc(record))))


class TFRecordWriter:
    """Writes records to a TFRecord file (``tf.io.TFRecordWriter``); a context manager.

    Parameters
    ----------
    path : str or path-like
        The file, created or truncated.
    options : TFRecordOptions, str or None
        Its compression.
    """

    def __init__(self, path, options=None):
        options = _options(options)
        self._path = os.fspath(path)
        try:
            self._file = open_file(self._path, "wb")
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{self._path}; No such file or directory") from None
        self._compressor = None
        if options.compression_type:
            level = -1 if options.compression_level is None else options.compression_level
            strategy = zlib.Z_DEFAULT_STRATEGY if options.compression_strategy is None else options.compression_strategy
            self._compressor = zlib.compressobj(level, zlib.DEFLATED, options._wbits(), options.mem_level or 9,
                                                strategy)

    def write(self, record):
        """Append one record (bytes, or str encoded as UTF-8)."""
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, f"TFRecordWriter of {self._path} is closed.")
        data = frame(record.encode() if isinstance(record, str) else bytes(record))
        self._file.write(self._compressor.compress(data) if self._compressor else data)

    def flush(self):
        """Push what was written to the file (a compressed stream is flushed to a byte boundary)."""
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, f"TFRecordWriter of {self._path} is closed.")
        if self._compressor:
            self._file.write(self._compressor.flush(zlib.Z_SYNC_FLUSH))
        self._file.flush()

    def close(self):
        """Finish the file (the compressed stream's end too); later calls do nothing."""
        if self._file is None:
            return
        if self._compressor:
            self._file.write(self._compressor.flush())
        self._file.close()
        self._file = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()


class _Inflating:
    """``read(n)`` over a zlib or gzip stream in a file, decompressing as it goes."""

    _CHUNK = 1 << 16

    def __init__(self, file, options, path):
        self._file, self._path = file, path
        self._inflate = zlib.decompressobj(options._wbits())
        self._kind = options.compression_type
        self._buffer = bytearray()

    def read(self, n):
        while len(self._buffer) < n and not self._inflate.eof:
            chunk = self._file.read(self._CHUNK)
            try:
                self._buffer += self._inflate.decompress(chunk) if chunk else self._inflate.flush()
            except zlib.error as exc:
                raise errors.DataLossError(None, None, f"{self._path}: not a {self._kind} stream ({exc})") from None
            if not chunk:
                break
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        return out


def iter_records(read, path="<stream>"):
    """The records read through ``read(n)`` (a binary file's ``read``), checked as TensorFlow checks them.

    A stream ending inside a record's 12-byte header ends the iteration, as in TensorFlow (a writer
    may still be appending); any other damage raises ``DataLossError`` naming the offset and file.
    """
    pos = 0
    while True:
        header = read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        length, length_crc = _HEADER.unpack(header)
        if _masked_crc(header[:8]) != length_crc:
            raise errors.DataLossError(None, None, f"corrupted record at {pos} of {path} (Is this even a "
                                       "TFRecord file?)")
        body = read(length + _FOOTER.size)
        if len(body) < length + _FOOTER.size:
            raise errors.DataLossError(None, None, f"truncated record at {pos} of {path}: the file ends inside "
                                       f"its {length} bytes")
        record = body[:length]
        if _masked_crc(record) != _FOOTER.unpack_from(body, length)[0]:
            raise errors.DataLossError(None, None, f"corrupted record at {pos + _HEADER.size} of {path}")
        pos += _HEADER.size + len(body)
        yield record


def tf_record_iterator(path, options=None):
    """An iterator over the records of a TFRecord file (``tf.io.tf_record_iterator``).

    Raises
    ------
    NotFoundError
        The file does not exist.
    DataLossError
        A record is truncated or its checksum does not match (see :func:`iter_records`).
    """
    options = _options(options)
    path = os.fspath(path)
    try:
        file = open_file(path, "rb")
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    with file:
        read = _Inflating(file, options, path).read if options.compression_type else file.read
        yield from iter_records(read, path)
