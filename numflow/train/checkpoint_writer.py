"""The background writer of ``Saver(enable_async=True)``: one checkpoint at a time per Saver.

The step that saves takes read-only snapshots of the variables (``Session._fetch_snapshots``, no
copy: a variable updated afterwards copies its buffer while the snapshot lives) and hands a
``write()`` of them to :class:`BackgroundWriter`, which runs it on a thread of its own and returns
at once. The write does everything that needs the checkpoint complete: the bundle, then the
``checkpoint`` state file, then the deletions of ``max_to_keep``.

Waiting: ``start`` waits for the write before it, ``wait`` for the one in progress; the Saver's
``sync``, the session's ``close`` and ``CheckpointSaverHook.end`` call ``wait``. The thread is not a
daemon, so the interpreter waits for it at exit too. A failed write is kept and raised by the next
``start`` or ``wait``, as its own error class with a message naming the checkpoint; one that nothing
asked about by the time the process exits is logged.
"""

import atexit
import logging
import threading
import weakref

from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.slices import add_value
from numflow.framework import errors

_log = logging.getLogger(__name__)
_writers = weakref.WeakSet()


def write_snapshots(prefix, keys, snapshots, background=False, specs=None):
    """Write ``snapshots`` (a list, in key order) as checkpoint ``prefix``, letting go of each once written.

    A variable updated after its snapshot is written no longer has to copy its buffer. In the
    ``background``, the writing thread does all the work itself, leaving the other cores to training.
    ``specs`` gives each a slice spec (a part of a partitioned variable), or "" for a whole tensor.
    """
    with BundleWriter(prefix, helper_threads=not background) as writer:
        for i, key in enumerate(keys):
            add_value(writer, key, specs[i] if specs else "", snapshots[i])
            snapshots[i] = None



class BackgroundWriter:
    """Runs one ``write()`` at a time on its own thread; the failure of one is raised by the next call."""

    def __init__(self):
        self._lock = threading.Lock()
        self._thread = None
        self._failure = None
        _writers.add(self)

    @property
    def busy(self):
        """Whether a write is in progress."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def start(self, prefix, write):
        """Run ``write()`` (which writes checkpoint ``prefix``) in the background, after the previous one.

        Raises
        ------
        OpError
            The previous write failed (its class, naming its checkpoint); this one is not started.
        """
        with self._lock:
            self._wait_locked()
            thread = threading.Thread(target=self._run, args=(prefix, write), name=f"numflow-save:{prefix}")
            self._thread = thread
            thread.start()

    def wait(self):
        """Wait until the write in progress is done; raise its failure (once)."""
        with self._lock:
            self._wait_locked()

    def _wait_locked(self):
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None
        failure, self._failure = self._failure, None
        if failure is not None:
            prefix, exc = failure
            if isinstance(exc, errors.OpError):
                raise type(exc)(None, None, f"Saving checkpoint {prefix} in the background failed: "
                                            f"{exc.message}") from exc
            raise exc

    def _run(self, prefix, write):
        try:
            write()
        except BaseException as exc:  # noqa: BLE001 - kept for the next call on the caller's thread
            self._failure = (prefix, exc)


@atexit.register
def _report_unclaimed_failures():
    """At exit (after the writes' threads ended), log the failures no call was left to raise."""
    for writer in list(_writers):
        if writer._failure is not None:
            prefix, exc = writer._failure
            _log.error("Saving checkpoint %s in the background failed: %s", prefix, exc)
