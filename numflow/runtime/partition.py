"""Partitioned plans: a run whose ops are placed on tasks in other processes (ps tasks).

The plan's ops are pruned, ordered and placed as for any run (``runtime.plan``), then split by
task. Each op gets a *stage*: the number of task changes on its longest input path (data and
control edges). The ops of one remote task and one stage form a *partition*; the local ops of one
stage form a local sub-plan (``plan.build`` with a boundary). No op of a stage depends on another
stage's later ops, nor on another task's ops of its own stage, so a stage's partitions and its local
sub-plan run at once, and stages run in order. For plain SGD on ps tasks that is two calls per ps
task and step: its variables' reads, then its updates with the gradients as inputs.

A partition crosses to its task as a GraphDef of its ops (device fields filled in, each input from
outside it replaced by a placeholder, control inputs from outside dropped: the stage order keeps
them) plus the names of its feeds, fetches and ops; it is registered once per task incarnation and
session (TensorFlow's RegisterGraph), then run by handle (RunGraph). Tensors cross as numpy arrays;
a variable crossing tasks crosses as its value, as TensorFlow's Send dereferences a ref. A handle
(of a variable, a queue, a table) never crosses: each partition of its task that uses it has the op
that looks it up, which finds the one resource by name in the task's container.
"""

import itertools

import numpy as np

from numflow.framework import dtypes, errors, registry
from numflow.runtime import access_order, executor, placement
from numflow.runtime import plan as _plan
from numflow.runtime.transport import RemoteTask
from numflow_kernels.handle import VariableHandle


def remote_tasks(session):
    """The session's remote tasks, (job, task) -> RemoteTask; empty for a session in one process."""
    return {key: c for key, c in session._containers.items() if isinstance(c, RemoteTask)}


class _Partition:
    """One remote task's ops of one stage."""

    __slots__ = ("task", "key", "blob", "inputs", "outputs", "flags")

    def __init__(self, task, key, blob, inputs, outputs, flags):
        self.task = task
        self.key = key
        self.blob = blob
        self.inputs = inputs
        self.outputs = outputs
        self.flags = frozenset(flags)

    def received(self, outputs):
        """The partition's outputs as the run here takes them (a flag as its RemoteVariable)."""
        return [RemoteVariable(t.op.name, value) if t in self.flags else value
                for t, value in zip(self.outputs, outputs)]


class _Stage:
    __slots__ = ("local", "local_inputs", "local_outputs", "partitions")

    def __init__(self):
        self.local = None
        self.local_inputs = ()
        self.local_outputs = ()
        self.partitions = []


class PartitionedPlan:
    """The stages of a run across tasks; ``run`` has the session's slot protocol (see ``plan.Plan``)."""

    def __init__(self, graph, stages, feed_tensors, fetch_tensors, placements):
        self.graph = graph
        self.stages = stages
        self.feed_tensors = list(feed_tensors)
        self.fetch_tensors = list(fetch_tensors)
        self.feed_slots = list(range(len(feed_tensors)))
        self.fetch_slots = list(range(len(feed_tensors), len(feed_tensors) + len(fetch_tensors)))
        self._out_slots = list(self.fetch_slots)  # the session rewrites fetch_slots for its fetch structure
        self.slots = [None] * (len(feed_tensors) + len(fetch_tensors))
        self.graph_version = graph.version
        self.placements = placements
        self.steps = [s for stage in stages if stage.local is not None for s in stage.local.steps]
        self.trivial = False
        self.ways = executor.Ways()  # only its count of runs: each stage's local plan has its own ways
        self._step_ids = itertools.count()

    def run(self, session, values, hooks=()):
        """Run every stage: its partitions on their tasks and its local sub-plan here, at once."""
        env = dict(zip(self.feed_tensors, (values[s] for s in self.feed_slots)))
        step_id = next(self._step_ids)
        self.ways.runs[0] += 1
        for stage in self.stages:
            pending = [(p, p.task.submit(p.key, p.blob, step_id, [_to_wire(env[t]) for t in p.inputs]))
                       for p in stage.partitions]
            if stage.local is not None:
                local = stage.local
                local_values = local.slots.copy()
                for slot, t in zip(local.feed_slots, stage.local_inputs):
                    local_values[slot] = env[t]
                executor.run(local, local_values, session._pool_for(local), hooks)
                env.update((t, local_values[s]) for t, s in zip(stage.local_outputs, local.fetch_slots))
            for partition, call in pending:
                outputs = partition.task.answers([call], self.graph)[0]
                env.update(zip(partition.outputs, partition.received(outputs)))
        for slot, t in zip(self._out_slots, self.fetch_tensors):
            values[slot] = env[t]


