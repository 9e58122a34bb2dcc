"""Transports: how a worker's session reaches a task that runs in another process.

A session whose target names remote tasks holds one :class:`RemoteTask` per such task (in place of
that task's variable container). It connects on first use, waiting with backoff for a task that is
not up yet; registers the task's partitions of the session's plans once each (TensorFlow's
RegisterGraph); and runs one of them per call (RunGraph), with numpy arrays crossing both ways.
Every call carries the incarnation the session first saw: a task that restarted since (and so came
back with uninitialized variables) answers ``AbortedError``, never silently runs on fresh values.

A transport moves the calls. :class:`LoopbackTransport` runs the tasks in this process and pickles
every registration, tensor and answer both ways, so the cluster's code paths run without Ray;
``numflow.cluster.ray_transport`` runs each task as a Ray actor.
"""

import pickle
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from numflow.framework import errors


def task_name(job, task):
    return f"/job:{job}/replica:0/task:{task}"


class TaskUnavailable(Exception):
    """A transport could not reach a task (it died, or the call was lost)."""


def raise_answer_error(answer, graph):
    """Re-raise a remote task's error answer ``("error", class name, op name, message)`` as its class."""
    _, class_name, op_name, message = answer
    cls = getattr(errors, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, errors.OpError)):
        cls = errors.InternalError
    op = None
    if op_name is not None:
        try:
            op = graph.get_operation_by_name(op_name)
        except (KeyError, ValueError):
            op = None
    raise cls(None, op, message)


class Transport:
    """Finds tasks and calls them. ``connect`` returns an endpoint with ``incarnation``,
    ``register(blob)``, ``submit(method, *args)`` (a pending call) and ``wait(pending)``."""

    def connect(self, job, task):
        """The endpoint of ``/job:job/task:task``, or None while it is not up."""
        raise NotImplementedError

    def wait(self, pending, timeout):
        """The answers of pending calls (in order); raises TaskUnavailable(index) for a lost one."""
        raise NotImplementedError


class RemoteTask:
    """A session's view of one remote task: its endpoint, incarnation and registered partitions.

    Parameters
    ----------
    job, task : str, int
        The task.
    transport : Transport
    connect_timeout : float
        Seconds to wait for the task to come up (``ConfigProto.operation_timeout_in_ms`` when set).
    client : str, optional
        The task this session runs in, announced to the remote task on connecting.
    """

    _BACKOFF = (0.05, 2.0)  # first and longest wait between tries to reach a task that is not up

    def __init__(self, job, task, transport, connect_timeout=60.0, client=None):
        self.job = job
        self.task = task
        self.name = task_name(job, task)
        self._transport = transport
        self._connect_timeout = connect_timeout
        self._client = client
        self._endpoint = None
        self._incarnation = None
        self._handles = {}
        self._lock = threading.Lock()

    def endpoint(self):
        """The connected endpoint, waiting with backoff up to the connect timeout."""
        if self._endpoint is not None:
            return self._endpoint
        with self._lock:
            if self._endpoint is None:
                deadline = time.monotonic() + self._connect_timeout
                wait, longest = self._BACKOFF
                while True:
                    endpoint = self._transport.connect(self.job, self.task)
                    if endpoint is not None:
                        break
                    if time.monotonic() + wait > deadline:
                        raise errors.DeadlineExceededError(
                            None, None, f"Timed out after {self._connect_timeout:g} s waiting for {self.name} to "
                            "start: is its process running (tf.train.Server(cluster, job_name, task_index))?")
                    time.sleep(wait)
                    wait = min(wait * 2, longest)
                self._incarnation = endpoint.incarnation
                if self._client is not None:
                    self._wait([endpoint.submit("hello", self._incarnation, self._client)])
                self._endpoint = endpoint
        return self._endpoint

    def handle(self, key, blob):
        """The task's handle of the partition ``blob`` (registered on first use), for this incarnation."""
        handle = self._handles.get(key)
        if handle is None:
            endpoint = self.endpoint()
            answer = self._wait([endpoint.submit("register", self._incarnation, blob)])[0]
            handle = self._handles[key] = answer
        return handle

    def submit(self, key, blob, step_id, inputs):
        """Start running partition ``blob`` with ``inputs``: a pending call for :meth:`answers`."""
        handle = self.handle(key, blob)
        return self._endpoint.submit("run", self._incarnation, handle, step_id, inputs)

    def call(self, method, *args):
        """Run ``method`` on the task now and return its answer (errors raised as TensorFlow's)."""
        endpoint = self.endpoint()
        return self._wait([endpoint.submit(method, self._incarnation, *args)])[0]

    def start(self, method, *args):
        """Start ``method`` on the task: a pending call whose ``("ok", value)`` :meth:`answers` gives."""
        return self.endpoint().submit(method, self._incarnation, *args)

    def answers(self, pending, graph):
        """The outputs of pending runs, each a list of arrays; a remote op's error raised as its class."""
        results = self._wait(pending)
        for answer in results:
            if isinstance(answer, tuple) and answer and answer[0] == "error":
                raise_answer_error(answer, graph)
        return [answer[1] for answer in results]

    def _wait(self, pending):
        try:
            results = self._transport.wait(pending, None)
        except TaskUnavailable as e:
            raise self._unavailable(str(e)) from None
        for answer in results:
            if isinstance(answer, tuple) and answer and answer[0] == "aborted":
                raise errors.AbortedError(None, None, answer[1])
            if isinstance(answer, tuple) and answer and answer[0] == "error" and answer[2] is None:
                raise_answer_error(answer, None)
        return results

    def _unavailable(self, why):
        """The error for a lost call: Aborted when the task came back as a new incarnation, else Unavailable."""
        fresh = self._transport.connect(self.job, self.task)
        if fresh is not None and fresh.incarnation != self._incarnation:
            return errors.AbortedError(
                None, None, f"{self.name} restarted (its variables are uninitialized): recreate the session. {why}")
        return errors.UnavailableError(None, None, f"{self.name} is unavailable: {why}")


def aborted_answer(name):
    return ("aborted", f"{name} restarted since this session reached it (its variables are uninitialized): "
            "recreate the session.")


class _LoopbackEndpoint:
    def __init__(self, transport, task_runner):
        self._transport = transport
        self._runner = task_runner
        self.incarnation = task_runner.incarnation

    def submit(self, method, *args):
        blob = pickle.dumps((method, args), protocol=pickle.HIGHEST_PROTOCOL)
        return self._transport._pool.submit(self._call, blob)

    def _call(self, blob):
        if not self._runner.alive:
            raise TaskUnavailable(f"{self._runner.name} stopped")
        method, args = pickle.loads(blob)  # noqa: S301 - pickled by this process a moment ago
        answer = getattr(self._runner, method)(*args)
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)


class LoopbackTransport(Transport):
    """Tasks in this process, every call and answer pickled both ways; calls run on a thread pool so
    that calls to different tasks overlap, as they do between processes.

    ``tasks``: a dict (job, task) -> the task's runner (``numflow.cluster.ps_task.PsTask``), kept by
    the servers of one cluster.
    """

    _pool = ThreadPoolExecutor(4, thread_name_prefix="numflow-loopback")

    def __init__(self, tasks):
        self._tasks = tasks

    def connect(self, job, task):
        runner = self._tasks.get((job, task))
        if runner is None or not runner.alive:
            return None
        return _LoopbackEndpoint(self, runner)

    def wait(self, pending, timeout):
        return [pickle.loads(future.result(timeout)) for future in pending]  # noqa: S301 - this process's bytes
