"""``tf.data.experimental.CsvDataset`` and ``make_csv_dataset``: the records of CSV files, one file
after another, as TensorFlow's ``CSVDatasetV2`` parses them.

Spec: TensorFlow's ``csv_dataset_op.cc``. A record ends at ``\\n``, ``\\r`` or ``\\r\\n``; with
``use_quote_delim`` a field starting with ``"`` runs to the quote closing it (``""`` is a quote, line
breaks are kept), and a quote elsewhere in a field is an error. An empty field or ``na_value`` takes
its column's default (an error where the default is empty: a required column); numbers parse whole,
with spaces around. ``make_csv_dataset`` reads the column names from the header and infers the
column types from the first rows, in Python, when the graph is built, as TensorFlow does.

>>> import os, tempfile
>>> import numflow as tf
>>> path = os.path.join(tempfile.mkdtemp(), "a.csv")
>>> _ = open(path, "w").write('x,y\\n1,"a,b"\\n2,\\n')
>>> with tf.Graph().as_default():
...     ds = tf.data.experimental.CsvDataset(path, [tf.int32, tf.constant(["?"])], header=True)
...     x, y = tf.data.make_one_shot_iterator(ds).get_next()
...     with tf.Session() as sess:
...         [(int(a), b) for a, b in (sess.run([x, y]) for _ in range(2))]
[(1, b'a,b'), (2, b'?')]
"""

import collections
import csv
import gzip
import io
import re
import zlib

import numpy as np

from numflow.data.dataset_ops import AUTOTUNE, Dataset, _make
from numflow.data.datasets import Dataset as _DatasetValue
from numflow.data.structure import Spec
from numflow.framework import dtypes, errors
from numflow.framework.graph import Tensor
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow_kernels.registry import register

_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_TYPE_NAMES = {"int32": "int32", "int64": "int64", "float32": "float", "float64": "double"}


def CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None, header=False,  # noqa: N802
               field_delim=",", use_quote_delim=True, na_value="", select_cols=None, name=None):
    """A dataset of the records of the CSV files ``filenames``: one scalar per column of
    ``record_defaults`` (a dtype or empty tensor for a required column, a one-element tensor for
    its default), of the columns ``select_cols`` (sorted indices) or all."""
    names = convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
    compression = convert_to_tensor(compression_type or "", dtype=dtypes.string, name="compression_type")
    defaults = [constant([], dtype=d) if not isinstance(d, Tensor) and d in _CSV_TYPES else d for d in record_defaults]
    defaults = [d if isinstance(d, Tensor) else convert_to_tensor(d, name=f"record_defaults_{i}")
                for i, d in enumerate(defaults)]
    inputs = [names, compression, convert_to_tensor(4 * 1024 * 1024 if buffer_size is None else buffer_size,
                                                    dtype=dtypes.int64, name="buffer_size"),
              convert_to_tensor(header, dtype=dtypes.bool, name="header"),
              convert_to_tensor(field_delim, dtype=dtypes.string, name="field_delim"),
              convert_to_tensor(use_quote_delim, dtype=dtypes.bool, name="use_quote_delim"),
              convert_to_tensor(na_value, dtype=dtypes.string, name="na_value"),
              convert_to_tensor([] if select_cols is None else select_cols, dtype=dtypes.int64, name="select_cols")]
    exclude = convert_to_tensor([], dtype=dtypes.int64, name="exclude_cols")
    specs = tuple(Spec(d.dtype, TensorShape([])) for d in defaults)
    return _make("CSVDatasetV2", [*inputs, *defaults, exclude], specs, name)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """A dataset of batches of the records of the CSV files matching ``file_pattern``, each a dict
    of columns by name (and the column ``label_name`` apart, as ``(features, label)``).

    The files are read ``num_parallel_reads`` at a time (1 by default), the records shuffled with
    ``shuffle_seed`` through a buffer of ``shuffle_buffer_size`` and repeated ``num_epochs`` times
    (forever when None, the batches then all of ``batch_size``).

    Raises
    ------
    ValueError
        No file matches; no column names and no header; duplicate or unknown columns; a
        ``label_name`` that is no column; ``column_defaults`` and ``select_columns`` of other lengths.
    """
    from numflow.data.experimental import ignore_errors as skip_errors
    from numflow.data.experimental import parallel_interleave

    filenames = _file_names(file_pattern)
    dataset = Dataset.from_tensor_slices(filenames)
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    if compression_type not in (None, "", "GZIP"):
        raise ValueError(f"Received unknown `compression_type` {compression_type}. Expected: GZIP, ZLIB or "
                         "\"\" (empty string).")
    opener = _opener(compression_type, encoding)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = _column_names(filenames, field_delim, use_quote_delim, opener)
    duplicates = {a for a, b in zip(sorted(column_names)[:-1], sorted(column_names)[1:]) if a == b}
    if duplicates:
        raise ValueError(f"Either `column_names` argument or CSV header row contains duplicate column names: "
                         f"{duplicates}.")
    if select_columns is not None:
        select_columns = _column_indices(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = [constant([], dtype=d) if not isinstance(d, Tensor) and d in _CSV_TYPES else d
                           for d in column_defaults]
    else:
        column_defaults = _inferred_defaults(filenames, len(column_names), field_delim, use_quote_delim, na_value,
                                             header, num_rows_for_inference, select_columns, opener)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError(f"If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(column_defaults)}, `select_columns` has length "
                         f"{len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: "
                         f"{label_name}.")

    def filename_to_dataset(filename):
        records = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                             use_quote_delim=use_quote_delim, na_value=na_value, select_cols=select_columns,
                             header=header, compression_type=compression_type)
        return records.apply(skip_errors()) if ignore_errors else records

    def map_fn(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = dataset.apply(parallel_interleave(filename_to_dataset, cycle_length=num_parallel_reads or 1,
                                                block_length=1, sloppy=sloppy))
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size=batch_size, drop_remainder=num_epochs is None)
    dataset = dataset.map(map_fn)
    return dataset.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)


