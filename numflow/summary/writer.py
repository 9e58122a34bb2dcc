"""``tf.summary.FileWriter``: summaries, graphs and run metadata into TensorBoard's event files.

An event file is a TFRecord file (``numflow.records``) of serialized ``tensorflow.Event`` messages,
named ``events.out.tfevents.<seconds, 10 digits>.<hostname>[suffix]`` and opened by its first event,
which gives the file version (``brain.Event:2``). As in TensorFlow, ``add_*`` calls stamp the event
with the wall time and step and hand it to a background thread, which serializes, writes and
flushes; ``flush()`` and ``close()`` wait for it. After ``close()``, ``reopen()`` starts a new file.

Unlike TensorFlow's thread, woken for each event, numflow's takes them in batches of ``max_queue``
(and whatever waits every ``flush_secs``): a summary every training step then costs the step an
append, not a hand-off of the interpreter to another thread and back. What reaches the disk, and
when a flush makes it visible, is the same.
"""

import collections
import functools
import os
import socket
import sys
import threading
import time
import warnings

from numflow import records

FILE_VERSION = "brain.Event:2"
WRITER_NAME = "numflow.summary.FileWriter"


@functools.cache
def _message(name):
    from numflow.framework.graph_io import message_class

    return message_class(name)


def _as_message(value, name, argument):
    """``value`` as numflow's message ``name``: itself, or TensorFlow's message of that name re-read;
    TypeError naming ``argument`` for anything else."""
    cls = _message(name)
    if isinstance(value, cls):
        return value
    if getattr(getattr(value, "DESCRIPTOR", None), "full_name", "") == f"tensorflow.{name}":
        return cls.FromString(value.SerializeToString())
    raise TypeError(f"{argument} must be type {name}, saw type: {type(value)}")


class _EventsFile:
    """One events file: opened by the first record written, as TensorFlow's ``EventsWriter`` does."""

    def __init__(self, logdir, suffix):
        self._logdir, self._suffix = logdir, suffix or ""
        self._file = None

    def write(self, serialized_events):
        """Append events (serialized), with one write to the file."""
        if self._file is None:
            self._open()
        self._file.write(b"".join(map(records.frame, serialized_events)))

    def _open(self):
        now = time.time()
        base = os.path.join(self._logdir, f"events.out.tfevents.{int(now):010d}.{socket.gethostname()}{self._suffix}")
        path, n = base, 0
        while True:  # two writers of one directory in the same second each get a file of their own
            try:
                self._file = records.open_file(path, "xb")
                break
            except FileExistsError:
                n += 1
                path = f"{base}.{n}"
        first = _message("Event")(wall_time=int(now), file_version=FILE_VERSION)
        first.source_metadata.writer = WRITER_NAME
        self._file.write(records.frame(first.SerializeToString()))
        self._file.flush()

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None


class _WriterThread(threading.Thread):
    """Writes the events ``add_event`` leaves in ``pending``: a batch once ``max_queue`` of them wait, at
    least every ``flush_secs`` (then flushing the file), and at once on a flush or close request.

    The state it shares with the callers (``flush_wanted``, ``closing``, ``flushed``) changes under
    ``cond``; ``pending`` is a deque callers append to and the thread pops from; the file is the
    thread's alone.
    """

    def __init__(self, file, max_queue, flush_secs):
        super().__init__(name="numflow-event-writer", daemon=True)
        self.file, self.max_queue, self.flush_secs = file, max(int(max_queue), 1), flush_secs
        self.cond = threading.Condition()
        self.pending = collections.deque()
        self.flush_wanted = self.closing = False
        self.flushed = 0  # flush requests done so far
        self.failure = None  # what stopped the thread
        self.bad_event = None  # the error of an event left out, for the caller

    def run(self):
        next_flush = time.monotonic() + self.flush_secs
        try:
            while True:
                with self.cond:
                    while (len(self.pending) < self.max_queue and not self.flush_wanted and not self.closing
                           and time.monotonic() < next_flush):
                        self.cond.wait(max(next_flush - time.monotonic(), 0))
                    pending, batch = self.pending, []
                    while pending:  # callers append without the lock: take events one by one, losing none
                        batch.append(pending.popleft())
                    flush_wanted, closing = self.flush_wanted, self.closing
                    self.flush_wanted = False
                    self.cond.notify_all()  # callers waiting for room
                if batch:
                    self.file.write(self._serialized(batch))
                if flush_wanted or closing or time.monotonic() >= next_flush:
                    self.file.flush()
                    next_flush = time.monotonic() + self.flush_secs
                if flush_wanted:
                    self._done_flushing()
                if closing:
                    return
        except BaseException:  # noqa: BLE001 - raised again to the caller's next add, flush or close
            self.failure = sys.exc_info()[1]
            self._done_flushing()

    def _serialized(self, events):
        """The events' bytes, leaving out any that cannot be made (its error kept for the caller)."""
        out = []
        for event in events:
            try:
                out.append(event.SerializeToString())
            except _BadEvent as bad:
                with self.cond:
                    self.bad_event = self.bad_event or bad.args[0]
        return out

    def _done_flushing(self):
        with self.cond:
            self.flushed += 1
            self.cond.notify_all()


