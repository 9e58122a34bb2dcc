"""Checkpoints of variables that live on several tasks, in TensorFlow's sharded V2 format.

``Saver(sharded=True)`` (``MonitoredTrainingSession``'s default, as in TensorFlow) on a session
whose variables live on ps tasks: each task writes the data file of its own variables,
``prefix.data-0000k-of-0000n`` (shard k in the order of the tasks' device names, the caller's own
variables last as ``/job:worker`` sorts after ``/job:ps``), on its own filesystem, and sends back
only the index entries; the caller writes the merged ``prefix.index``. TensorFlow reads it as it
reads its own sharded checkpoints. A restore has each task read its variables' tensors from
``prefix`` itself: on the same hosts that is each task's own data file; onto a different number of
tasks, the files must be on a filesystem every task sees (as in TensorFlow). A non-sharded restore
reads the checkpoint here and sends each task its values.
"""

import numpy as np

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter, write_index
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.framework import errors
from numflow.framework.device_spec import DeviceSpec
from numflow.runtime.partition import remote_tasks


# -- on the task holding the variables ----------------------------------------------------------
def save_variables(container, prefix, shard_id, num_shards, items):
    """Write the variables ``items`` (``(key, variable name)`` pairs) as data file ``shard_id`` of
    ``num_shards`` of checkpoint ``prefix``; their index entries, key -> encoded entry."""
    pairs = []
    for key, name in items:
        handle = container.variable(name)
        if not handle.initialized:
            raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {name}")
        pairs.append((key, handle.read()))
    return write_shard(prefix, shard_id, num_shards, pairs)


def write_shard(prefix, shard_id, num_shards, pairs):
    """Write the ``(key, array)`` pairs as data file ``shard_id`` of ``num_shards``; their index entries."""
    writer = BundleWriter(prefix, num_shards=num_shards)
    try:
        for key, value in sorted(pairs, key=lambda item: item[0].encode()):
            writer.add(key, value, shard_id=shard_id)
        return writer.finish_shard()
    except BaseException:
        writer.abort()
        raise


def restore_variables(container, prefix, items):
    """Assign the variables ``items`` (``(key, variable name, dtype name, shape)``) from checkpoint
    ``prefix``, every one or none: all are read and checked before any is assigned."""
    with BundleReader(prefix) as reader:
        values = checked_values(reader, items)
    assign_values(container, values)


def checked_values(reader, items):
    """``[(variable name, array)]`` of ``items`` read from ``reader``, each checked against its
    variable's dtype and shape (TensorFlow's messages)."""
    values = []
    for key, name, dtype, shape in items:
        entry = reader.entry(key)
        want = datatypes.enum_for(np.dtype(dtype))
        if entry.dtype != want:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {key}; expected dtype {datatypes.tf_name(want)} does not equal "
                f"original dtype {datatypes.tf_name(entry.dtype)}")
        stored = tuple(entry.shape)
        if shape is not None and (len(shape) != len(stored) or any(
                d is not None and d != s for d, s in zip(shape, stored))):
            raise errors.InvalidArgumentError(
                None, None, f"Assign requires shapes of both tensors to match (variable {name}): lhs shape= "
                f"{list(shape)} rhs shape= {list(stored)}")
        values.append((name, reader.get_tensor(key)))
    return values


def assign_values(container, values):
    """Make each ``(variable name, array)`` the variable's value."""
    for name, value in values:
        container.variable(name).assign(np.array(value, copy=True), donate=True)


# -- on the caller's side -----------------------------------------------------------------------
def applies(sess):
    """Whether ``sess`` has variables on other tasks (its saves are then written by those tasks)."""
    return bool(remote_tasks(sess))


def _groups(sess, saved):
    """``[(device name, RemoteTask or None, [(key, ref)])]`` in device-name order: each task's variables."""
    remote = remote_tasks(sess)
    groups = {}
    for key, ref in saved:
        spec = DeviceSpec.from_string(ref.op.device or "")
        task = remote.get((spec.job, spec.task)) if spec.job is not None else None
        name = task.name if task is not None else "/job:~local"
        groups.setdefault(name, (task, []))[1].append((key, ref))
    return [(name, *groups[name]) for name in sorted(groups)]


def save(sess, prefix, saved):
    """Write checkpoint ``prefix`` of the ``(key, variable reference)`` pairs ``saved``, sharded by task."""
    groups = _groups(sess, saved)
    pending = []
    for shard_id, (_, task, pairs) in enumerate(groups):
        if task is not None:
            items = [(key, ref.op.name) for key, ref in pairs]
            pending.append((task, task.start("save_shard", prefix, shard_id, len(groups), items)))
    entries = {}
    local = [(shard_id, pairs) for shard_id, (_, task, pairs) in enumerate(groups) if task is None]
    for shard_id, pairs in local:
        snapshots = sess._fetch_snapshots([ref for _, ref in pairs])
        entries.update(write_shard(prefix, shard_id, len(groups), [(key, v) for (key, _), v in zip(pairs, snapshots)]))
    for task, call in pending:
        entries.update(task.answers([call], sess.graph)[0])
    write_index(prefix, len(groups), entries)


def restore(sess, prefix, saved, sharded):
    """Restore the ``(key, variable reference)`` pairs ``saved`` from checkpoint ``prefix``: each task
    reads its own (``sharded``), or this process reads them all and sends each task its values."""
    groups = _groups(sess, saved)
    pending = []
    local = []
    reader = None if sharded else BundleReader(prefix)
    try:
        for _, task, pairs in groups:
            items = [(key, ref.op.name, np.dtype(ref.dtype.base_dtype.as_numpy_dtype).name,
                      ref.shape.as_list() if ref.shape.rank is not None else None) for key, ref in pairs]
            if task is None:
                local.extend(items)
            elif sharded:
                pending.append((task, task.start("restore_shard", prefix, items)))
            else:
                values = checked_values(reader, items)
                pending.append((task, task.start("assign_values", values)))
    finally:
        if reader is not None:
            reader.close()
    for task, call in pending:
        task.answers([call], sess.graph)
    if local:
        restore_variables(_local_container(sess), prefix, local)


def _local_container(sess):
    remote = remote_tasks(sess)
    return next(c for key, c in sess._containers.items() if key not in remote)