def _to_wire(value):
    """A value as it crosses to another task: a host array (a variable's value, not its handle)."""
    if isinstance(value, VariableHandle):
        value = value.read()
    if hasattr(value, "copy_to_host"):
        value = value.copy_to_host()
    return value if isinstance(value, np.ndarray) else np.asarray(value)


def build(graph, fetch_tensors, target_ops, feed_tensors, session):
    """The partitioned plan computing ``fetch_tensors`` and running ``target_ops`` given ``feed_tensors``."""
    with graph._lock:
        return _build(graph, fetch_tensors, target_ops, feed_tensors, session)


def _build(graph, fetch_tensors, target_ops, feed_tensors, session):
    feeds = set(feed_tensors)
    nxg = graph.nx_graph
    needed = _plan._prune(nxg, [t.op.name for t in fetch_tensors if t not in feeds]
                          + [op.name for op in target_ops], feeds)
    ops = {name: nxg.nodes[name]["op"] for name in needed}
    preds = {name: [p for p in nxg.pred[name] if p in needed] for name in needed}
    if graph._variable_initializers:
        _plan._order_reads_after_initializers(graph, ops, preds)
    access_order.order_accesses(ops, preds)
    order = _plan._topological_order(ops, preds)
    devices = placement.place(order, session)
    remote = remote_tasks(session)
    task_of = _tasks(order, preds, ops, devices, remote, session._devices[0])
    stage_of = {}
    for op in order:
        stage_of[op.name] = max((stage_of[p] + (task_of[p] != task_of[op.name]) for p in preds[op.name]), default=0)
    groups = {}
    for op in order:
        groups.setdefault((stage_of[op.name], task_of[op.name]), []).append(op)
    consumers = {}
    for op in order:
        for i, t in enumerate(op._inputs):
            consumers.setdefault(t, []).append((op, i))
    fetched = set(fetch_tensors)

    stages = [_Stage() for _ in range(max(stage_of.values(), default=0) + 1)]
    for (number, task), members in sorted(groups.items(), key=lambda item: (item[0][0], item[0][1] or ())):
        members = _with_own_handles(members, task, task_of)
        names = {op.name for op in members}
        inputs = _unique(t for op in members for t in op._inputs if t in feeds or t.op.name not in names)
        outputs = _unique(t for op in members for t in op._outputs if t not in feeds and (
            t in fetched or any(c.name not in names and not _own_handle(t, c, task_of)
                                for c, _ in consumers.get(t, ()))))
        if not outputs and all(_is_handle_op(op) for op in members):
            continue  # only handles that later partitions take along
        _check_no_reference_crosses(inputs, names, consumers, task, task_of, fetched)
        stage = stages[number]
        if task is None:
            stage.local = _plan.build(graph, outputs, members, inputs, session, boundary=names)
            stage.local_inputs, stage.local_outputs = inputs, outputs
        else:
            flags = [t for t in outputs if _crosses_as_flag(t, consumers, task_of, fetched)]
            blob = _partition_blob(graph, members, inputs, outputs, devices, flags)
            key = (blob[0], *map(tuple, blob[1:]))  # its content: the same partition of any plan
            stage.partitions.append(_Partition(remote[task], key, blob, inputs, outputs, flags))
    fetch_list = _unique(fetch_tensors)
    return PartitionedPlan(graph, stages, feed_tensors, fetch_list, devices)


def _tasks(order, preds, ops, devices, remote, here):
    """op name -> its remote task's key, or None for a local op.

    A NoOp whose control inputs all run on one remote task runs there too: it only orders ops, and
    there it saves the step a call (an optimizer's ``update`` group before the step increment). An
    op that asks variables only whether they are initialized runs here, on ``here``, as TensorFlow
    reports uninitialized variables on the local CPU: each variable crosses as that flag.
    """
    task_of = {}
    for op in order:
        if op.type in _FLAG_READERS:
            devices[op] = here
        key = (devices[op].job, devices[op].task)
        task = key if key in remote else None
        if op.type == "NoOp" and task is None and preds[op.name]:
            owners = {task_of[p] for p in preds[op.name]}
            if len(owners) == 1 and None not in owners:
                task = owners.pop()
                devices[op] = devices[ops[preds[op.name][0]]]
        task_of[op.name] = task
    return task_of


def _with_own_handles(members, task, task_of):
    """``members`` and the handle ops of their task whose handles they take (see ``_is_handle_op``):
    each partition (and local stage) that uses a variable or a queue looks its handle up itself."""
    names = {op.name for op in members}
    own = _unique(t.op for op in members for t in op._inputs
                  if _is_handle_op(t.op) and t.op.name not in names and task_of[t.op.name] == task)
    return own + members


