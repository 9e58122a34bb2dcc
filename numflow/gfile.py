"""``tf.gfile``: TensorFlow 1.x's names for :mod:`numflow.io.gfile` (local paths and fsspec URLs)."""

from numflow.io.gfile import GFile, walk
from numflow.io.gfile import copy as Copy
from numflow.io.gfile import exists as Exists
from numflow.io.gfile import glob as Glob
from numflow.io.gfile import isdir as IsDirectory
from numflow.io.gfile import listdir as ListDirectory
from numflow.io.gfile import makedirs as MakeDirs
from numflow.io.gfile import mkdir as MkDir
from numflow.io.gfile import remove as Remove
from numflow.io.gfile import rename as Rename
from numflow.io.gfile import rmtree as DeleteRecursively
from numflow.io.gfile import stat as Stat

Open = GFile
FastGFile = GFile

__all__ = ["Copy", "DeleteRecursively", "Exists", "FastGFile", "GFile", "Glob", "IsDirectory", "ListDirectory",
           "MakeDirs", "MkDir", "Open", "Remove", "Rename", "Stat", "Walk"]


def Walk(top, in_order=True):
    """``(dirname, subdirectories, files)`` for ``top`` and each directory under it; parents first with ``in_order``."""
    return walk(top, topdown=in_order)
