"""tf.train's reading API over BundleReader: load_checkpoint, CheckpointReader, list_variables, load_variable."""

import os

from numflow.checkpoint import datatypes
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.checkpoint.files import index_filename, resolve
from numflow.checkpoint.state import latest_checkpoint
from numflow.framework import errors


class CheckpointNotFoundError(errors.NotFoundError, ValueError):
    """No checkpoint in a directory: NotFoundError for numflow, ValueError as TF's Python raises it."""


class CheckpointReader:
    """What ``tf.train.load_checkpoint`` returns: names, shapes, dtypes and values of one checkpoint.

    Parameters
    ----------
    prefix : str or path-like
        A checkpoint prefix (``dir/model-4``).

    Raises
    ------
    NotFoundError
        ``Unsuccessful TensorSliceReader constructor: Failed to find any matching files for P``.
    """

    def __init__(self, prefix):
        prefix = os.fspath(prefix)
        if not resolve(prefix).isfile(index_filename(prefix)):
            raise errors.NotFoundError(
                None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                f"files for {prefix}")
        self.prefix = prefix
        self._bundle = BundleReader(prefix)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Close the data files (they reopen on the next read)."""
        self._bundle.close()

    @property
    def bundle(self):
        """The underlying :class:`BundleReader` (for ``get_tensor(name, out=...)``)."""
        return self._bundle

    def has_tensor(self, name):
        """Whether the checkpoint holds ``name``."""
        return self._bundle.has_tensor(name)

    def get_tensor(self, name):
        """The value of ``name``: a numpy array, or for a scalar a numpy scalar (``bytes`` for strings).

        Raises
        ------
        NotFoundError
            ``Key NAME not found in checkpoint``.
        """
        value = self._bundle.get_tensor(name)
        return value[()] if value.ndim == 0 else value

    def get_variable_to_shape_map(self):
        """``{name: [dims]}`` for every variable in the checkpoint."""
        return {name: list(shape) for name, shape in self._bundle.shapes().items()}

    def get_variable_to_dtype_map(self):
        """``{name: DType}`` for every variable in the checkpoint."""
        return self._bundle.dtypes()

    def debug_string(self):
        """One ``name (DT_FLOAT) [2,3]`` line per variable, sorted, as bytes (as TF returns it)."""
        lines = []
        for name in sorted(self._bundle.keys()):
            entry = self._bundle.entry(name)
            dims = ",".join(str(d) for d in entry.shape)
            lines.append(f"{name} ({datatypes.proto_name(entry.dtype)}) [{dims}]\n")
        return "".join(lines).encode("utf-8", "surrogateescape")


def NewCheckpointReader(filepattern):
    """A :class:`CheckpointReader` for checkpoint prefix ``filepattern`` (``tf.train.NewCheckpointReader``)."""
    return CheckpointReader(filepattern)


def _checkpoint_prefix(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if resolve(path).isdir(path):
        prefix = latest_checkpoint(path)
        if prefix is None:
            raise CheckpointNotFoundError(
                None, None, f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return prefix
    return path


def load_checkpoint(ckpt_dir_or_file):
    """A :class:`CheckpointReader` for a checkpoint prefix, or for the newest checkpoint of a directory.

    Parameters
    ----------
    ckpt_dir_or_file : str or path-like
        A prefix, or a directory whose ``checkpoint`` state file names one.

    Raises
    ------
    CheckpointNotFoundError
        A directory without a usable state file (a NotFoundError and a ValueError).
    NotFoundError
        A prefix without ``.index`` file.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> from numflow.checkpoint.bundle import write_bundle
    >>> prefix = write_bundle(os.path.join(tempfile.mkdtemp(), "model"), {"v": np.float32(1.0)})
    >>> load_checkpoint(prefix).get_tensor("v")
    np.float32(1.0)
    """
    return CheckpointReader(_checkpoint_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """Sorted ``(name, [dims])`` pairs of the variables in a checkpoint (``tf.train.list_variables``)."""
    with load_checkpoint(ckpt_dir_or_file) as reader:
        shapes = reader.get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def load_variable(ckpt_dir_or_file, name):
    """The value of one variable (``tf.train.load_variable``); a trailing ``:0`` is ignored."""
    if name.endswith(":0"):
        name = name[:-2]
    with load_checkpoint(ckpt_dir_or_file) as reader:
        return reader.get_tensor(name)
