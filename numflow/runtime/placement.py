"""Placement: the device each op of a run plan runs on.

An op runs on the device its colocation group asks for (a variable's reads, initializer and updates
follow the variable), else on the device it asks for itself, else where its first placed input
runs, else on the task's CPU:0. A request names a device partially (``/gpu:1``, ``/job:ps/task:3``);
it matches the session's devices field by field. With soft placement (the default, as in
TensorFlow 2) an op whose device is missing, or has no kernel for it, falls back to a device of the
same job and task that can run it, with one warning per plan; job and task are never relaxed.
"""

import warnings

from numflow.framework import errors
from numflow.framework.device_spec import DeviceSpec


class PlacementWarning(UserWarning):
    """An op was moved off the device it asked for (soft placement)."""


def place(ops, session):
    """A dict op -> Device for ``ops`` (in topological order), using the devices of ``session``."""
    devices = session._devices
    soft = session._config.allow_soft_placement
    graph_ops = {op.name: op for op in ops}
    placed = {}
    moved = []
    for op in ops:
        request = _requested(op, graph_ops)
        device = _match(request, devices, op) if request is not None else _inherit(op, placed, devices)
        if device is None:
            device = _fallback(op, request, devices, soft, moved)
        elif device.kernel(op.type) is None:
            device = _fallback(op, request, devices, soft, moved, candidate=device)
        placed[op] = device
    if moved:
        lines = "\n".join(f"  {op.name} ({op.type}): {want} -> {got.name}" for op, want, got in moved)
        warnings.warn(f"Soft placement moved {len(moved)} op(s) off the device they asked for:\n{lines}",
                      PlacementWarning, stacklevel=4)
    return placed


def _requested(op, graph_ops):
    """The DeviceSpec ``op`` asks for (through its colocation group first), or None."""
    for group in op._colocation:
        root = graph_ops.get(group) or _find(op.graph, group)
        if root is not None and root.device:
            return DeviceSpec.from_string(root.device)
    return DeviceSpec.from_string(op.device) if op.device else None


def _find(graph, name):
    return graph._nx.nodes[name]["op"] if name in graph._nx else None


def _inherit(op, placed, devices):
    for t in op._inputs:
        device = placed.get(t.op)
        if device is not None and device.kernel(op.type) is not None:
            return device
    return devices[0]


def _match(spec, devices, op=None):
    """The first of ``devices`` that ``spec`` names (fields it leaves out match anything), or None."""
    for d in devices:
        if _matches(spec, d):
            return d
    return None


def _matches(spec, d):
    if spec.job is not None and spec.job != d.job:
        return False
    if spec.task is not None and spec.task != d.task:
        return False
    if spec.replica is not None and spec.replica != d.replica:
        return False
    if spec.device_type is not None and spec.device_type != d.device_type:
        return False
    return spec.device_index is None or spec.device_index == d.index


def _fallback(op, request, devices, soft, moved, candidate=None):
    """Where ``op`` runs when the device it asked for is missing or lacks its kernel."""
    same_task = DeviceSpec(job=request.job, replica=request.replica, task=request.task)
    options = [d for d in devices if _matches(same_task, d) and d.kernel(op.type) is not None]
    if not soft or not options:
        available = ", ".join(d.name for d in devices)
        if candidate is not None:
            reason = (f"Could not satisfy explicit device specification '{request}' because no supported kernel "
                      f"for {candidate.device_type} devices is available for op '{op.type}'.")
        else:
            reason = f"{op.name} was explicitly assigned to {request} but available devices are [ {available} ]."
        hint = ("Make sure the device specification refers to a valid device." if soft or not options else
                "Make sure the device specification refers to a valid device, or create the session with "
                "ConfigProto(allow_soft_placement=True).")
        raise errors.InvalidArgumentError(
            None, op, f"Cannot assign a device for operation {op.name}: {reason} {hint}"
        )
    device = options[0]
    moved.append((op, str(request), device))
    return device