def _file_names(file_pattern):
    from numflow.io.gfile import glob

    if isinstance(file_pattern, list) and not file_pattern:
        raise ValueError("Argument `file_pattern` should not be empty.")
    names = glob(file_pattern)
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return names


def _opener(compression_type, encoding):
    """How to open a CSV file (local or at an fsspec URL) as text, to read its header and first rows."""
    from numflow.io.gfile import GFile

    def open_text(name):
        with GFile(name, "rb") as file:
            data = file.read()
        if compression_type == "GZIP":
            data = gzip.decompress(data)
        return io.StringIO(data.decode(encoding), newline="")

    return open_text


def _reader(file, delim, quoted):
    return csv.reader(file, delimiter=delim, quoting=csv.QUOTE_MINIMAL if quoted else csv.QUOTE_NONE)


def _column_names(filenames, delim, quoted, opener):
    names = None
    for name in filenames:
        with opener(name) as file:
            first = next(_reader(file, delim, quoted), None)
        if first is None:
            raise ValueError(f"Failed when reading the header line of {name}. Is it an empty file?")
        if names is not None and first != names:
            raise ValueError(f"All input CSV files should have the same column names in the header row. File {name} "
                             "has different column names.")
        names = first
    return names


def _column_indices(select_columns, column_names):
    """``select_columns`` (names or indices) as sorted indices."""
    positions = {n: i for i, n in enumerate(column_names)}
    indices = []
    for v in select_columns:
        if isinstance(v, int):
            if not 0 <= v < len(column_names):
                raise ValueError(f"Column index {v} specified in `select_columns` should be > 0  and <= "
                                 f"{len(column_names)}, which is the number of columns.")
            indices.append(v)
        elif v not in positions:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of the columns: "
                             f"{positions.keys()}.")
        else:
            indices.append(positions[v])
    if len(set(indices)) != len(select_columns):
        ordered = sorted(indices)
        raise ValueError(f"The `select_columns` argument contains duplicate columns: "
                         f"{ {a for a, b in zip(ordered[:-1], ordered[1:]) if a == b} }.")
    return sorted(set(indices))


