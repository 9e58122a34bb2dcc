"""Saver: save and restore variables as TensorFlow V2 checkpoints, keeping the last few.

A checkpoint numflow writes is restored by TensorFlow's ``Saver`` and the other way round. Saving
takes a snapshot of every variable in one run (no copy: updates made afterwards copy their buffer),
then writes temporary files, syncs them and renames them into place (the index last, then the
``checkpoint`` state file), so a save that fails leaves the previous checkpoint and state file as
they were. With ``enable_async`` the writing happens in the background (``checkpoint_writer.py``)
while training goes on. Paths may be URLs of fsspec filesystems (``s3://bucket/run/model``).

What the Saver does around the files follows TF 1.x's ``tf.compat.v1.train.Saver``: its argument
checks and messages, the prefix for a global step, the list of kept checkpoints (recorded only
with a ``max_to_keep``, at most one deleted per save, one kept every
``keep_checkpoint_every_n_hours``) and an empty Saver's ``None``.
"""

import glob
import logging
import numbers
import os
import time
from dataclasses import dataclass

import numpy as np

from numflow.checkpoint import state as _state
from numflow.checkpoint.files import index_filename, is_url, resolve
from numflow.cluster import sharded_saver
from numflow.framework import errors, meta_graph
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.io.filesystem import translated
from numflow.ops import io_ops
from numflow.ops.constant_op import constant
from numflow.runtime.session import BaseSession
from numflow.train import training_util
from numflow.train.checkpoint_utils import checkpoint_mtime
from numflow.train.checkpoint_writer import BackgroundWriter, write_snapshots
from numflow.variables.partitioned import PartitionedVariable

_log = logging.getLogger("tensorflow")  # tf.logging's logger, as TensorFlow logs these lines
_NOT_FOUND_PREFIX = (
    "Restoring from checkpoint failed. This is most likely due to a Variable name or other graph key that is "
    "missing from the checkpoint. Please ensure that you have not altered the graph expected based on the "
    "checkpoint. Original error:\n\n"
)
_MISMATCH_PREFIX = (
    "Restoring from checkpoint failed. This is most likely due to a mismatch between the current graph and "
    "the graph from the checkpoint. Please ensure that you have not altered the graph expected based on the "
    "checkpoint. Original error:\n\n"
)


def _is_variable(var):
    return hasattr(var, "_ref")


def _flatten(items):
    for item in items:
        if isinstance(item, list | tuple):
            yield from _flatten(item)
        else:
            yield item


def _parts(key, value):
    """The parts of a PartitionedVariable or list of parts saved under ``key``, checked as TF does."""
    parts = list(value)
    for part in parts:
        if not _is_variable(part) or part._save_slice_info is None:
            raise TypeError(f"Variable to save under {key} is not a slice of a partitioned variable: {part}")
        if part._save_slice_info.full_name != key and not isinstance(value, PartitionedVariable):
            raise ValueError(f"Slices must all be from the same tensor: {part._save_slice_info.full_name} != {key}")
    return sorted(parts, key=lambda v: v._save_slice_info.var_offset)


