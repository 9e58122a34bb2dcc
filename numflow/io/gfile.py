"""``tf.io.gfile``: files and directories on the local disk or any fsspec filesystem, as TensorFlow's.

Every function takes a local path or a URL (``s3://bucket/run/log.txt``, ``gs://...``,
``memory://...``): local paths go through ``os`` (fsspec is not imported for them), URLs through
fsspec, which must be installed with the package for the scheme (``pip install numflow[s3]``).
Failures are TensorFlow's error classes naming the path (``NotFoundError: x.txt; No such file or
directory``); a scheme without a filesystem is an ``UnimplementedError``.

``tf.gfile`` (``numflow.gfile``) has the same functions under TensorFlow 1.x's names.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
>>> with GFile(path, "w") as f:
...     f.write("one\\ntwo\\n")
>>> with GFile(path) as f:
...     f.readlines()
['one\\n', 'two\\n']
>>> exists(path), stat(path).length
(True, 8)
"""

import os
import posixpath
import shutil

from numflow.framework import errors
from numflow.io.filesystem import LOCAL, is_url, resolve

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk"]

_MODES = ("r", "w", "a", "r+", "w+", "a+")
_READING = ("r", "r+", "a+", "w+")
_WRITING = ("a", "w", "r+", "a+", "w+")


def _as_bytes(value, encoding="utf-8"):
    if isinstance(value, str):
        return value.encode(encoding)
    if isinstance(value, bytes | bytearray | memoryview):
        return value
    raise TypeError(f"Expected binary or unicode string, got {value!r}")


class GFile:
    """A file on the local disk or a filesystem of fsspec, read and written as TensorFlow's GFile.

    ``mode`` is ``r``, ``w``, ``a``, ``r+``, ``w+`` or ``a+``, with ``b`` for bytes: reads give
    ``str`` (UTF-8) without ``b`` and ``bytes`` with it; ``write`` takes either. As in TensorFlow,
    the file is opened on the first read or write (``GFile(path, "w")`` alone creates nothing),
    ``read(n)``, ``seek`` and ``tell`` count bytes, and a closed file reopens on the next read.

    Raises
    ------
    InvalidArgumentError
        Another mode.
    UnimplementedError
        A URL whose scheme has no filesystem installed.
    """

    def __init__(self, name, mode="r"):
        self._name = name
        self._mode = mode
        self._binary = "b" in mode
        base = mode.replace("b", "")
        if base not in _MODES:
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._base = base
        self._fs = resolve(name)
        self._file = None

    name = property(lambda self: self._name, doc="The path given.")
    mode = property(lambda self: self._mode, doc="The mode given.")

    def _opened(self, reading):
        if reading and self._base not in _READING:
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        if not reading and self._base not in _WRITING:
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        if self._file is None:
            if self._fs.isdir(self._name):
                raise errors.FailedPreconditionError(None, None, f"{self._name}; Is a directory")
            self._file = self._fs.open(self._name, self._base + "b")
        return self._file

    def _value(self, data):
        return data if self._binary else data.decode("utf-8")

    def size(self):
        """The file's length in bytes (what was written so far included)."""
        if self._file is not None and self._base in _WRITING:
            self._file.flush()
        return stat(self._name).length

    def write(self, file_content):
        """Write ``str`` (as UTF-8) or bytes at the end of what was written."""
        self._opened(False).write(_as_bytes(file_content))

    def read(self, n=-1):
        """``n`` bytes from the current position (all that is left with -1), decoded without ``b``."""
        f = self._opened(True)
        return self._value(f.read() if n is None or n < 0 else f.read(n))

    def readline(self):
        """The next line with its ``\\n``; empty at the end of the file."""
        return self._value(self._opened(True).readline())

    def readlines(self):
        """Every line left, each with its ``\\n``."""
        return list(self)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    def seek(self, offset=None, whence=0, position=None):
        """Move to ``offset`` bytes from the start (``whence`` 0), the position (1) or the end (2)."""
        if offset is None and position is None:
            raise TypeError("seek(): offset argument required")
        if offset is not None and position is not None:
            raise TypeError("seek(): offset and position may not be set simultaneously.")
        if whence not in (0, 1, 2):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid whence argument: {whence}. Valid values are 0, 1, or 2.")
        self._opened(True).seek(offset if position is None else position, whence)

    def tell(self):
        """The position in bytes."""
        return self._opened(self._base in _READING).tell()

    def seekable(self):
        return True

    def flush(self):
        """Hand what was written to the filesystem (not a sync to the disk)."""
        if self._file is not None and self._base in _WRITING:
            self._file.flush()

    def close(self):
        """Close the file: what was written is then in the file (for object stores: uploaded)."""
        if self._file is not None:
            f, self._file = self._file, None
            f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_file", None) is not None:
            self.close()


class FileStatistics:
    """What :func:`stat` gives: ``length`` in bytes, ``mtime_nsec``, ``is_directory``."""

    def __init__(self, length=None, mtime_nsec=None, is_directory=None):
        self.length = length
        self.mtime_nsec = mtime_nsec
        self.is_directory = is_directory

    def __repr__(self):
        return (f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, "
                f"is_directory={self.is_directory})")