def _inferred_defaults(filenames, num_cols, delim, quoted, na_value, header, num_rows, select_columns, opener):
    """A default (0 or "") of each column's type, inferred from the first ``num_rows`` records as
    the least permissive of int32, int64, float32, float64 and string that reads them all."""
    columns = range(num_cols) if select_columns is None else select_columns
    inferred = [None] * len(columns)
    for i, row in enumerate(_rows(filenames, num_cols, delim, quoted, header, opener)):
        if num_rows is not None and i >= num_rows:
            break
        for j, column in enumerate(columns):
            inferred[j] = _infer_type(row[column], na_value, inferred[j])
    inferred = [t or dtypes.string for t in inferred]
    return [constant([0 if t != dtypes.string else ""], dtype=t) for t in inferred]


def _rows(filenames, num_cols, delim, quoted, header, opener):
    for name in filenames:
        with opener(name) as file:
            rows = _reader(file, delim, quoted)
            number = 1
            if header:
                next(rows)
                number += 1
            for row in rows:
                if len(row) != num_cols:
                    raise ValueError(f"Problem inferring types: CSV row {number} has {len(row)} number of fields. "
                                     f"Expected: {num_cols}.")
                number += 1
                yield row


def _infer_type(text, na_value, previous):
    if text in ("", na_value):
        return previous
    candidates = [(dtypes.int32, _is_int32), (dtypes.int64, _is_int64), (dtypes.float32, _is_float32),
                  (dtypes.float64, _is_float64), (dtypes.string, lambda _: True)]
    for i, (dtype, valid) in enumerate(candidates):
        if valid(text) and (previous is None or previous in [c for c, _ in candidates[:i + 1]]):
            return dtype
    return None


def _is_int32(text):
    try:
        return np.int32(text) == np.int64(text)
    except (ValueError, OverflowError):
        return False


def _is_int64(text):
    try:
        np.int64(text)
        return True
    except (ValueError, OverflowError):
        return False


def _is_float32(text):
    return _is_float(text, np.float32)


def _is_float64(text):
    return _is_float(text, np.float64)


def _is_float(text, dtype):
    try:
        with np.errstate(over="ignore"):
            return bool(dtype(text) < np.inf)
    except ValueError:
        return False


