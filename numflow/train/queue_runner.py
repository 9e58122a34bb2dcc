"""``tf.train.QueueRunner``: threads that run a queue's enqueue ops until it closes or a Coordinator
asks them to stop, as TensorFlow 1.x's input pipelines start them (``start_queue_runners``).

Each enqueue op gets a thread running it again and again (``create_threads``). The end of the input
(an ``OutOfRangeError`` from upstream, or the queue closed) ends the thread, and the last one to end
closes the queue, so that the consumer drains it and then sees ``OutOfRangeError``. With a
Coordinator, one more thread waits for the stop request and then cancels the queue, which frees
enqueues waiting for room. A closed session cancels its queues too: no thread is left behind.
"""

import logging
import threading
import weakref

from numflow.framework import errors
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.runtime import queues

_log = logging.getLogger("tensorflow")

# What ends a runner's thread quietly: its queue closed (or cancelled with its closed session).
_ENDED = (errors.CancelledError,)


class QueueRunner:
    """The enqueue ops of one queue and how to close it.

    Parameters
    ----------
    queue : QueueBase
    enqueue_ops : list of Operation
        Each runs in a thread of its own.
    close_op, cancel_op : Operation, optional
        Default ``queue.close()`` and ``queue.close(cancel_pending_enqueues=True)``.
    queue_closed_exception_types : tuple of exception classes
        What means the input ended (default ``(tf.errors.OutOfRangeError,)``).
    """

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            raise NotImplementedError("numflow builds QueueRunners from their queue, not from a QueueRunnerDef.")
        if queue is None or not enqueue_ops:
            raise ValueError("Either queue_runner_def or queue must be specified." if queue is None
                             else "enqueue_ops must be specified.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    queue = property(lambda self: self._queue)
    enqueue_ops = property(lambda self: self._enqueue_ops)
    close_op = property(lambda self: self._close_op)
    cancel_op = property(lambda self: self._cancel_op)
    queue_closed_exception_types = property(lambda self: self._queue_closed_exception_types)
    exceptions_raised = property(lambda self: list(self._exceptions_raised))

    @property
    def name(self):
        return self._queue.name

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """The threads running this runner's enqueue ops in ``sess`` (none when they already run there).

        With ``coord``, the threads stop when it asks them to, report errors to it, and are
        registered with it for ``coord.join()``.
        """
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), daemon=daemon,
                                    name=f"QueueRunnerThread-{self.name}-{op.name}") for op in self._enqueue_ops]
        if coord is not None:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, coord), daemon=daemon,
                                            name=f"QueueRunnerThread-{self.name}-close_on_stop"))
        for t in threads:
            if coord is not None:
                coord.register_thread(t)
            if start:
                t.start()
        return threads

    def _run(self, sess, enqueue_op, coord):
        queues.runner_thread.active = True
        ended = False
        try:
            while not (coord is not None and coord.should_stop()):
                try:
                    sess.run(enqueue_op)
                except self._queue_closed_exception_types:
                    ended = True
                    self._end(sess, close=True)
                    return
        except _ENDED:
            return
        except RuntimeError:
            if getattr(sess, "_closed", False):
                return  # the session closed under the thread: its queues were cancelled with it
            raise
        except Exception as e:  # noqa: BLE001 - as TF: reported to the coordinator, or raised in the thread
            if coord is not None:
                coord.request_stop(e)
            else:
                _log.error("Exception in QueueRunner: %s", e)
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not ended:
                self._end(sess, close=False)

    def _end(self, sess, close):
        """Count one thread of ``sess`` out; the last to end after the input ended closes the queue."""
        with self._lock:
            self._runs_per_session[sess] = self._runs_per_session.get(sess, 1) - 1
            last = self._runs_per_session[sess] == 0
        if close and last:
            try:
                sess.run(self._close_op)
            except Exception as e:  # noqa: BLE001 - as TF: an error closing is ignored
                _log.debug("Ignored exception: %s", e)

    def _close_on_stop(self, sess, coord):
        coord.wait_for_stop()
        try:
            sess.run(self._cancel_op)
        except Exception as e:  # noqa: BLE001 - as TF: an error cancelling is ignored
            _log.debug("Ignored exception: %s", e)


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Add ``qr`` to the graph's ``collection``, where ``start_queue_runners`` finds it."""
    get_default_graph().add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=GraphKeys.QUEUE_RUNNERS):
    """Start the threads of every QueueRunner of ``collection`` in ``sess`` (default: the default
    session); returns them."""
    from numflow.runtime.session import get_default_session

    sess = sess if sess is not None else get_default_session()
    if sess is None:
        raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                         "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    threads = []
    for qr in sess.graph.get_collection(collection):
        threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads
