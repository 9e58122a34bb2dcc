"""Tasks on Ray: each ps task is a named Ray actor owned by that task's own process.

Every process of a job joins one Ray cluster: the one at ``RAY_ADDRESS``, else the one this machine
runs (``ray start --head``; ``address="auto"``). A ps task's process creates the actor
``"<job>:<task>"`` in the namespace ``numflow-<cluster id>`` (a hash of the ClusterSpec, so every
task finds the others from its spec alone), pinned to its own node. The actor is not detached and
never restarted by Ray: it dies with its owner, as a TensorFlow ps dies with its process, and a ps
started again is a new actor with a new incarnation and uninitialized variables. Workers are Ray
drivers that look the actors up by name, learn from each its incarnation and where it takes calls,
and call it there (``cluster.direct_calls``, for ``runtime.transport.RemoteTask``).
"""

import os
import time

import ray
from ray.exceptions import GetTimeoutError, RayActorError
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from numflow.cluster import direct_calls
from numflow.cluster.ps_task import PsTask
from numflow.framework import errors
from numflow.runtime.transport import Transport, task_name


def ensure_connected():
    """Join the Ray cluster at ``RAY_ADDRESS`` (else this machine's), once per process."""
    if ray.is_initialized():
        return
    address = os.environ.get("RAY_ADDRESS") or "auto"
    try:
        ray.init(address=address, configure_logging=False)
    except ConnectionError as e:
        raise errors.UnavailableError(
            None, None, f"No Ray cluster at {address}: start one with `ray start --head` (or set RAY_ADDRESS to its "
            f"address), or launch the job with `python -m numflow.cluster`. ({e})") from None


def namespace(cluster):
    return f"numflow-{cluster}"


@ray.remote(num_cpus=0, max_restarts=0)
class PsActor:
    """The actor holding one ps task (``ps_task.PsTask``); ``call`` runs one of its methods."""

    def __init__(self, job, task, clients):
        self._task = PsTask(job, task, clients)
        self._calls = direct_calls.Server(lambda method, args: self.call(method, *args),
                                          ray.util.get_node_ip_address())

    def call(self, method, *args):
        return getattr(self._task, method)(*args)

    def info(self):
        """The incarnation, and the address and key of the task's direct calls."""
        return self._task.incarnation, self._calls.address, self._calls.key


class _Endpoint:
    def __init__(self, incarnation, calls):
        self.incarnation = incarnation
        self._calls = calls

    def submit(self, method, *args):
        return self._calls.submit(method, args)


class RayTransport(Transport):
    """Finds a cluster's ps actors by name and waits for their answers."""

    _INFO_TIMEOUT_S = 10

    def __init__(self, cluster):
        self._namespace = namespace(cluster)
        self._clients = {}  # (job, task, incarnation, address) -> its direct_calls.Client, for every session

    def connect(self, job, task):
        try:
            actor = ray.get_actor(f"{job}:{task}", namespace=self._namespace)
            incarnation, address, key = ray.get(actor.info.remote(), timeout=self._INFO_TIMEOUT_S)
        except (ValueError, RayActorError, GetTimeoutError):
            return None
        calls = self._clients.get((job, task, incarnation, address))
        if calls is None:
            calls = self._clients.setdefault((job, task, incarnation, address),
                                             direct_calls.Client(address, key, task_name(job, task)))
        return _Endpoint(incarnation, calls)

    def wait(self, pending, timeout):
        return [call.answer(timeout) for call in pending]


class RayBackend:
    """Ray as a cluster protocol (see ``cluster.server.backend_for``)."""

    separate_processes = True
    _CREATE_TIMEOUT_S = 30  # a killed ps's actor keeps its name until Ray has seen its owner die

    def transport(self, cluster):
        ensure_connected()
        return RayTransport(cluster)

    def start_ps(self, cluster, job, task, clients):
        ensure_connected()
        name = f"{job}:{task}"
        if RayTransport(cluster).connect(job, task) is not None:
            raise ValueError(f"A server for /job:{job}/task:{task} already runs in this Ray cluster.")
        node = ray.get_runtime_context().get_node_id()
        deadline = time.monotonic() + self._CREATE_TIMEOUT_S
        while True:
            try:
                actor = PsActor.options(
                    name=name, namespace=namespace(cluster),
                    scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
                ).remote(job, task, clients)
                break
            except ValueError:  # the name is still held by the actor of a process that died
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        ray.get(actor.info.remote())
        return _RayPs(actor, f"/job:{job}/replica:0/task:{task}")


class _RayPs:
    def __init__(self, actor, name):
        self._actor = actor
        self._name = name

    def done(self):
        try:
            return ray.get(self._actor.call.remote("done"))
        except RayActorError as e:
            raise errors.UnavailableError(None, None, f"{self._name} died: {type(e).__name__}") from None

    def stop(self):
        ray.kill(self._actor)
