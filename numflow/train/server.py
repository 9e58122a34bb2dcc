"""In-process servers: each task of a cluster has its own devices and variable container.

A session created on a server's target sees the devices of every task of that cluster served in
this process, and keeps each variable in the container of the task it is placed on, so sessions
of different workers share the variables of the ps tasks ("multiple workers can see the same
values"). A task is reached only through ``TaskRuntime`` (its devices and container), the seam
where a task running in another process would plug in.
"""

import itertools
import threading

from numflow.cluster.server import TaskServer, backend_for
from numflow.devices import local_devices
from numflow.runtime import targets
from numflow.runtime.resources import ResourceContainer
from numflow.train.cluster import ClusterSpec


class TaskRuntime:
    """One task's devices and variable container."""

    def __init__(self, job, task):
        self.job = job
        self.task = task
        self.devices = local_devices(job, task)
        self.container = ResourceContainer(f"/job:{job}/task:{task}")


class _Cluster:
    """The tasks of one cluster that are served in this process."""

    def __init__(self):
        self.tasks = {}
        self.lock = threading.Lock()


_clusters = {}
_clusters_lock = threading.Lock()
_ports = itertools.count(20000)


def _cluster_key(cluster_spec):
    return frozenset((job, i, addr) for job, tasks in cluster_spec.as_dict().items()
                     for i, addr in (tasks.items() if isinstance(tasks, dict) else enumerate(tasks)))


class Server:
    """A task of a cluster: ``Server(cluster, job_name, task_index)``; sessions use ``server.target``.

    >>> import numflow as tf
    >>> server = tf.train.Server.create_local_server()
    >>> server.target.startswith("grpc://localhost:")
    True
    """

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None, config=None,
                 start=True):
        cluster = ClusterSpec(server_or_cluster_def)
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = cluster.jobs[0]
        if task_index is None:
            indices = cluster.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = indices[0]
        address = cluster.task_address(job_name, task_index)
        self._cluster_spec = cluster
        self._job = job_name
        self._task = task_index
        self._config = config
        self._target = f"grpc://{address}"
        self._stopped = threading.Event()
        self._remote = None
        backend = backend_for(protocol)
        if backend is not None:
            self._remote = TaskServer(backend, cluster, job_name, task_index)
            targets.register(self._target, self._remote.resolve)
            return
        key = _cluster_key(cluster)
        with _clusters_lock:
            self._cluster = _clusters.setdefault(key, _Cluster())
        with self._cluster.lock:
            if (job_name, task_index) in self._cluster.tasks:
                raise ValueError(f"A server for /job:{job_name}/task:{task_index} already runs in this process.")
            self._runtime = self._cluster.tasks[(job_name, task_index)] = TaskRuntime(job_name, task_index)
        targets.register(self._target, self._resolve)

    def _resolve(self, config):
        """Devices (this task's first) and containers of every task of the cluster served here."""
        with self._cluster.lock:
            runtimes = [self._runtime] + [r for r in self._cluster.tasks.values() if r is not self._runtime]
        devices = [d for r in runtimes for d in r.devices]
        containers = {(r.job, r.task): r.container for r in runtimes}
        return devices, containers

    @property
    def target(self):
        """The string to pass to ``Session(target)``."""
        return self._target

    @property
    def server_def(self):
        return {"cluster": self._cluster_spec.as_dict(), "job_name": self._job, "task_index": self._task}

    def start(self):
        """Servers start when created; kept for TensorFlow's API."""

    def join(self):
        """Block until ``stop()`` (a TensorFlow server never returns from join).

        A ps task of a cluster in separate processes (``protocol="ray"``) also returns once every
        worker is done (see ``numflow.cluster.server``).
        """
        if self._remote is not None:
            self._remote.join()
            return
        self._stopped.wait()

    def stop(self):
        """Stop serving: the target no longer resolves and the task's variables are dropped."""
        self._stopped.set()
        targets.unregister(self._target)
        if self._remote is not None:
            self._remote.stop()
            return
        with self._cluster.lock:
            self._cluster.tasks.pop((self._job, self._task), None)

    @staticmethod
    def create_local_server(config=None, start=True):
        """A single-task server (job ``local``) on a fresh local address."""
        return Server({"local": [f"localhost:{next(_ports)}"]}, protocol="grpc", config=config, start=start)


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None, ps_config=None):
    """Servers for ``num_workers`` workers and ``num_ps`` parameter servers: ``(workers, ps_servers)``."""
    cluster = {"worker": [f"localhost:{next(_ports)}" for _ in range(num_workers)]}
    if num_ps > 0:
        cluster["ps"] = [f"localhost:{next(_ports)}" for _ in range(num_ps)]
    cs = ClusterSpec(cluster)
    workers = [Server(cs, job_name="worker", task_index=i, protocol=protocol, config=worker_config)
               for i in range(num_workers)]
    ps_servers = [Server(cs, job_name="ps", task_index=i, protocol=protocol, config=ps_config)
                  for i in range(num_ps)]
    return workers, ps_servers