class EventFileWriter:
    """Writes Event messages to an events file in ``logdir`` from a background thread.

    Parameters
    ----------
    logdir : str
        The directory (created when missing).
    max_queue : int
        How many events wait before the thread writes them; with twice as many waiting, ``add_event``
        waits for the thread.
    flush_secs : float
        How often the thread writes what waits and flushes the file.
    filename_suffix : str, optional
        Appended to the file's name.
    """

    def __init__(self, logdir, max_queue=10, flush_secs=120, filename_suffix=None):
        self._logdir = str(logdir)
        records.make_dirs(self._logdir)
        self._max_queue, self._flush_secs = max_queue, flush_secs
        self._file = _EventsFile(self._logdir, filename_suffix)
        self._start()
        self._closed = False

    def _start(self):
        self._thread = _WriterThread(self._file, self._max_queue, self._flush_secs)
        self._thread.start()

    def get_logdir(self):
        """The directory events are written to."""
        return self._logdir

    def add_event(self, event):
        """Queue ``event`` (an Event message) to be written.

        The common case takes no lock: a deque appends atomically, and the thread takes events off
        the other end; only a full batch (waking the thread) or a backlog (waiting for it) locks.
        """
        if self._closed:
            return
        thread = self._thread
        pending = thread.pending
        if thread.failure is not None or len(pending) >= 2 * thread.max_queue:
            with thread.cond:
                while len(pending) >= 2 * thread.max_queue and thread.failure is None:
                    thread.cond.wait()
                self._raise_failure()
        pending.append(event)
        if len(pending) >= thread.max_queue or thread.bad_event is not None:
            with thread.cond:
                thread.cond.notify_all()
                self._raise_bad_event()

    def _raise_failure(self):
        """The error that stopped the writer thread, raised here once the file is closed (under ``cond``)."""
        if self._thread.failure is not None:
            self._closed = True
            self._file.close()
            raise self._thread.failure

    def _raise_bad_event(self):
        """The error of an event the thread left out, raised once (under ``cond``)."""
        thread = self._thread
        if thread.bad_event is not None:
            bad, thread.bad_event = thread.bad_event, None
            raise bad

    def flush(self):
        """Write every queued event and flush the file."""
        if self._closed:
            return
        thread = self._thread
        with thread.cond:
            self._raise_failure()
            target = thread.flushed + 1
            thread.flush_wanted = True
            thread.cond.notify_all()
            while thread.flushed < target:
                thread.cond.wait()
            self._raise_failure()
            self._raise_bad_event()

    def close(self):
        """Flush, stop the thread and close the file; later events are dropped until ``reopen``."""
        if self._closed:
            return
        thread = self._thread
        with thread.cond:
            thread.closing = True
            thread.cond.notify_all()
        thread.join()
        with thread.cond:
            self._raise_failure()
            self._closed = True
            self._file.close()
            self._raise_bad_event()

    def reopen(self):
        """Start again after ``close``: the next event opens a new file."""
        if self._closed:
            self._start()
            self._closed = False