def _saveables(var_list):
    """``{checkpoint key: variable, or list of parts}`` for ``var_list`` (None: every global and saveable
    variable); the parts of a partitioned variable are saved as slices of one tensor under its full name.

    Checks as TF's ``op_list_to_dict`` and ``validate_and_slice_inputs`` do, with their messages.
    """
    if var_list is None:
        graph = get_default_graph()
        var_list = graph.get_collection(GraphKeys.GLOBAL_VARIABLES) + graph.get_collection(
            GraphKeys.SAVEABLE_OBJECTS)
    if isinstance(var_list, dict):
        for key in var_list:
            if not isinstance(key, str):
                raise TypeError("names_to_saveables must be a dict mapping string names to trackable "
                                f"operations. Name is not a string: {key}")
        named, seen = {}, set()
        for key in sorted(var_list):
            var = var_list[key]
            if isinstance(var, PartitionedVariable | list | tuple):
                named[key] = _parts(key, var)
                continue
            if not _is_variable(var):
                raise TypeError("names_to_saveables must be a dict mapping string names to Tensors/Variables. "
                                f"Not a variable: {var}")
            if id(var) in seen:
                raise ValueError(f"The same saveable will be restored with two names: {key}")
            seen.add(id(var))
            named[key] = var
        return named
    if not isinstance(var_list, list | tuple | set):
        raise TypeError(f"Variables to save should be passed in a dict or a list. Got {var_list}")
    named = {}
    for var in sorted(_flatten(var_list), key=lambda v: v.name):
        if isinstance(var, PartitionedVariable):
            if var.name in named:
                raise ValueError(f"At least two variables have the same name: {var.name}")
            named[var.name] = _parts(var.name, var)
            continue
        if not _is_variable(var):
            raise TypeError(f"Variable to save is not a Variable: {var}")
        if var._save_slice_info is not None:
            key = var._save_slice_info.full_name
            if key in named and not isinstance(named[key], list):
                raise ValueError(f"Mixing slices and non-slices with the same name: {key}")
            named[key] = _parts(key, [*named.get(key, ()), var])
            continue
        key = var.op.name
        if key in named:
            raise ValueError(f"At least two variables have the same name: {key}")
        named[key] = var
    return named


def _entries(named):
    """``(key, slice spec, variable reference)`` per saved tensor or part, in key order (spec "": whole)."""
    entries = []
    for key in sorted(named):
        value = named[key]
        if isinstance(value, list):
            entries += [(key, part._save_slice_info.spec, part._ref()) for part in value]
        else:
            entries.append((key, "", value._ref()))
    return entries


@dataclass(frozen=True)
class SaverDef:
    """What ``Saver.as_saver_def()`` returns: the names of its filename tensor, save tensor and restore op."""

    filename_tensor_name: str
    save_tensor_name: str
    restore_op_name: str
    max_to_keep: int
    sharded: bool
    keep_checkpoint_every_n_hours: float
    version: int = 2


