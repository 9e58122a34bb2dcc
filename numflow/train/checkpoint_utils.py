"""Checkpoints as a program's inputs: ``init_from_checkpoint`` (variables whose initializers read a
checkpoint, by TensorFlow's assignment maps), ``checkpoints_iterator`` (each new checkpoint of a directory,
as an evaluation loop waits for them), ``get_checkpoint_mtimes`` and ``remove_checkpoint``."""

import glob
import logging
import os
import time

from numflow.checkpoint import reader as _reader
from numflow.checkpoint import state as _state
from numflow.checkpoint.files import index_filename, resolve
from numflow.framework import dtypes, errors
from numflow.framework.graph import get_default_graph
from numflow.ops import state_ops
from numflow.ops.constant_op import constant
from numflow.variables.partitioned import PartitionedVariable
from numflow.variables.scope import _store
from numflow.variables.variable import Variable

_log = logging.getLogger("numflow")


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Make variables' initializers read their values from a checkpoint instead of their initial values.

    Parameters
    ----------
    ckpt_dir_or_file : str
        A checkpoint prefix, or a directory whose newest checkpoint is read.
    assignment_map : dict or iterable of pairs
        From checkpoint names to the variables to initialize, in TensorFlow's forms:
        ``{"old_scope/": "new_scope/"}`` (every variable of a scope), ``{"/": "new_scope/"}`` (the whole
        checkpoint into a scope), ``{"old/w": "new/w"}`` (one variable, by name in the variable store),
        ``{"old/w": variable}``, or a partitioned variable (or the list of its parts).

    Raises
    ------
    ValueError
        A checkpoint name that is not in the checkpoint, a shape that differs, or a scope mapped to a name.

    Examples
    --------
    >>> import os, tempfile, numflow as tf
    >>> prefix = os.path.join(tempfile.mkdtemp(), "model")
    >>> with tf.Graph().as_default():
    ...     with tf.variable_scope("old"):
    ...         _ = tf.get_variable("w", initializer=[1.0, 2.0])
    ...     with tf.Session() as sess:
    ...         sess.run(tf.global_variables_initializer())
    ...         prefix = tf.train.Saver().save(sess, prefix)
    >>> with tf.Graph().as_default():
    ...     with tf.variable_scope("new"):
    ...         w = tf.get_variable("w", [2])
    ...     tf.train.init_from_checkpoint(prefix, {"old/": "new/"})
    ...     with tf.Session() as sess:
    ...         sess.run(tf.global_variables_initializer())
    ...         sess.run(w).tolist()
    [1.0, 2.0]
    """
    ckpt_file = _checkpoint_filename(ckpt_dir_or_file)
    with _reader.load_checkpoint(ckpt_dir_or_file) as reader:
        variable_map = reader.get_variable_to_shape_map()
    if hasattr(assignment_map, "items"):
        assignment_map = assignment_map.items()
    store_vars = _store().variables
    for tensor_name_in_ckpt, current in sorted(assignment_map, key=lambda pair: pair[0]):
        var = _as_variable_or_parts(current, store_vars)
        if var is not None:
            if tensor_name_in_ckpt not in variable_map:
                raise ValueError(f"Tensor {tensor_name_in_ckpt} is not found in {ckpt_dir_or_file} checkpoint "
                                 f"{variable_map}")
            if isinstance(var, Variable) and not var.shape.is_compatible_with(variable_map[tensor_name_in_ckpt]):
                raise ValueError(f"Shape of variable {var.name} ({var.shape}) doesn't match with shape of tensor "
                                 f"{tensor_name_in_ckpt} ({variable_map[tensor_name_in_ckpt]}) from checkpoint "
                                 "reader.")
            _set_variable_or_list_initializer(var, ckpt_file, tensor_name_in_ckpt)
            continue
        _init_scope(ckpt_dir_or_file, ckpt_file, variable_map, store_vars, tensor_name_in_ckpt, current)


def _init_scope(ckpt_dir_or_file, ckpt_file, variable_map, store_vars, tensor_name_in_ckpt, current):
    """Initialize every variable of scope ``current`` from scope ``tensor_name_in_ckpt`` of the checkpoint."""
    scopes = current[:current.rindex("/")] if "/" in current else ""
    if not tensor_name_in_ckpt.endswith("/"):
        raise ValueError(f"Assignment map with scope only name {scopes} should map to scope only "
                         f"{tensor_name_in_ckpt}. Should be 'scope/': 'other_scope/'.")
    scope_variables = set()
    for var_name in store_vars:
        if not scopes or var_name.startswith(scopes + "/"):
            scope_variables.add(var_name[:var_name.index("/part_")] if "/part_" in var_name else var_name)
    for var_name in sorted(scope_variables):
        full_tensor_name = var_name[len(scopes):]
        if current != "/":
            full_tensor_name = full_tensor_name[1:]
        if tensor_name_in_ckpt != "/":
            full_tensor_name = tensor_name_in_ckpt + full_tensor_name
        if full_tensor_name.endswith("/"):
            full_tensor_name = full_tensor_name[:-1]
        if full_tensor_name not in variable_map:
            raise ValueError(f"Tensor {full_tensor_name} ({var_name[len(scopes) + 1:]} in {tensor_name_in_ckpt}) "
                             f"is not found in {ckpt_dir_or_file} checkpoint")
        var = store_vars.get(var_name) or _partitioned_parts(var_name, store_vars)
        _set_variable_or_list_initializer(var, ckpt_file, full_tensor_name)


def _as_variable_or_parts(current, store_vars):
    """The variable (or list of parts) ``current`` names or is; None for a scope."""
    if isinstance(current, PartitionedVariable):
        return list(current)
    if isinstance(current, Variable) or (isinstance(current, list) and current
                                         and all(isinstance(v, Variable) for v in current)):
        return current
    return store_vars.get(current) or _partitioned_parts(current, store_vars)


def _partitioned_parts(name, store_vars):
    parts = []
    while f"{name}/part_{len(parts)}" in store_vars:
        parts.append(store_vars[f"{name}/part_{len(parts)}"])
    return parts or None


def _checkpoint_filename(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    return _state.latest_checkpoint(path) if resolve(path).isdir(path) else path


def _set_variable_or_list_initializer(variable_or_list, ckpt_file, tensor_name):
    if isinstance(variable_or_list, list | tuple):
        slice_name = None
        for v in variable_or_list:
            info = v._save_slice_info
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError(f"Slices must all be from the same tensor: {slice_name} != {info.full_name}")
            _set_checkpoint_initializer(v, ckpt_file, tensor_name, info.spec)
    else:
        _set_checkpoint_initializer(variable_or_list, ckpt_file, tensor_name, "")


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name, slice_spec, name="checkpoint_initializer"):
    """The variable's initializer becomes an ``Assign`` of a ``RestoreV2`` of ``tensor_name`` (on the CPU)."""
    graph = get_default_graph()
    base_type = variable.dtype.base_dtype
    with graph.device(variable.device), graph.device("/cpu:0"), graph.name_scope(name) as scope:
        inputs = [constant(ckpt_file, dtypes.string, name="prefix"),
                  constant([tensor_name], dtypes.string, name="tensor_names"),
                  constant([slice_spec], dtypes.string, name="shape_and_slices")]
        restore = graph.create_op("RestoreV2", inputs, {"dtypes": [base_type]}, name=scope).outputs[0]
    restore.set_shape(variable.shape)
    init_op = state_ops.assign(variable, restore, validate_shape=variable.shape.is_fully_defined()).op
    variable._initializer_op = init_op
    variable._initial_value = restore
    graph._variable_initializers[variable.op.name] = init_op


