"""A parameter-server task: its variables, and the partitions of workers' plans it runs.

The same object serves every transport: the loopback one calls it in this process, the Ray one
from an actor. It holds the task's devices and variable container, and a random *incarnation*
drawn when it starts: a task started again (by hand, or by Ray restarting the actor) has empty
variables and another incarnation, and answers the calls of sessions that knew the old one with
``("aborted", why)``. Calls answer plain data: ``("ok", value)``, ``("error", class name, op name,
message)`` or ``("aborted", why)``.
"""

import hashlib
import itertools
import secrets
import threading

from numflow.cluster import sharded_saver
from numflow.devices import local_devices
from numflow.framework import errors
from numflow.runtime import targets
from numflow.runtime.resources import ResourceContainer
from numflow.runtime.session import _snapshot_to_host
from numflow.runtime.transport import aborted_answer, task_name

_task_targets = itertools.count()


class PsTask:
    """One ps task's state, with the methods its clients call (see the module's docstring)."""

    def __init__(self, job, task, clients=()):
        self.job = job
        self.task = task
        self.name = task_name(job, task)
        self.incarnation = secrets.randbits(63)
        self.alive = True
        self.devices = local_devices(job, task)
        self.container = ResourceContainer(f"/job:{job}/task:{task}")
        self._target = f"numflow-task://{job}/{task}/{next(_task_targets)}"
        targets.register(self._target, lambda config: (self.devices, {(job, task): self.container}))
        self._partitions = {}
        self._lock = threading.Lock()
        self._clients = set(clients)  # the tasks whose goodbye ends the job (join returns)
        self._hello = set()
        self._goodbye = set()
        self._staged = {}  # restore token -> [(variable name, array)], checked but not yet assigned

    def close(self):
        self.alive = False
        targets.unregister(self._target)
        self.container.clear()

    def info(self):
        return self.incarnation

    def _check(self, incarnation):
        return None if incarnation == self.incarnation else aborted_answer(self.name)

    def register(self, incarnation, blob):
        """Import a partition (``(graph_def bytes, feed names, fetch names, target names)``); its handle."""
        stale = self._check(incarnation)
        if stale:
            return stale
        handle = hashlib.sha256(blob[0] + repr(blob[1:]).encode()).hexdigest()
        with self._lock:
            if handle not in self._partitions:
                try:
                    self._partitions[handle] = _Partition(blob, self._target)
                except (ValueError, TypeError, errors.OpError) as e:
                    return ("error", "InvalidArgumentError", None,
                            f"{self.name} could not import a partition: {e}")
        return handle

    def run(self, incarnation, handle, step_id, inputs):
        """Run a registered partition with ``inputs``; ``("ok", outputs)``."""
        stale = self._check(incarnation)
        if stale:
            return stale
        partition = self._partitions.get(handle)
        if partition is None:
            return ("aborted", f"{self.name} does not know this partition (it restarted): recreate the session.")
        try:
            return ("ok", partition.run(inputs))
        except errors.OpError as e:
            return ("error", type(e).__name__, e.op.name if e.op is not None else None, e.message)

    def save_shard(self, incarnation, prefix, shard_id, num_shards, items):
        """Write this task's data file of a sharded checkpoint; ``("ok", index entries)``."""
        return self._answer(incarnation, sharded_saver.save_variables, self.container, prefix, shard_id,
                            num_shards, items)

    def stage_restore(self, incarnation, prefix, items):
        """Read and check this task's variables' values from a checkpoint on a filesystem it sees,
        changing nothing yet; a token for :meth:`commit_restore` or :meth:`discard_restore`."""
        return self._answer(incarnation, self._stage, sharded_saver.read_checked, prefix, items)

    def stage_values(self, incarnation, values):
        """Keep values read elsewhere (a non-sharded restore) until :meth:`commit_restore`; a token."""
        return self._answer(incarnation, self._stage, lambda: values)

    def commit_restore(self, incarnation, token):
        """Make the staged values of ``token`` the variables' values."""
        return self._answer(incarnation, self._unstage, token, True)

    def discard_restore(self, incarnation, token):
        """Forget the staged values of ``token`` (another task's part of the restore failed)."""
        return self._answer(incarnation, self._unstage, token, False)

    def _stage(self, read, *args):
        token = secrets.token_hex(8)
        self._staged[token] = read(*args)
        return token

    def _unstage(self, token, assign):
        values = self._staged.pop(token)
        if assign:
            sharded_saver.assign_values(self.container, values)

    def _answer(self, incarnation, fn, *args):
        stale = self._check(incarnation)
        if stale:
            return stale
        try:
            return ("ok", fn(*args))
        except errors.OpError as e:
            return ("error", type(e).__name__, None, f"{self.name}: {e.message}")

    def hello(self, incarnation, client):
        """A client task started using this task."""
        self._hello.add(client)
        self._goodbye.discard(client)
        return True

    def goodbye(self, incarnation, client):
        """A client task is done (its server stopped or its process exits)."""
        self._goodbye.add(client)
        return True

    def done(self, incarnation=None):
        """Whether every client task of the cluster said goodbye: the job is over and ``join`` returns."""
        return bool(self._clients) and self._clients <= self._goodbye


class _Partition:
    """A registered partition: its graph, and a session on the task's devices and variables."""

    def __init__(self, blob, target):
        import numflow.variables.ops  # noqa: F401 - declares the ops over many variables
        from numflow.framework.graph import Graph
        from numflow.framework.graph_io import import_graph_def
        from numflow.runtime.session import Session

        graph_def, feeds, fetches, ops = blob
        self.graph = Graph()
        with self.graph.as_default():
            import_graph_def(graph_def, name="")
        self.feeds = [self.graph.get_tensor_by_name(n) for n in feeds]
        self.fetches = [self.graph.get_tensor_by_name(n) for n in fetches]
        self.ops = [self.graph.get_operation_by_name(n) for n in ops]
        self.session = Session(target, graph=self.graph)

    def run(self, inputs):
        # Variables' values leave as read-only snapshots, uncopied: the transport copies them out once.
        values = self.session._run(self.fetches + self.ops, dict(zip(self.feeds, inputs)), None, None,
                                   _snapshot_to_host)
        return values[:len(self.fetches)]
