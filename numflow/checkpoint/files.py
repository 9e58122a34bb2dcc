"""Checkpoint file names, temporary files, all-or-nothing renames, and OSErrors as TF's error classes."""

import errno
import os
import secrets

from numflow.framework import errors


def data_filename(prefix, shard_id, num_shards):
    """``P.data-SSSSS-of-NNNNN``.

    >>> data_filename("model-4", 0, 1)
    'model-4.data-00000-of-00001'
    """
    return f"{prefix}.data-{shard_id:05d}-of-{num_shards:05d}"


def index_filename(prefix):
    """``P.index``."""
    return f"{prefix}.index"


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


def os_error(exc, path):
    """The OpError TF raises for an OSError on ``path``: its class by errno, text ``path; strerror``.

    >>> str(os_error(FileNotFoundError(2, "No such file or directory"), "m.index"))
    'm.index; No such file or directory'
    """
    cls = _OS_ERRORS.get(exc.errno, errors.UnknownError)
    return cls(None, None, f"{path}; {exc.strerror or exc}")


def temp_path(path, tag="tempstate"):
    """A fresh sibling name for ``path``, as TF names its temporaries (``P.index.tempstate<random>``)."""
    return f"{path}.{tag}{secrets.randbits(64)}"


def create_exclusive(path):
    """Open a new file for writing; never truncates or follows an existing one."""
    try:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    except OSError as exc:
        raise os_error(exc, path) from exc


def write_all(fd, data, path):
    """Write all of ``data`` (any C-contiguous buffer) at the file position of ``fd``."""
    view = memoryview(data).cast("B")
    try:
        while view.nbytes:
            written = os.write(fd, view)
            view = view[written:]
    except OSError as exc:
        raise os_error(exc, path) from exc


def unlink_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


def write_atomically(path, data):
    """Replace ``path`` by a file holding ``data`` (bytes): written to a temporary, then renamed."""
    temp = temp_path(path, "tmp")
    fd = create_exclusive(temp)

    def write():
        try:
            write_all(fd, data, temp)
        finally:
            os.close(fd)

    replace_with(temp, path, write)


def replace_with(temp, path, write):
    """Call ``write()`` (which fills ``temp``), then rename ``temp`` over ``path``; on any failure
    remove ``temp`` and leave ``path`` as it was (an OSError names ``path``)."""
    try:
        write()
        os.replace(temp, path)
    except OSError as exc:
        unlink_quietly(temp)
        raise os_error(exc, path) from exc
    except BaseException:
        unlink_quietly(temp)
        raise


def commit(renames):
    """Rename each (temporary, final) pair in order, all or nothing.

    The last pair is the one that makes the new files visible (a checkpoint's index). Every earlier
    final name that already exists keeps a backup (a hard link) until the last rename is done; if
    any rename fails, the files renamed so far are put back, or removed where they are new, and the
    error is raised as an OpError.
    """
    done = []
    final = renames[0][1] if renames else ""
    try:
        for i, (temp, final) in enumerate(renames):
            last = i == len(renames) - 1
            backup, linked = None, False
            if not last and os.path.lexists(final):
                backup = temp_path(final, "backup")
                try:
                    os.link(final, backup)
                    linked = True
                except OSError:
                    os.replace(final, backup)
            try:
                os.replace(temp, final)
            except BaseException:
                if linked:
                    unlink_quietly(backup)  # renaming a hard link onto its twin would do nothing
                elif backup:
                    os.replace(backup, final)
                raise
            if not last:
                done.append((final, backup))
    except BaseException as exc:
        _roll_back(done)
        if isinstance(exc, OSError):
            raise os_error(exc, final) from exc
        raise
    for _, backup in done:
        if backup:
            unlink_quietly(backup)


def _roll_back(done):
    for final, backup in reversed(done):
        if backup:
            try:
                os.replace(backup, final)
            except OSError:
                unlink_quietly(backup)
        else:
            unlink_quietly(final)