# -- kernel ---------------------------------------------------------------------------------------
class CsvRecords(_DatasetValue):
    """The records of CSV files, parsed field by field as TensorFlow's ``CSVDatasetV2`` does."""

    def __init__(self, filenames, compression, header, delim, quoted, na_value, select, defaults):
        self.filenames = [f.decode() if isinstance(f, bytes) else str(f) for f in np.ravel(filenames).tolist()]
        self.compression, self.header, self.quoted = compression, header, quoted
        self.delim, self.na_value = delim, na_value
        self.stops = re.compile(b"[" + re.escape(delim) + (b'\n\r"]' if quoted else b"\n\r]"))
        self.select = select
        self.defaults = [np.ravel(d) for d in defaults]
        self.types = [d.dtype for d in self.defaults]

    def elements(self):
        for element, failure in self._records():
            if failure:
                raise ValueError(failure)
            yield element

    def elements_skipping_errors(self):
        for element, failure in self._records():
            if not failure:
                yield element

    def _records(self):
        """``(element, None)`` for each record, or ``(None, message)`` for one that fails."""
        for path in self.filenames:
            data = self._read(path)
            pos = 0
            if self.header:
                if not data:
                    raise errors.InvalidArgumentError(None, None, "Can't read header of empty file")
                end = data.find(b"\n")
                pos = len(data) if end < 0 else end + 1
            while pos < len(data):
                element, pos, failure = self._record(data, pos)
                yield element, failure

    def _read(self, path):
        from numflow.runtime.readers import read_file

        data = read_file(path)
        if self.compression == "GZIP":
            return gzip.decompress(data)
        if self.compression == "ZLIB":
            return zlib.decompress(data)
        return data

    def _record(self, data, pos):
        out, failure, parsed, chosen = [], None, 0, 0
        end_of_record = False
        while not end_of_record:
            include = not self.select or (chosen < len(self.select) and self.select[chosen] == parsed)
            pos, end_of_record, error = self._field(data, pos, include, out)
            failure = failure or error
            parsed += 1
            chosen += include
        if not failure and len(out) != len(self.types):
            failure = f"Expect {len(self.types)} fields but have {len(out)} in record"
        return (None if failure else tuple(out)), pos, failure

    def _field(self, data, pos, include, out):
        """Parse the field at ``pos``: ``(next position, end of record, first error or None)``."""
        n, delim = len(data), self.delim
        if pos >= n:  # the record ended with a delimiter at the end of the file
            return pos, True, self._output(b"", out) if include else None
        error = None
        if self.quoted and data[pos:pos + 1] == b'"':
            start, pos = pos, pos + 1
            while True:
                quote = data.find(b'"', pos)
                if quote < 0:
                    return n, True, "Reached end of file without closing quoted field in record"
                pos = quote + 1
                if pos >= n:
                    field, end = data[start:pos], True
                    break
                following = data[pos:pos + 1]
                pos += 1
                if following == delim or following in (b"\n", b"\r"):
                    field, end = data[start:pos - 1], following != delim
                    if following == b"\r" and data[pos:pos + 1] == b"\n":
                        pos += 1
                    break
                if following != b'"':
                    include = False
                    error = error or "Quote inside a string has to be escaped by another quote"
            if include:
                error = error or self._output(field[1:-1].replace(b'""', b'"'), out)
            return pos, end, error
        start = pos
        while True:  # to the delimiter or line end (past the quotes, each an error)
            stop = self.stops.search(data, pos)
            pos = n if stop is None else stop.start()
            if stop is None or data[pos:pos + 1] != b'"':
                break
            error = error or "Unquoted fields cannot have quotes inside"
            pos += 1
        field, end = data[start:pos], pos >= n or data[pos:pos + 1] != delim
        if include:
            error = error or self._output(field, out)
        pos += 1
        if data[pos - 1:pos] == b"\r" and data[pos:pos + 1] == b"\n":
            pos += 1
        return pos, end, error

    def _output(self, field, out):
        """Append ``field`` converted to its column's type to ``out``; the error message, or None."""
        index = len(out)
        if index >= len(self.types):
            return f"Expect {len(self.types)} fields but have more in record"
        out.append(None)
        default, dtype = self.defaults[index], self.types[index]
        if field == b"" or field == self.na_value:
            if default.size != 1:
                return f"Field {index} is required but missing in record!"
            out[index] = default[0] if dtype.kind == "O" else default.reshape(())
            return None
        if dtype.kind == "O":
            out[index] = np.array(field, dtype=object)
            return None
        try:
            text = field.decode("latin-1")
            if "_" in text:  # Python reads 1_000; C's strto* does not
                raise ValueError(text)
            value = float(text) if dtype.kind == "f" else int(text, 10)
            if dtype.kind == "i" and not np.iinfo(dtype).min <= value <= np.iinfo(dtype).max:
                raise ValueError(text)
        except ValueError:
            return f"Field {index} in record is not a valid {_TYPE_NAMES[dtype.name]}: {field.decode('latin-1')}"
        out[index] = np.array(value, dtype=dtype)
        return None


@register("CSVDatasetV2")
def _csv(ctx, filenames, compression_type, buffer_size, header, field_delim, use_quote_delim, na_value, select_cols,
         *inputs):
    defaults, exclude = inputs[:-1], inputs[-1]
    delim = field_delim.item()
    compression = compression_type.item().decode() if isinstance(compression_type.item(), bytes) else \
        str(compression_type.item())
    if int(buffer_size) <= 0:
        raise ValueError("buffer_size should be positive")
    if len(delim) != 1:
        raise ValueError("field_delim should be only 1 char")
    if compression not in ("", "ZLIB", "GZIP"):
        raise ValueError(f"Unsupported compression_type: {compression}.")
    select = [int(c) for c in np.ravel(select_cols)]
    if select and len(select) != len(defaults):
        raise ValueError("select_cols should match output size")
    if any(a >= b for a, b in zip(select, select[1:])):
        raise ValueError("select_cols should be strictly increasing indices")
    if select and select[0] < 0:
        raise ValueError("select_cols should be non-negative indices")
    if np.size(exclude):
        raise errors.UnimplementedError(None, None, "numflow's CsvDataset takes select_cols, not exclude_cols.")
    na = na_value.item()
    return CsvRecords(filenames, compression, bool(header), delim, bool(use_quote_delim), na, select, defaults)