class FileWriter:
    """Writes summaries, graphs and run metadata for TensorBoard (``tf.summary.FileWriter``).

    Parameters
    ----------
    logdir : str
        The directory of the event file (TensorBoard's ``--logdir``, or a run below it).
    graph : Graph, optional
        Written at once as the graph TensorBoard shows, with its MetaGraphDef (``sess.graph``).
    max_queue : int
        How many events may wait to be written before ``add_*`` calls wait.
    flush_secs : float
        How often queued events reach the disk.
    graph_def : GraphDef, optional
        Deprecated form of ``graph``.
    filename_suffix : str, optional
        Appended to the event file's name.
    session : optional
        Not supported (TensorFlow 2's summary-op writer); must be None.

    Examples
    --------
    >>> import tempfile, numflow as tf
    >>> with tf.Graph().as_default() as g:
    ...     loss = tf.summary.scalar("loss", tf.constant(0.5))
    ...     with tf.Session() as sess, tf.summary.FileWriter(tempfile.mkdtemp(), sess.graph) as writer:
    ...         writer.add_summary(sess.run(loss), global_step=1)
    """

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None, filename_suffix=None,
                 session=None):
        if session is not None:
            raise NotImplementedError("FileWriter(session=...) writes through TensorFlow 2's summary ops, which "
                                      "numflow does not have; leave session out.")
        self.event_writer = EventFileWriter(logdir, max_queue, flush_secs, filename_suffix)
        self._closed = False
        self._seen_summary_tags = set()
        self._session_run_tags = set()
        if graph is not None or graph_def is not None:
            self._add_graph_and_meta_graph(graph, graph_def)

    def _add_graph_and_meta_graph(self, graph, graph_def):
        from numflow.framework.graph import Graph
        from numflow.framework.meta_graph import export_meta_graph

        true_graph_def = self.add_graph(graph, graph_def=graph_def)
        with (graph if isinstance(graph, Graph) else _default_graph()).as_default():
            self.add_meta_graph(export_meta_graph(graph_def=true_graph_def,
                                                  graph=graph if isinstance(graph, Graph) else None))

    # -- what TensorFlow's SummaryToEventTransformer adds ------------------------------------
    def add_summary(self, summary, global_step=None):
        """Add a ``Summary`` (the message, or the bytes a summary op gives) at ``global_step``.

        A value's metadata is kept the first time its tag is seen and dropped after, as in TensorFlow.
        The bytes are read into an Event by the writer thread, in the order of the calls: a summary
        every step costs the training loop a stamp and an append. Bytes that are not a Summary raise
        ``DecodeError`` at the next call (or ``flush``); they alone are not written.
        """
        self._warn_if_closed()
        if not isinstance(summary, bytes | bytearray):
            summary = _as_message(summary, "Summary", "summary").SerializeToString()
        self.event_writer.add_event(_SummaryEvent(summary, time.time(), global_step, self._seen_summary_tags))

    def add_session_log(self, session_log, global_step=None):
        """Add a ``SessionLog`` (START, STOP or CHECKPOINT) at ``global_step``."""
        event = _message("Event")()
        event.session_log.CopyFrom(_as_message(session_log, "SessionLog", "session_log"))
        self._add_event(event, global_step)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Add the graph TensorBoard's graph tab shows: a Graph (with its shapes), or a GraphDef.

        Returns the GraphDef written. Raises ValueError for both arguments, TypeError for neither.
        """
        from numflow.framework.graph import Graph

        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        given = graph if graph is not None else graph_def
        if isinstance(given, Graph):
            true_graph_def = given.as_graph_def(add_shapes=True)
        elif given is not None and hasattr(given, "SerializeToString"):
            true_graph_def = _as_message(given, "GraphDef", "graph_def")
        else:
            raise TypeError("The passed graph must be an instance of `Graph` or the deprecated `GraphDef`")
        event = _message("Event")(graph_def=true_graph_def.SerializeToString())
        self._add_event(event, global_step)
        return true_graph_def

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Add a ``MetaGraphDef``; TypeError for anything else."""
        meta_graph_def = _as_message(meta_graph_def, "MetaGraphDef", "meta_graph_def")
        self._add_event(_message("Event")(meta_graph_def=meta_graph_def.SerializeToString()), global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """Add a traced run's ``RunMetadata`` under ``tag``: TensorBoard's graph tab shows each op's time.

        Raises ValueError for a tag used before by this writer.
        """
        if tag in self._session_run_tags:
            raise ValueError("The provided tag was already used for this event type")
        self._session_run_tags.add(tag)
        event = _message("Event")()
        event.tagged_run_metadata.tag = tag
        event.tagged_run_metadata.run_metadata = run_metadata.SerializeToString()
        self._add_event(event, global_step)

    def _add_event(self, event, step):
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    # -- the file ----------------------------------------------------------------------------
    def add_event(self, event):
        """Add an ``Event`` as it is."""
        self._warn_if_closed()
        self.event_writer.add_event(_as_message(event, "Event", "event"))

    def _warn_if_closed(self):
        if self._closed:
            warnings.warn("Attempting to use a closed FileWriter. The operation will be a noop unless the "
                          "FileWriter is explicitly reopened.", stacklevel=3)

    def get_logdir(self):
        """The directory of the event file."""
        return self.event_writer.get_logdir()

    def flush(self):
        """Write every pending event to disk."""
        self._warn_if_closed()
        self.event_writer.flush()

    def close(self):
        """Flush and close the file; ``reopen`` starts a new one."""
        self.event_writer.close()
        self._closed = True

    def reopen(self):
        """Reopen a closed writer: later events go to a new event file in the same directory."""
        self.event_writer.reopen()
        self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()


class _SummaryEvent:
    """A summary's Event, made when the writer thread serializes it (``_WriterThread``)."""

    __slots__ = ("summary", "wall_time", "step", "seen_tags")

    def __init__(self, summary, wall_time, step, seen_tags):
        self.summary, self.wall_time, self.step, self.seen_tags = summary, wall_time, step, seen_tags

    def SerializeToString(self):  # noqa: N802 - the method the thread calls on every event
        from google.protobuf.message import DecodeError

        event = _message("Event")(wall_time=self.wall_time)
        if self.step is not None:
            event.step = int(self.step)
        try:
            event.summary.MergeFromString(bytes(self.summary))
        except DecodeError as exc:
            raise _BadEvent(DecodeError(f"add_summary was given bytes that are not a Summary ({exc})")) from None
        for value in event.summary.value:
            if value.tag in self.seen_tags:
                value.ClearField("metadata")
            else:
                self.seen_tags.add(value.tag)
        return event.SerializeToString()


class _BadEvent(Exception):
    """An event the writer thread leaves out, its error (``args[0]``) raised to the writer's next caller."""


def _default_graph():
    from numflow.framework.graph import get_default_graph

    return get_default_graph()


class FileWriterCache:
    """One FileWriter per log directory, shared (``tf.summary.FileWriterCache``)."""

    _cache = {}
    _lock = threading.RLock()

    @staticmethod
    def get(logdir):
        """The FileWriter of ``logdir``, made with the default graph the first time."""
        with FileWriterCache._lock:
            if logdir not in FileWriterCache._cache:
                FileWriterCache._cache[logdir] = FileWriter(logdir, graph=_default_graph())
            return FileWriterCache._cache[logdir]

    @staticmethod
    def clear():
        """Close every cached writer and forget them."""
        with FileWriterCache._lock:
            for writer in FileWriterCache._cache.values():
                writer.close()
            FileWriterCache._cache = {}


def summary_iterator(path):
    """The ``Event`` messages of an event file, in order (``tf.train.summary_iterator``).

    Raises ``DataLossError`` for a corrupt or truncated record, ``NotFoundError`` for a missing file.
    """
    event = _message("Event")
    for record in records.tf_record_iterator(path):
        yield event.FromString(record)