def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1, timeout=None):
    """The newest checkpoint of ``checkpoint_dir`` once it differs from ``last_checkpoint``; None after
    ``timeout`` seconds without one."""
    _log.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        checkpoint_path = _state.latest_checkpoint(checkpoint_dir)
        if checkpoint_path is not None and checkpoint_path != last_checkpoint:
            _log.info("Found new checkpoint at %s", checkpoint_path)
            return checkpoint_path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new checkpoint of ``checkpoint_dir`` as it appears, at most one per ``min_interval_secs``.

    Stops after ``timeout`` seconds without a new checkpoint, unless ``timeout_fn`` is given: then it
    stops when ``timeout_fn()`` returns True (asked after each timeout).
    """
    checkpoint_path = None
    while True:
        new_checkpoint_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, timeout=timeout)
        if new_checkpoint_path:
            start = time.time()
            checkpoint_path = new_checkpoint_path
            yield checkpoint_path
            time_to_next_eval = start + min_interval_secs - time.time()
            if time_to_next_eval > 0:
                time.sleep(time_to_next_eval)
        elif timeout_fn is None:
            _log.info("Timed-out waiting for a checkpoint (without timeout_fn).")
            return
        if timeout_fn is not None and timeout_fn():
            _log.info("Done. No new checkpoints will be generated.")
            return


def checkpoint_mtime(prefix):
    """The modification time (seconds) of checkpoint ``prefix``'s index file, or of ``prefix`` itself (a V1
    checkpoint); None when neither exists."""
    fs = resolve(prefix)
    for pattern in (index_filename(prefix), prefix):
        matches = fs.glob(glob.escape(pattern)) or fs.glob(pattern)
        if matches:
            try:
                mtime_ns = fs.stat(matches[0])[1]
            except errors.NotFoundError:  # deleted meanwhile by another process
                return None
            return mtime_ns // 10**9 + (mtime_ns % 10**9) * 1e-9  # as os.stat's st_mtime
    return None


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times of those of ``checkpoint_prefixes`` that exist, in their order."""
    return [t for t in map(checkpoint_mtime, checkpoint_prefixes) if t is not None]


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Delete checkpoint ``checkpoint_prefix``: its index, data shards and meta graph (or, for a V1
    checkpoint, the file ``checkpoint_prefix``)."""
    from numflow.train.saver import _delete_checkpoint

    if checkpoint_format_version == 2:
        _delete_checkpoint(checkpoint_prefix, meta_graph_suffix)
        return
    for path in (f"{checkpoint_prefix}.{meta_graph_suffix}", checkpoint_prefix):
        try:
            resolve(path).remove(path)
        except errors.NotFoundError:
            pass