_VARIABLE_OPS = frozenset({"VariableV2"})


def _is_handle_op(op):
    """Whether ``op`` only looks up one of its task's resources (a variable, a queue, a table) by its
    name: it has no inputs and gives a reference or resource handle, which never leaves the task."""
    return not op._inputs and bool(op._outputs) and all(
        t.dtype._is_ref_dtype or t.dtype.base_dtype == dtypes.resource for t in op._outputs)


def _own_handle(t, consumer, task_of):
    """Whether ``consumer`` takes the handle op of ``t`` along into its own partition (same task)."""
    return _is_handle_op(t.op) and task_of[consumer.name] == task_of[t.op.name]


def _unique(tensors):
    seen = {}
    for t in tensors:
        seen.setdefault(t, None)
    return list(seen)


def _check_no_reference_crosses(inputs, names, consumers, task, task_of, fetched):
    """A variable's reference never crosses tasks: an op that updates a variable runs on its task."""
    for t in inputs:
        if not t.dtype._is_ref_dtype or _crosses_as_flag(t, consumers, task_of, fetched):
            continue
        for op, i in consumers.get(t, ()):
            ref_inputs = registry.get(op.type).ref_inputs
            if op.name in names and (ref_inputs is True or i in ref_inputs):
                where = "this process" if task is None else f"/job:{task[0]}/task:{task[1]}"
                raise errors.InvalidArgumentError(
                    None, op, f"{op.name} ({op.type}) updates variable {t.op.name} from {where}, but the variable "
                    f"lives on {t.op.device or 'another task'}: colocate the op with its variable "
                    "(tf.colocate_with) so that it runs on the variable's task.")


# Ops that ask a variable only whether it is initialized: a remote variable crosses to them as that flag.
_FLAG_READERS = frozenset({"ReportUninitializedVariables"})


def _crosses_as_flag(t, consumers, task_of, fetched):
    """Whether variable ``t`` leaves its task only for ops that ask whether it is initialized."""
    if t.op.type not in _VARIABLE_OPS or t in fetched:
        return False
    outside = [op for op, _ in consumers.get(t, ()) if task_of[op.name] != task_of[t.op.name]]
    return bool(outside) and all(op.type in _FLAG_READERS for op in outside)


class RemoteVariable(VariableHandle):
    """A variable of another task as a run here sees it: whether it is initialized, all that the ops
    it crosses to (``_FLAG_READERS``) ask; its value stays on its task."""

    __slots__ = ("name", "_initialized")

    def __init__(self, name, initialized):
        self.name = name
        self._initialized = bool(initialized)

    @property
    def initialized(self):
        return self._initialized

    def read(self, copy=False):
        raise ValueError(f"The value of {self.name} lives on another task.")

    update = assign = read


_RECV = "numflow_recv"


def _partition_blob(graph, members, inputs, outputs, devices, flags):
    """``(GraphDef bytes, feed names, fetch names, op names)`` of a remote partition; a variable in
    ``flags`` is fetched as its IsVariableInitialized."""
    from numflow.framework.graph_export import NodeWriter, graph_to_graph_def, tensor_name

    graph_def = graph_to_graph_def(graph, ops=members)
    device_of = {op.name: devices[op].name for op in members}
    received = {tensor_name(t): f"{_RECV}/{i}" for i, t in enumerate(inputs)}
    names = set(device_of)
    for node in graph_def.node:
        node.device = device_of.get(node.name, node.device)
        kept = []
        for name in node.input:
            if name.startswith("^"):
                if name[1:] in names:
                    kept.append(name)
            else:
                kept.append(received.get(name, name))
        del node.input[:]
        node.input.extend(kept)
    writer = NodeWriter(graph_def, set())
    for i, t in enumerate(inputs):
        dtype = t.dtype.base_dtype
        writer.node("Placeholder", f"{_RECV}/{i}", attrs={"dtype": dtype, "shape": t.shape},
                    outputs=[(dtype, t.shape)], device=device_of[members[0].name])
    fetch_names = []
    for i, t in enumerate(outputs):
        if t in flags:
            name = f"{_RECV}/initialized/{i}"
            writer.node("IsVariableInitialized", name, inputs=[(tensor_name(t), t.dtype)],
                        attrs={"dtype": t.dtype.base_dtype}, outputs=[(dtypes.bool, t.shape)],
                        device=device_of[t.op.name])
            fetch_names.append(f"{name}:0")
        else:
            fetch_names.append(t.name)
    feed_names = [f"{_RECV}/{i}:0" for i in range(len(inputs))]
    return (graph_def.SerializeToString(deterministic=True), feed_names, fetch_names, [op.name for op in members])
