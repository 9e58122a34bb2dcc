"""Servers of tasks in separate processes: what ``tf.train.Server`` becomes with a cluster protocol.

``protocol="ray"`` (or ``NUMFLOW_CLUSTER_PROTOCOL=ray`` for a script that passes ``"grpc"`` or
nothing) runs each task in its own process, on one machine or several: a ps task's variables live
in a Ray actor that its process owns; a worker's sessions reach the ps tasks through it.
``protocol="loopback"`` runs the same code with every task in this process and every call pickled
both ways (tests, debugging). Tasks of the job ``ps`` hold variables; every other job's tasks are
clients (between-graph replication), and a ps task's ``join`` returns once every client task has
said goodbye: at its server's ``stop()`` or at its process's exit.
"""

import atexit
import hashlib
import json
import os
import threading

from numflow.devices import local_devices
from numflow.runtime.resources import ResourceContainer
from numflow.runtime.transport import LoopbackTransport, RemoteTask

PS_JOB = "ps"
PROTOCOL_VARIABLE = "NUMFLOW_CLUSTER_PROTOCOL"


def backend_for(protocol):
    """The backend serving ``protocol``, or None for numflow's in-process servers."""
    if protocol in (None, "", "grpc"):
        protocol = os.environ.get(PROTOCOL_VARIABLE) or protocol
    if protocol in (None, "", "grpc"):
        return None
    if protocol == "loopback":
        return LoopbackBackend()
    if protocol == "ray":
        from numflow.cluster.ray_transport import RayBackend

        return RayBackend()
    raise ValueError(f"Unknown server protocol {protocol!r}: use 'grpc' (in this process), 'ray' or 'loopback'.")


def cluster_id(cluster_spec):
    """A name for the cluster that every task computes alike from its ClusterSpec."""
    text = json.dumps({job: {str(i): a for i, a in sorted(_tasks(cluster_spec, job))}
                       for job in sorted(cluster_spec.jobs)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _tasks(cluster_spec, job):
    return [(i, cluster_spec.task_address(job, i)) for i in cluster_spec.task_indices(job)]


class TaskServer:
    """One task of a cluster served by ``backend``: a ps task's variables, or a client's sessions."""

    def __init__(self, backend, cluster_spec, job, task, connect_timeout=60.0):
        self.job = job
        self.task = task
        self.name = f"/job:{job}/task:{task}"
        self._backend = backend
        self._cluster = cluster_spec
        self._cluster_id = cluster_id(cluster_spec)
        self._transport = backend.transport(self._cluster_id)
        self._connect_timeout = connect_timeout
        self._ps = [(PS_JOB, i) for i, _ in _tasks(cluster_spec, PS_JOB)] if PS_JOB in cluster_spec.jobs else []
        self._stopped = threading.Event()
        self._runner = None
        if job == PS_JOB:
            clients = [f"/job:{j}/task:{i}" for j in cluster_spec.jobs if j != PS_JOB
                       for i, _ in _tasks(cluster_spec, j)]
            self._runner = backend.start_ps(self._cluster_id, job, task, clients)
        else:
            self._devices = local_devices(job, task)
            self._container = ResourceContainer(self.name)
            if backend.separate_processes:
                atexit.register(self._goodbye)

    def resolve(self, config):
        """A client session's devices (this task's first, then each ps task's CPU) and containers."""
        timeout = self._connect_timeout
        if config is not None and config.operation_timeout_in_ms:
            timeout = config.operation_timeout_in_ms / 1000
        devices = list(self._devices)
        containers = {(self.job, self.task): self._container}
        for job, task in self._ps:
            devices += [d for d in local_devices(job, task) if d.is_host]
            containers[(job, task)] = RemoteTask(job, task, self._transport, timeout, client=self.name)
        return devices, containers

    def join(self):
        """Block until the job is done (every client said goodbye), ``stop()``, or the ps task died."""
        if self._runner is None:
            self._stopped.wait()
            return
        while not self._stopped.wait(0.2):
            if self._runner.done():
                return

    def stop(self):
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._runner is not None:
            self._runner.stop()
        else:
            self._goodbye()

    def _goodbye(self):
        """Tell every ps task that this client is done (those not reachable are skipped)."""
        if self._runner is not None:
            return
        atexit.unregister(self._goodbye)
        for job, task in self._ps:
            try:
                endpoint = self._transport.connect(job, task)
                if endpoint is not None:
                    self._transport.wait([endpoint.submit("goodbye", None, self.name)], 5.0)
            except Exception:  # noqa: BLE001 - at exit, a task that cannot be told is simply skipped
                pass


class LoopbackBackend:
    """Every task in this process; calls pickled both ways (``runtime.transport.LoopbackTransport``)."""

    separate_processes = False

    _clusters = {}
    _lock = threading.Lock()

    def _tasks(self, cluster):
        with self._lock:
            return self._clusters.setdefault(cluster, {})

    def transport(self, cluster):
        return LoopbackTransport(self._tasks(cluster))

    def start_ps(self, cluster, job, task, clients):
        from numflow.cluster.ps_task import PsTask

        tasks = self._tasks(cluster)
        with self._lock:
            current = tasks.get((job, task))
            if current is not None and current.alive:
                raise ValueError(f"A server for /job:{job}/task:{task} already runs.")
            runner = tasks[(job, task)] = PsTask(job, task, clients)
        return _LoopbackPs(tasks, runner)


class _LoopbackPs:
    def __init__(self, tasks, runner):
        self._tasks = tasks
        self._runner = runner

    def done(self):
        return self._runner.done()

    def stop(self):
        self._runner.close()
        if self._tasks.get((self._runner.job, self._runner.task)) is self._runner:
            del self._tasks[(self._runner.job, self._runner.task)]
