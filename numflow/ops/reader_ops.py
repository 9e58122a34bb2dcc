"""TensorFlow 1.x's file readers over a queue of file names: ``tf.TFRecordReader``,
``tf.TextLineReader``, ``tf.WholeFileReader`` and ``tf.FixedLengthRecordReader``, with TensorFlow's
ops (``TFRecordReaderV2``, ``ReaderReadV2``, ``ReaderReadUpToV2``...) and names. A reader lives in
the session's container (``numflow.runtime.readers``): it remembers its file and position across
runs, and takes the next file name from the queue when one is done.

>>> import numflow as tf
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "lines.txt")
>>> _ = open(path, "w").write("header\\nfirst\\nsecond\\n")
>>> with tf.Graph().as_default():
...     queue = tf.FIFOQueue(1, tf.string)
...     key, value = tf.TextLineReader(skip_header_lines=1).read(queue)
...     with tf.Session() as sess:
...         sess.run(queue.enqueue([path]))
...         sess.run(value), sess.run(key).endswith(b"lines.txt:3")
(b'first', True)
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import _out
from numflow.runtime import readers  # noqa: F401  (the reader kernels, registered by import)

_SCALAR = TensorShape([])
_READER_TYPES = ("TFRecordReaderV2", "TextLineReaderV2", "WholeFileReaderV2", "FixedLengthRecordReaderV2")

for _op_type in _READER_TYPES:
    declare(_op_type, stateful=True)(lambda op: [(dtypes.resource, _SCALAR)])
declare("ReaderReadV2", stateful=True, blocking=True)(lambda op: [(dtypes.string, _SCALAR)] * 2)
declare("ReaderReadUpToV2", stateful=True, blocking=True)(lambda op: [(dtypes.string, TensorShape([None]))] * 2)
declare("ReaderNumRecordsProducedV2", stateful=True)(lambda op: [(dtypes.int64, _SCALAR)])
declare("ReaderNumWorkUnitsCompletedV2", stateful=True)(lambda op: [(dtypes.int64, _SCALAR)])
declare("ReaderResetV2", stateful=True)(lambda op: [])


class ReaderBase:
    """A reader of records from the files a queue names (``tf.ReaderBase``).

    Parameters
    ----------
    reader_ref : Tensor
        The reader's resource tensor.
    supports_serialize : bool
        Whether ``serialize_state`` works (numflow's readers: no).
    """

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return self._supports_serialize

    def _op(self, op_type, inputs, name, num_records=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            if num_records is not None:
                inputs = [*inputs, convert_to_tensor(num_records, dtype=dtypes.int64, name="num_records")]
            return _out(op_type, [self._reader_ref, *inputs], name=scope)

    def read(self, queue, name=None):
        """The next record's (key, value), taking the next file name from ``queue`` when needed."""
        key, value = self._op("ReaderReadV2", [_queue_ref(queue)], name)
        return key, value

    def read_up_to(self, queue, num_records, name=None):
        """Up to ``num_records`` (keys, values) at once; fewer when the queue ends."""
        keys, values = self._op("ReaderReadUpToV2", [_queue_ref(queue)], name, num_records)
        return keys, values

    def num_records_produced(self, name=None):
        """How many records this reader has produced."""
        return self._op("ReaderNumRecordsProducedV2", [], name)[0]

    def num_work_units_completed(self, name=None):
        """How many files this reader has finished."""
        return self._op("ReaderNumWorkUnitsCompletedV2", [], name)[0]

    def reset(self, name=None):
        """An op that sends the reader back to its initial, clean state."""
        with get_default_graph().name_scope(name or "ReaderResetV2") as scope:
            return get_default_graph().create_op("ReaderResetV2", [self._reader_ref], name=scope)


def _queue_ref(queue):
    return queue if is_tensor(queue) else queue.queue_ref


def _reader(op_type, attrs, name):
    attrs = {**attrs, "container": "", "shared_name": ""}
    with get_default_graph().name_scope(name or op_type) as scope:
        return _out(op_type, [], attrs, name=scope)[0]


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files; keys are ``file:offset`` (``tf.TFRecordReader``).

    Parameters
    ----------
    name : str, optional
    options : TFRecordOptions, optional
        The files' compression.
    """

    def __init__(self, name=None, options=None):
        from numflow.records import TFRecordOptions

        compression = TFRecordOptions.get_compression_type_string(options) if options else ""
        super().__init__(_reader("TFRecordReaderV2", {"compression_type": compression}, name))


class TextLineReader(ReaderBase):
    """Reads the lines of text files, without their line ends; keys are ``file:line`` (1-based)
    (``tf.TextLineReader``). ``skip_header_lines`` lines are skipped at the start of every file."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(_reader("TextLineReaderV2", {"skip_header_lines": int(skip_header_lines or 0)}, name))


class WholeFileReader(ReaderBase):
    """Reads each file whole; the key is its name (``tf.WholeFileReader``)."""

    def __init__(self, name=None):
        super().__init__(_reader("WholeFileReaderV2", {}, name))


class FixedLengthRecordReader(ReaderBase):
    """Reads records of ``record_bytes`` bytes after ``header_bytes`` and before ``footer_bytes``, each
    ``hop_bytes`` after the last (``record_bytes`` when 0); keys are ``file:index``
    (``tf.FixedLengthRecordReader``)."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None, encoding=None):
        if encoding:
            raise NotImplementedError("numflow's FixedLengthRecordReader reads uncompressed files only.")
        attrs = {"header_bytes": int(header_bytes or 0), "record_bytes": int(record_bytes),
                 "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0), "encoding": ""}
        super().__init__(_reader("FixedLengthRecordReaderV2", attrs, name))


not_differentiable(*_READER_TYPES, "ReaderReadV2", "ReaderReadUpToV2", "ReaderNumRecordsProducedV2",
                   "ReaderNumWorkUnitsCompletedV2", "ReaderResetV2")
