"""The kernels of TensorFlow 1.x's file readers (``TFRecordReaderV2``, ``TextLineReaderV2``,
``WholeFileReaderV2``, ``FixedLengthRecordReaderV2``) and of the ops that use them (``ReaderReadV2``,
``ReaderReadUpToV2``, ``ReaderNumRecordsProducedV2``, ``ReaderNumWorkUnitsCompletedV2``,
``ReaderResetV2``).

A reader is a resource of the session's container: the records left in its current file (a
generator of ``(key, value)``) and its counts. When the file is done, the next read dequeues the next
file name from the queue (``numflow.runtime.queues``), waiting as a dequeue waits; a closed, empty
queue ends the reads with the queue's OutOfRangeError, as in TensorFlow (``reader_base.cc``). One
lock per reader: reads from several threads take records in turn, each record once.
"""

import threading

import numpy as np

from numflow.framework import errors
from numflow_kernels.registry import register


def _open(path):
    from numflow import records

    try:
        return records.open_file(path, "rb")
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None


def _tf_records(attrs):
    def records_of(path):
        from numflow import records

        _open(path).close()
        offset = 0
        options = records.TFRecordOptions(attrs["compression_type"] or None)
        for data in records.tf_record_iterator(path, options):
            yield f"{path}:{offset}".encode(), data
            offset += 16 + len(data)  # length, its crc, the data, the data's crc

    return records_of


def _text_lines(attrs):
    def records_of(path):
        with _open(path) as file:
            for number, line in enumerate(file, start=1):
                if number > attrs["skip_header_lines"]:
                    yield f"{path}:{number}".encode(), line.rstrip(b"\n").rstrip(b"\r")

    return records_of


def _whole_files(attrs):
    def records_of(path):
        yield path.encode(), read_file(path)

    return records_of


def fixed_length_records(data, header, size, footer, hop=0):
    """The records of ``size`` bytes in ``data`` between its header and footer, each ``hop`` bytes
    (``size`` when 0) after the last; a last, shorter piece is left out, as TensorFlow leaves it."""
    hop = hop or size
    body = data[header:max(header, len(data) - footer)]
    return [body[start:start + size] for start in range(0, len(body) - size + 1, hop)]


def read_file(path):
    """The bytes of file ``path``; NotFoundError naming it when it does not exist."""
    with _open(path) as file:
        return file.read()


def _fixed_length(attrs):
    def records_of(path):
        pieces = fixed_length_records(read_file(path), attrs["header_bytes"], attrs["record_bytes"],
                                      attrs["footer_bytes"], attrs["hop_bytes"])
        for index, piece in enumerate(pieces):
            yield f"{path}:{index}".encode(), piece

    return records_of


_RECORDS_OF = {"TFRecordReaderV2": _tf_records, "TextLineReaderV2": _text_lines,
               "WholeFileReaderV2": _whole_files, "FixedLengthRecordReaderV2": _fixed_length}


class Reader:
    """One reader of one container: its current file's records and its counts."""

    def __init__(self, records_of):
        self.records_of = records_of
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.current = None
        self.produced = 0
        self.completed = 0

    def read(self, queue, n, up_to):
        """The next ``n`` records; with ``up_to``, those left in one file (as TensorFlow's
        ``ReadUpTo``: a file's end ends the batch) or, once the queue has ended, those taken."""
        taken = []
        with self.lock:
            while len(taken) < n:
                if self.current is None:
                    try:
                        (element,) = queue.dequeue(1)
                    except errors.OutOfRangeError:
                        if up_to and taken:
                            break
                        raise
                    name = np.asarray(element[0]).item()
                    self.current = self.records_of(name.decode() if isinstance(name, bytes) else str(name))
                record = next(self.current, None)
                if record is None:
                    self.current = None
                    self.completed += 1
                    if up_to and taken:
                        break
                    continue
                taken.append(record)
                self.produced += 1
        return taken


def _reader_kernel(op_type):
    @register(op_type)
    def make(ctx):
        records_of = _RECORDS_OF[op_type](ctx.attrs)
        name = ctx.attrs.get("shared_name") or ctx.op_name
        return ctx.resources.get_or_create(("reader", name), lambda: Reader(records_of))


for _op_type in _RECORDS_OF:
    _reader_kernel(_op_type)


@register("ReaderReadV2")
def _read(ctx, reader, queue):
    ((key, value),) = reader.read(queue, 1, up_to=False)
    return np.array(key, dtype=object), np.array(value, dtype=object)


@register("ReaderReadUpToV2")
def _read_up_to(ctx, reader, queue, num_records):
    n = int(num_records)
    if n <= 0:
        raise ValueError(f"num_records must be > 0 but got {n}")
    taken = reader.read(queue, n, up_to=True)
    keys = np.empty(len(taken), dtype=object)
    values = np.empty(len(taken), dtype=object)
    for i, (key, value) in enumerate(taken):
        keys[i], values[i] = key, value
    return keys, values


@register("ReaderNumRecordsProducedV2")
def _produced(ctx, reader):
    return np.array(reader.produced, dtype=np.int64)


@register("ReaderNumWorkUnitsCompletedV2")
def _completed(ctx, reader):
    return np.array(reader.completed, dtype=np.int64)


@register("ReaderResetV2")
def _reset(ctx, reader):
    with reader.lock:
        reader.reset()
    return ()