def exists(path):
    """Whether ``path`` is a file or a directory."""
    try:
        return resolve(path).exists(os.fspath(path))
    except errors.NotFoundError:
        return False


def isdir(path):
    """Whether ``path`` is a directory (False when it does not exist)."""
    try:
        return resolve(path).isdir(os.fspath(path))
    except errors.NotFoundError:
        return False


def remove(path):
    """Delete the file ``path``; NotFoundError when there is none, FailedPreconditionError for a directory."""
    resolve(path).remove(os.fspath(path))


def listdir(path):
    """The names in directory ``path`` (no ``.`` or ``..``), sorted.

    Raises
    ------
    NotFoundError
        ``Could not find directory PATH``.
    """
    path = os.fspath(path)
    fs = resolve(path)
    if not fs.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return sorted(fs.listdir(path))


def glob(pattern):
    """The paths matching ``pattern`` (or any of a list of patterns), sorted; ``[]`` when none do."""
    patterns = [pattern] if isinstance(pattern, str | bytes | os.PathLike) else list(pattern)
    found = set()
    for item in patterns:
        item = os.fsdecode(os.fspath(item))
        found.update(resolve(item).glob(item))
    return sorted(found)


def makedirs(path):
    """Make directory ``path`` and its missing parents; nothing when it exists."""
    resolve(path).makedirs(os.fspath(path))


def mkdir(path):
    """Make directory ``path`` (its parent must exist; nothing when it exists)."""
    resolve(path).mkdir(os.fspath(path))


def _refuse_overwrite(target, overwrite):
    if not overwrite and exists(target):
        raise errors.AlreadyExistsError(None, None, f"{target}; file already exists")


def _transfer(src, dst, overwrite, within):
    """Check ``overwrite``; call ``within(source filesystem)`` when both paths are on one filesystem and
    return True, else return False (the caller copies the bytes across)."""
    _refuse_overwrite(dst, overwrite)
    source, target = resolve(src), resolve(dst)
    if source is target or (source is not LOCAL and target is not LOCAL and source.fs is target.fs):
        within(source)
        return True
    return False


def copy(src, dst, overwrite=False):
    """Copy file ``src`` to ``dst``, across filesystems too (``overwrite`` to replace a file).

    Raises
    ------
    AlreadyExistsError
        ``dst`` exists and ``overwrite`` is False.
    NotFoundError
        ``src`` does not exist.
    """
    src, dst = os.fspath(src), os.fspath(dst)
    if not _transfer(src, dst, overwrite, lambda fs: fs.copy(src, dst)):
        with resolve(src).open(src, "rb") as reader, resolve(dst).open(dst, "wb") as writer:
            shutil.copyfileobj(reader, writer, 8 << 20)


def rename(src, dst, overwrite=False):
    """Move ``src`` to ``dst`` (``overwrite`` to replace a file there); across filesystems, copy then delete."""
    src, dst = os.fspath(src), os.fspath(dst)
    if not _transfer(src, dst, overwrite, lambda fs: fs.rename(src, dst)):
        copy(src, dst, overwrite=True)
        resolve(src).remove(src)


def rmtree(path):
    """Delete ``path`` and everything under it (a file is deleted too).

    Raises
    ------
    NotFoundError
        ``PATH not found``.
    """
    path = os.fspath(path)
    fs = resolve(path)
    if not fs.exists(path):
        raise errors.NotFoundError(None, None, f"{path} not found")
    if fs.isdir(path):
        fs.rmtree(path)
    else:
        fs.remove(path)


def stat(path):
    """A :class:`FileStatistics` of ``path``; NotFoundError when it does not exist."""
    length, mtime_nsec, is_directory = resolve(path).stat(os.fspath(path))
    return FileStatistics(length, mtime_nsec, is_directory)


def walk(top, topdown=True, onerror=None):
    """``(dirname, subdirectories, files)`` for ``top`` and each directory under it, as ``os.walk``.

    Parents come before their children with ``topdown``, after them without. Nothing is yielded
    for a ``top`` that is not a directory; ``onerror(error)`` is called for a directory that cannot
    be listed.
    """
    top = os.fspath(top)
    try:
        names = listdir(top)
    except errors.OpError as error:
        if onerror is not None:
            onerror(error)
        return
    subdirs, files = [], []
    for name in names:
        (subdirs if isdir(join(top, name)) else files).append(name)
    if topdown:
        yield top, subdirs, files
    for subdir in subdirs:
        yield from walk(join(top, subdir), topdown, onerror)
    if not topdown:
        yield top, subdirs, files


def join(path, *paths):
    """Join path components: with ``/`` for a URL, as ``os.path.join`` for a local path.

    >>> join("s3://bucket/run", "model.ckpt")
    's3://bucket/run/model.ckpt'
    """
    path = os.fspath(path)
    if is_url(path):
        scheme, _, rest = path.partition("://")
        return f"{scheme}://{posixpath.join(rest, *paths)}"
    return os.path.join(path, *paths)


def get_registered_schemes():
    """The URL schemes with a filesystem: ``''`` and ``file``, and fsspec's when it is installed."""
    schemes = ["", "file"]
    try:
        import fsspec
    except ImportError:
        return schemes
    return schemes + sorted(set(fsspec.available_protocols()) - {"file"})
