"""Checkpoints of variables that live on several tasks, in TensorFlow's sharded V2 format.

``Saver(sharded=True)`` (``MonitoredTrainingSession``'s default, as in TensorFlow) on a session
whose variables live on ps tasks: each task writes the data file of its own variables,
``prefix.data-0000k-of-0000n`` (shard k in the order of the tasks' device names, the caller's own
variables last as ``/job:worker`` sorts after ``/job:ps``), on its own filesystem, and sends back
only the index entries; the caller writes the merged ``prefix.index``. TensorFlow reads it as it
reads its own sharded checkpoints. A restore has each task read its variables' tensors from
``prefix`` itself: on the same hosts that is each task's own data file; onto a different number of
tasks, the files must be on a filesystem every task sees (as in TensorFlow). A non-sharded restore
reads the checkpoint here and sends each task its values. The parts of a partitioned variable
may live on different tasks: each task writes its parts as slices, and the merged index lists every
part's slice under the variable's full name, as TensorFlow's MergeV2Checkpoints does.
"""

import numpy as np

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle import BundleWriter, write_index
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.checkpoint.protos import BundleEntry
from numflow.checkpoint.slices import add_value, parse_spec, read_value, shape_of
from numflow.framework import errors
from numflow.framework.device_spec import DeviceSpec
from numflow.runtime.partition import remote_tasks


# -- on the task holding the variables ----------------------------------------------------------
def save_variables(container, prefix, shard_id, num_shards, items):
    """Write the variables ``items`` (``(key, slice spec, variable name)``) as data file ``shard_id``
    of ``num_shards`` of checkpoint ``prefix``; their index entries, key -> encoded entry."""
    values = []
    for key, spec, name in items:
        handle = container.variable(name)
        if not handle.initialized:
            raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {name}")
        values.append((key, spec, handle.read()))
    return write_shard(prefix, shard_id, num_shards, values)


def write_shard(prefix, shard_id, num_shards, values):
    """Write the ``(key, slice spec, array)`` values as data file ``shard_id`` of ``num_shards``
    (in key order, a variable's parts in the order given); their index entries."""
    writer = BundleWriter(prefix, num_shards=num_shards)
    try:
        for key, spec, value in sorted(values, key=lambda item: item[0].encode()):
            add_value(writer, key, spec, value, shard_id)
        return writer.finish_shard()
    except BaseException:
        writer.abort()
        raise


def read_checked(prefix, items):
    """``[(variable name, array)]`` of the variables ``items`` (``(key, slice spec, variable name,
    dtype name, shape)``) read from checkpoint ``prefix`` and checked (see :func:`checked_values`)."""
    with BundleReader(prefix) as reader:
        return checked_values(reader, items)


def checked_values(reader, items):
    """``[(variable name, array)]`` of ``items`` read from ``reader``, each checked against its
    variable's dtype and shape (TensorFlow's messages)."""
    values = []
    for key, spec, name, dtype, shape in items:
        entry = reader.entry(key)
        want = datatypes.enum_for(np.dtype(dtype))
        if entry.dtype != want:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {key}; expected dtype {datatypes.tf_name(want)} does not equal "
                f"original dtype {datatypes.tf_name(entry.dtype)}")
        stored = _stored_shape(key, spec, tuple(entry.shape))
        if shape is not None and (len(shape) != len(stored) or any(
                d is not None and d != s for d, s in zip(shape, stored))):
            raise errors.InvalidArgumentError(
                None, None, f"Assign requires shapes of both tensors to match (variable {name}): lhs shape= "
                f"{list(shape)} rhs shape= {list(stored)}")
        values.append((name, read_value(reader, key, spec)))
    return values


def _stored_shape(key, spec, full_shape):
    """The shape a variable restored from ``key`` must have: the whole tensor's, or its slice ``spec``'s."""
    if not spec:
        return full_shape
    spec_shape, extents = parse_spec(spec)
    if tuple(spec_shape) != full_shape:
        raise errors.InvalidArgumentError(
            None, None, f"tensor_name = {key}; shape in shape_and_slice spec [{','.join(map(str, spec_shape))}] "
            f"does not match the shape stored in checkpoint: [{','.join(map(str, full_shape))}]")
    return shape_of(extents, full_shape)


def assign_values(container, values):
    """Make each ``(variable name, array)`` the variable's value."""
    for name, value in values:
        container.variable(name).assign(np.array(value, copy=True), donate=True)


# -- on the caller's side -----------------------------------------------------------------------
def applies(sess):
    """Whether ``sess`` has variables on other tasks (its saves are then written by those tasks)."""
    return bool(remote_tasks(sess))


