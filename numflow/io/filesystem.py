"""Where a path's bytes live: the local disk through ``os``, or a filesystem of fsspec by URL.

``resolve(path)`` gives the filesystem of a path: :data:`LOCAL` for a local path or a ``file://``
URL (fsspec is not even imported), an :class:`FsspecFileSystem` for any other URL (``s3://``,
``gs://``, ``hdfs://``, ``memory://``...). Both have one small interface, on which ``tf.gfile``
and the checkpoint files are written; every failure comes out as TensorFlow's error class with a
message naming the path (``model.index; No such file or directory``).

A remote filesystem takes its options (endpoint, credentials) from fsspec's configuration
(``fsspec.config.conf["s3"] = {"endpoint_url": ...}`` or ``FSSPEC_S3_ENDPOINT_URL``) and its
library's own (``AWS_ACCESS_KEY_ID``...).
"""

import contextlib
import errno
import glob as _glob
import os
import shutil

from numflow.framework import errors

_OS_ERRORS = {
    errno.ENOENT: errors.NotFoundError,
    errno.ENOTDIR: errors.NotFoundError,
    errno.EACCES: errors.PermissionDeniedError,
    errno.EPERM: errors.PermissionDeniedError,
    errno.ENOSPC: errors.ResourceExhaustedError,
    errno.EDQUOT: errors.ResourceExhaustedError,
    errno.EEXIST: errors.AlreadyExistsError,
    errno.EISDIR: errors.FailedPreconditionError,
}
_BY_TYPE = [
    (FileNotFoundError, errors.NotFoundError),
    (NotADirectoryError, errors.NotFoundError),
    (PermissionError, errors.PermissionDeniedError),
    (FileExistsError, errors.AlreadyExistsError),
    (IsADirectoryError, errors.FailedPreconditionError),
]
# The packages fsspec needs for a scheme, as numflow's extras name them.
_EXTRAS = {"s3": "s3", "s3a": "s3", "gs": "gcs", "gcs": "gcs"}


def os_error(exc, path):
    """The OpError TF raises for an OSError on ``path``: its class by errno, text ``path; strerror``.

    >>> str(os_error(FileNotFoundError(2, "No such file or directory"), "m.index"))
    'm.index; No such file or directory'
    """
    cls = _OS_ERRORS.get(exc.errno, errors.UnknownError)
    return cls(None, None, f"{path}; {exc.strerror or exc}")


def remote_error(exc, path):
    """The OpError for any exception a remote filesystem raised on ``path``, naming the path."""
    if isinstance(exc, errors.OpError):
        return exc
    if "Credentials" in type(exc).__name__:  # botocore's NoCredentialsError and its kin
        return errors.UnauthenticatedError(None, None, f"{path}; {exc}")
    cls = _OS_ERRORS.get(getattr(exc, "errno", None))
    if cls is None:
        cls = next((c for t, c in _BY_TYPE if isinstance(exc, t)), errors.UnknownError)
    text = getattr(exc, "strerror", None) or str(exc)
    if " " not in text:  # fsspec's FileNotFoundError(path) and the like say no more than the path
        text = "No such file or directory" if cls is errors.NotFoundError else f"{type(exc).__name__} {text}".strip()
    return cls(None, None, f"{path}; {text}")


def is_url(path):
    """Whether ``path`` is a URL of a filesystem other than the local one (``file://`` is local)."""
    head, sep, _ = path.partition("://")
    return bool(sep) and head != "file" and "/" not in head


def local_path(path):
    """``path`` without a ``file://`` scheme."""
    return path[len("file://"):] if path.startswith("file://") else path


@contextlib.contextmanager
def translated(path):
    """Raise what the block raises as TF's error class naming ``path``."""
    try:
        yield
    except errors.OpError:
        raise
    except OSError as exc:
        raise (os_error(exc, path) if exc.errno in _OS_ERRORS else remote_error(exc, path)) from exc


class LocalFileSystem:
    """The local disk through ``os`` and ``open``."""

    def open(self, path, mode):
        with translated(path):
            return open(local_path(path), mode)

    def exists(self, path):
        return os.path.exists(local_path(path))

    def isdir(self, path):
        return os.path.isdir(local_path(path))

    def isfile(self, path):
        return os.path.isfile(local_path(path))

    def listdir(self, path):
        with translated(path):
            return os.listdir(local_path(path))

    def glob(self, pattern):
        return sorted(_glob.glob(local_path(pattern)))

    def makedirs(self, path):
        with translated(path):
            os.makedirs(local_path(path), exist_ok=True)

    def mkdir(self, path):
        with translated(path):
            try:
                os.mkdir(local_path(path))
            except FileExistsError:
                if not os.path.isdir(local_path(path)):
                    raise

    def remove(self, path):
        with translated(path):
            os.remove(local_path(path))

    def rename(self, source, target):
        with translated(source):
            os.replace(local_path(source), local_path(target))

    def copy(self, source, target):
        with translated(source):
            shutil.copyfile(local_path(source), local_path(target))

    def rmtree(self, path):
        with translated(path):
            shutil.rmtree(local_path(path))

    def stat(self, path):
        """``(length, mtime_nsec, is_directory)``."""
        with translated(path):
            st = os.stat(local_path(path))
        return st.st_size, st.st_mtime_ns, os.path.isdir(local_path(path))

    def cat(self, path):
        with translated(path), open(local_path(path), "rb", buffering=0) as f:
            return f.readall()