class Saver:
    """Saves and restores variables: ``saver.save(sess, "dir/model.ckpt", global_step=step)``.

    Parameters
    ----------
    var_list : list, tuple, set or dict, optional
        The variables to handle (default: all global variables), or a dict from checkpoint key to
        variable to save them under other names (``{"my_v2": v2}``).
    max_to_keep : int
        How many recent checkpoints to keep; each save deletes the oldest one past this number.
        None or 0 keeps all, and then ``last_checkpoints`` stays empty and the state file names
        only the newest checkpoint, as in TF.
    keep_checkpoint_every_n_hours : float
        Of the checkpoints leaving the list, keep one per this many hours on disk.
    allow_empty : bool
        With no variables, build a Saver whose ``save`` writes nothing and returns None (else
        ``ValueError: No variables to save``).
    pad_step_number : bool
        Write the global step with 8 digits (``model-00000012``).
    save_relative_paths : bool
        Write the state file's paths relative to its directory.
    defer_build : bool
        Build the ops in :meth:`build`, so variables made after the Saver are included.
    enable_async : bool
        numflow's addition (as TF2's ``CheckpointOptions(enable_async=True)``): ``save`` returns
        once it has taken the variables' snapshot, and the checkpoint, the state file and the
        deletions of ``max_to_keep`` are written in the background. See :meth:`save`.

    Raises
    ------
    ValueError
        No variables, or two variables with one name, or one variable under two names.
    TypeError
        ``var_list`` is not a list or dict, holds something that is not a variable, or a dict
        key is not a string.
    """

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=2, pad_step_number=False, save_relative_paths=False, filename=None,
                 enable_async=False):
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. Either set "
                             "defer_build=False or var_list=None.")
        self._var_list = var_list
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_every = keep_checkpoint_every_n_hours
        self._name = name
        self._filename_default = filename
        self._allow_empty = allow_empty
        self._save_relative_paths = save_relative_paths
        self._pad_step_number = pad_step_number
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._is_built = False
        self._is_empty = None
        self._save_op = self._restore_op = self._filename = None
        self._enable_async = enable_async
        self._background = None
        self._saved = None  # (key, variable reference) pairs; None for a Saver adopted from a SaverDef
        if saver_def is not None:  # the ops exist already: a graph read from a MetaGraphDef
            meta_graph.adopt_saver_def(self, saver_def, name)
        elif not defer_build:
            self.build()

    def build(self):
        """Add the save and restore ops to the graph (once); ``__init__`` does it unless ``defer_build``."""
        if self._is_built:
            return
        self._is_built = True
        empty = isinstance(self._var_list, list | tuple | set | dict) and not self._var_list
        named = {} if empty else _saveables(self._var_list)
        if not named:
            if self._allow_empty:
                self._is_empty = True
                return
            raise ValueError("No variables to save")
        self._is_empty = False
        self._var_list = named
        graph = get_default_graph()
        with graph.name_scope(self._name or "save") as scope:
            # TensorFlow's name for it; saves and restores feed the path in its place.
            self._filename = constant(self._filename_default or "model", name="Const")
            entries = _entries(named)
            keys, specs, refs = (list(column) for column in zip(*entries))
            self._saved = [(key, ref) for key, _, ref in entries]
            self._specs = specs
            self._save_op = io_ops.save_bundle(self._filename, keys, refs, specs, name="SaveBundle")
            self._restore_op = io_ops.restore_bundle(self._filename, keys, refs, specs, name="restore_all")
        self._scope = scope
        self._next_checkpoint_time = time.time() + self._keep_every * 3600

    # -- the checkpoints kept ----------------------------------------------------------------------
    @property
    def last_checkpoints(self):
        """The prefixes of the checkpoints kept, oldest first (empty without ``max_to_keep``)."""
        return [path for path, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        """DEPRECATED: use :meth:`set_last_checkpoints_with_time`. These are never deleted."""
        assert isinstance(last_checkpoints, list)
        self._last_checkpoints = [(path, np.inf) for path in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """Set the kept checkpoints as ``[(prefix, timestamp), ...]``, oldest first."""
        assert isinstance(last_checkpoints_with_time, list)
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        """After a restart, keep track of those of ``checkpoint_paths`` that exist, their index's mtime as time."""
        found = [(path, mtime) for path in checkpoint_paths if (mtime := checkpoint_mtime(path)) is not None]
        self.set_last_checkpoints_with_time(found)

    def _record_last_checkpoint(self, path):
        if not self._max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints if p[0] != path]
        self._last_checkpoints.append((path, time.time()))
        if len(self._last_checkpoints) > self._max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _maybe_delete_old_checkpoints(self, meta_graph_suffix="meta"):
        """Delete the oldest checkpoint that left the list, unless it is the one kept for its hour."""
        if not self._checkpoints_to_be_deleted:
            return
        path, stamp = self._checkpoints_to_be_deleted.pop(0)
        if stamp > self._next_checkpoint_time:
            self._next_checkpoint_time += self._keep_every * 3600
            return
        try:
            _delete_checkpoint(path, meta_graph_suffix)
        except Exception as exc:  # noqa: BLE001 - as TF: a failed deletion never fails the save
            _log.warning("Ignoring: %s", exc)

    # -- saving ---------------------------------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False,
             enable_async=None):
        """Write the variables' values from ``sess`` to ``save_path`` (``-<step>`` appended with a step).

        Returns the checkpoint prefix written (None for an empty Saver, which writes nothing). The
        ``checkpoint`` state file beside it (``latest_filename``) names it as the newest.
        ``save_path`` may be a URL of an fsspec filesystem (``s3://bucket/run/model``).

        Asynchronous saves (``enable_async``) return as soon as the variables' snapshot is taken:
        the checkpoint holds the values of that moment whatever the updates after it. The state
        file and the deletions of ``max_to_keep`` follow once the checkpoint is complete, so
        ``latest_checkpoint`` and ``last_checkpoints`` name only complete checkpoints. A save
        waits for the one before it, and :meth:`sync`, closing the session and the process's
        exit wait too. A failure in the background is raised by the next ``save`` or ``sync``,
        or by the session's ``close``, naming the checkpoint; the one before stays the latest.

        Parameters
        ----------
        global_step : int, Tensor, Variable or tensor name, optional
            Appended to the prefix as ``-<step>`` (its value in ``sess`` when not an integer).
        enable_async : bool, optional
            Write in the background; default: the Saver's ``enable_async``.

        Raises
        ------
        ValueError
            ``latest_filename`` has a directory part or equals the prefix's file name, or the
            directory above the prefix's directory does not exist (the prefix's own directory is
            made when missing).
        TypeError
            ``sess`` is not a Session.
        """
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fsdecode(save_path)
        if global_step is not None:
            if not isinstance(global_step, numbers.Integral | np.integer):
                global_step = training_util.global_step(sess, global_step)
            checkpoint_file = "%s-%d" % (save_path, global_step)  # noqa: UP031 - "%d" as TF formats
            if self._pad_step_number:
                checkpoint_file = f"{save_path}-{int(global_step):08d}"
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError(f"'latest_filename' collides with 'save_path': '{latest_filename}' and "
                                 f"'{save_path}'")
        if not isinstance(sess, BaseSession):
            raise TypeError(f"'sess' must be a Session; {sess}")
        if self._is_empty:
            return None
        self.sync()  # a later save waits for an unfinished one, and raises its failure
        save_dir = os.path.dirname(save_path)
        if save_dir and not is_url(save_dir) and not os.path.isdir(save_dir) and (
                os.path.lexists(save_dir) or not os.path.isdir(os.path.dirname(save_dir) or ".")):
            # As TF's bundle writer: the prefix's own directory is made, not its missing parents.
            raise ValueError(f"Parent directory of {save_path} doesn't exist, can't save.")
        background = self._enable_async if enable_async is None else enable_async
        if self._saved is None:  # adopted from a SaverDef: the graph's own save op writes, in the foreground
            background = False

            def write_data():
                sess.run(self._save_op.outputs[0], {self._filename: checkpoint_file})
        elif self._sharded and sharded_saver.applies(sess):  # each task writes its variables' shard
            background = False

            def write_data():
                sharded_saver.save(sess, checkpoint_file, self._saved, self._specs)
        else:
            keys, specs = [key for key, _ in self._saved], self._specs
            snapshots = sess._fetch_snapshots([ref for _, ref in self._saved])

            def write_data():
                with translated(checkpoint_file):
                    write_snapshots(checkpoint_file, keys, snapshots, background, specs)
        # The graph as it is now: the user may go on adding ops while the checkpoint is written.
        meta = meta_graph.checkpoint_meta_graph(self, sess, strip_default_attrs) if write_meta_graph else None

        def write():
            write_data()
            if meta is not None:
                meta_graph.write_proto(f"{checkpoint_file}.{meta_graph_suffix}", meta)
            if write_state:
                self._record_last_checkpoint(checkpoint_file)
                _state.update_checkpoint_state(save_dir or ".", checkpoint_file, self.last_checkpoints,
                                               latest_filename=latest_filename,
                                               save_relative_paths=self._save_relative_paths)
                self._maybe_delete_old_checkpoints(meta_graph_suffix)

        if not background:
            write()
            return checkpoint_file
        if self._background is None:
            self._background = BackgroundWriter()
        self._background.start(checkpoint_file, write)
        sess._wait_before_close(self, self.sync)
        return checkpoint_file

    def sync(self):
        """Wait until the checkpoint being written in the background (if any) is complete.

        Raises
        ------
        OpError
            The background write failed (its class, with a message naming the checkpoint).
        """
        if self._background is not None:
            self._background.wait()

    # -- restoring ------------------------------------------------------------------------------
    def restore(self, sess, save_path):
        """Load the variables' values from checkpoint ``save_path`` into ``sess`` (no initialization needed).

        All or nothing, as in TF: keys, dtypes and shapes, then every tensor's bytes and crc32c
        are checked before any variable changes, so a failure leaves every variable as it was,
        initialized or not. Initialized variables keep their buffers until then (their tensors
        are read twice: once to check, once to assign), so a restore needs memory for one
        variable beyond the values themselves. ``save_path`` may be a URL.

        Raises
        ------
        ValueError
            ``save_path`` is None or names no checkpoint.
        NotFoundError
            A variable's key is not in the checkpoint (the message lists near names).
        InvalidArgumentError
            A stored dtype or shape differs from the variable's (nothing is restored then).
        DataLossError
            The checkpoint is corrupted (the message names the tensor and the file).
        """
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        self.sync()
        save_path = os.fsdecode(save_path)
        if not _state.checkpoint_exists(save_path):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        try:
            if self._saved is not None and sharded_saver.applies(sess):  # variables on other tasks
                sharded_saver.restore(sess, save_path, self._saved, self._specs, self._sharded)
            else:
                sess.run(self._restore_op, {self._filename: save_path})
        except errors.NotFoundError as e:
            raise errors.NotFoundError(None, e.op, _NOT_FOUND_PREFIX + self._mismatch_report(save_path, e)) from e
        except errors.InvalidArgumentError as e:
            raise errors.InvalidArgumentError(None, e.op, _MISMATCH_PREFIX + e.message) from e

    def _mismatch_report(self, save_path, error):
        """The original error, then which keys differ between the graph and the checkpoint, and the fix."""
        from numflow.checkpoint.bundle_reader import BundleReader

        try:
            with BundleReader(save_path) as reader:
                stored = set(reader.keys())
        except errors.OpError:
            return error.message
        wanted = set(self._var_list)
        missing = sorted(wanted - stored)
        unused = sorted(stored - wanted)
        lines = [error.message, "",
                 f"{len(wanted & stored)} of {len(wanted)} variables matched a key of the checkpoint.",
                 f"In the graph, not in the checkpoint: {', '.join(missing) or '-'}",
                 f"In the checkpoint, not in the graph: {', '.join(unused) or '-'}"]
        if missing and unused:
            lines.append(f"To restore a renamed variable, map its checkpoint key to it: "
                         f"tf.train.Saver(var_list={{'{unused[0]}': <the variable now named {missing[0]}>, ...}})")
        return "\n".join(lines)

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        """The default graph's MetaGraphDef with this Saver's SaverDef, written to ``filename`` when given."""
        return meta_graph.export_meta_graph(filename, saver_def=self.as_saver_def(), collection_list=collection_list,
                                            as_text=as_text, export_scope=export_scope, clear_devices=clear_devices,
                                            strip_default_attrs=strip_default_attrs)

    def as_saver_def(self):
        """The :class:`SaverDef` of this Saver (None for an empty one)."""
        if self._save_op is None:
            return None
        return SaverDef(self._filename.name, self._save_op.outputs[0].name, self._restore_op.name,
                        self._max_to_keep or 0, bool(self._sharded), self._keep_every)

    saver_def = property(as_saver_def)


def _delete_checkpoint(prefix, meta_graph_suffix="meta"):
    """Remove checkpoint ``prefix``'s index, data shards and meta graph, as TF's ``remove_checkpoint``.

    The index goes first: a checkpoint is never seen without its data files.
    """
    fs = resolve(prefix)
    paths = [index_filename(prefix), f"{prefix}.{meta_graph_suffix}"]
    paths += fs.glob(f"{glob.escape(prefix)}.data-?????-of-?????")
    for path in paths:
        try:
            fs.remove(path)
        except errors.NotFoundError:
            pass


latest_checkpoint = _state.latest_checkpoint
get_checkpoint_state = _state.get_checkpoint_state
checkpoint_exists = _state.checkpoint_exists