def _groups(sess, saved, specs):
    """``[(device name, RemoteTask or None, [(key, slice spec, ref)])]`` in device-name order: each
    task's variables (``saved`` holds ``(key, ref)`` pairs, ``specs`` their slice specs)."""
    remote = remote_tasks(sess)
    groups = {}
    for (key, ref), spec in zip(saved, specs):
        device = DeviceSpec.from_string(ref.op.device or "")
        task = remote.get((device.job, device.task)) if device.job is not None else None
        name = task.name if task is not None else "/job:~local"
        groups.setdefault(name, (task, []))[1].append((key, spec, ref))
    return [(name, *groups[name]) for name in sorted(groups)]


def save(sess, prefix, saved, specs):
    """Write checkpoint ``prefix`` of the ``(key, variable reference)`` pairs ``saved`` (``specs``:
    their slice specs), sharded by task."""
    groups = _groups(sess, saved, specs)
    pending = []
    for shard_id, (_, task, triples) in enumerate(groups):
        if task is not None:
            items = [(key, spec, ref.op.name) for key, spec, ref in triples]
            pending.append((task, task.start("save_shard", prefix, shard_id, len(groups), items)))
    entries = {}
    local = [(shard_id, triples) for shard_id, (_, task, triples) in enumerate(groups) if task is None]
    for shard_id, triples in local:
        snapshots = sess._fetch_snapshots([ref for _, _, ref in triples])
        values = [(key, spec, value) for (key, spec, _), value in zip(triples, snapshots)]
        merge_entries(entries, write_shard(prefix, shard_id, len(groups), values))
    for task, call in pending:
        merge_entries(entries, task.answers([call], sess.graph)[0])
    write_index(prefix, len(groups), entries)


def merge_entries(entries, more):
    """Add one shard's index entries ``more`` to ``entries``: a partitioned variable's entry, which
    every shard holding a part of it writes, lists the parts of every shard (shards in order)."""
    for key, encoded in more.items():
        if key not in entries:
            entries[key] = encoded
            continue
        merged, entry = BundleEntry.decode(entries[key]), BundleEntry.decode(encoded)
        if not merged.slices or not entry.slices:
            raise errors.InvalidArgumentError(
                None, None, f"Duplicate tensor keyed by {key.decode(errors='replace')} encountered when "
                "merging the shards' index entries")
        merged.slices += entry.slices
        entries[key] = merged.encode()


def restore(sess, prefix, saved, specs, sharded):
    """Restore the ``(key, variable reference)`` pairs ``saved`` (``specs``: their slice specs) from
    checkpoint ``prefix``: each task reads its own (``sharded``), or this process reads them all and
    sends each task its values.

    Every task, and this process, reads and checks its values first and keeps them aside; only when
    all have succeeded does any variable change, so a failure anywhere leaves every task's
    variables as they were.
    """
    staged, local = [], []
    reader = None if sharded else BundleReader(prefix)
    try:
        for _, task, triples in _groups(sess, saved, specs):
            items = [(key, spec, ref.op.name, np.dtype(ref.dtype.base_dtype.as_numpy_dtype).name,
                      ref.shape.as_list() if ref.shape.rank is not None else None) for key, spec, ref in triples]
            if task is None:
                local = read_checked(prefix, items) if sharded else checked_values(reader, items)
            elif sharded:
                staged.append((task, task.start("stage_restore", prefix, items)))
            else:
                staged.append((task, task.start("stage_values", checked_values(reader, items))))
    except BaseException:
        _answers([(task, task.start("discard_restore", token)) for task, token in _answers(staged, sess.graph)[0]],
                 sess.graph)
        raise
    finally:
        if reader is not None:
            reader.close()
    tokens, failure = _answers(staged, sess.graph)
    if failure is not None:
        _answers([(task, task.start("discard_restore", token)) for task, token in tokens], sess.graph)
        raise failure
    _answers([(task, task.start("commit_restore", token)) for task, token in tokens], sess.graph, strict=True)
    if local:
        assign_values(_local_container(sess), local)


def _answers(pending, graph, strict=False):
    """``([(task, answer)], first error or None)`` of the ``(task, pending call)`` pairs: every call
    is waited for, whatever the others answer (``strict``: the first error is raised)."""
    answered, failure = [], None
    for task, call in pending:
        try:
            answered.append((task, task.answers([call], graph)[0]))
        except errors.OpError as e:
            failure = failure or e
    if strict and failure is not None:
        raise failure
    return answered, failure


def _local_container(sess):
    remote = remote_tasks(sess)
    return next(c for key, c in sess._containers.items() if key not in remote)