class FsspecFileSystem:
    """A filesystem of fsspec (``fs``); paths are the URLs the user wrote."""

    def __init__(self, fs):
        self.fs = fs

    def _path(self, url):
        return self.fs._strip_protocol(url)

    def open(self, path, mode):
        if mode not in ("rb", "wb", "ab"):
            raise errors.UnimplementedError(
                None, None, f"{path}; mode '{mode}' is not supported on {self.fs.protocol}: use r, w or a")
        return self._call(path, "open", self._path(path), mode)

    def _call(self, path, method, *args, **kwargs):
        try:
            return getattr(self.fs, method)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - each library has its own exceptions
            raise remote_error(exc, path) from exc

    def _type(self, path):
        """``"file"``, ``"directory"`` or None when ``path`` does not exist; any other failure is raised
        (fsspec's own ``exists`` and ``isfile`` would hide missing credentials as a missing file)."""
        try:
            return self._call(path, "info", self._path(path)).get("type")
        except errors.NotFoundError:
            return None

    def exists(self, path):
        return self._type(path) is not None

    def isdir(self, path):
        return self._type(path) == "directory"

    def isfile(self, path):
        return self._type(path) == "file"

    def listdir(self, path):
        if not self.isdir(path):
            raise os_error(FileNotFoundError(errno.ENOENT, "No such file or directory"), path)
        entries = self._call(path, "ls", self._path(path), detail=False)
        return [entry.rstrip("/").rsplit("/", 1)[-1] for entry in entries]

    def glob(self, pattern):
        return sorted(self.fs.unstrip_protocol(p) for p in self._call(pattern, "glob", self._path(pattern)))

    def makedirs(self, path):
        self._call(path, "makedirs", self._path(path), exist_ok=True)

    def mkdir(self, path):
        if not self.isdir(path):
            self._call(path, "mkdir", self._path(path), create_parents=False)

    def remove(self, path):
        if self.isdir(path):
            raise os_error(IsADirectoryError(errno.EISDIR, "Is a directory"), path)
        self._call(path, "rm_file", self._path(path))

    def rename(self, source, target):
        self._call(source, "mv", self._path(source), self._path(target))

    def copy(self, source, target):
        self._call(source, "copy", self._path(source), self._path(target))

    def rmtree(self, path):
        self._call(path, "rm", self._path(path), recursive=True)

    def stat(self, path):
        """``(length, mtime_nsec, is_directory)``."""
        info = self._call(path, "info", self._path(path))
        return int(info.get("size") or 0), _mtime_nsec(info), info.get("type") == "directory"

    def cat(self, path):
        return self._call(path, "cat_file", self._path(path))

    def pipe(self, path, data):
        """Write ``data`` as the whole of ``path`` in one put (an object appears whole or not at all)."""
        self._call(path, "pipe_file", self._path(path), bytes(data))

    def read_range(self, path, offset, size):
        """``size`` bytes of ``path`` from ``offset`` (fewer at the end); safe from several threads."""
        return self._call(path, "cat_file", self._path(path), start=offset, end=offset + size)


def _mtime_nsec(info):
    for key in ("mtime", "LastModified", "updated", "created", "last_modified"):
        value = info.get(key)
        if value is None:
            continue
        import datetime

        if isinstance(value, str):
            value = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        if isinstance(value, datetime.datetime):
            value = value.timestamp()
        return int(float(value) * 1e9)
    return 0


LOCAL = LocalFileSystem()


def resolve(path):
    """The filesystem holding ``path`` (a str or path-like): :data:`LOCAL`, or fsspec's for a URL.

    Raises
    ------
    UnimplementedError
        No filesystem for the URL's scheme (fsspec, or the package it needs, is not installed).
    """
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not is_url(path):
        return LOCAL
    scheme = path.partition("://")[0]
    return FsspecFileSystem(_fsspec_filesystem(scheme, path))  # fsspec keeps one per configuration


def _fsspec_filesystem(scheme, path):
    extra = _EXTRAS.get(scheme)
    hint = f"pip install numflow[{extra}]" if extra else "install an fsspec implementation for it"
    try:
        import fsspec
    except ImportError:
        raise errors.UnimplementedError(
            None, None, f"File system scheme '{scheme}' not implemented (file: '{path}'): URLs need the fsspec "
            f"package ({hint})") from None
    try:
        return fsspec.filesystem(scheme)
    except (ImportError, ValueError) as exc:
        raise errors.UnimplementedError(
            None, None, f"File system scheme '{scheme}' not implemented (file: '{path}'): {exc} ({hint})") from None

