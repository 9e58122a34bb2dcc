"""Checkpoint file names, temporary files synced to the disk, all-or-nothing renames, and the
same steps for a URL (fsspec), where every object is written once, whole, under its own name."""

import os
import secrets
import threading

from numflow.io.filesystem import is_url, os_error, resolve

__all__ = ["data_filename", "index_filename", "os_error", "temp_path", "create_exclusive", "write_all", "sync",
           "start_writeback", "sync_directory", "unlink_quietly", "remove_soon", "wait_for_removals",
           "write_atomically", "replace_with", "commit", "is_url", "resolve"]

# Unlinking a file frees its blocks and its cached pages: about 0.2 s a GiB on ext4. A replaced file
# from this size on is unlinked by a background thread, off the path of the save that replaced it.
_REMOVE_IN_BACKGROUND = 16 << 20


def data_filename(prefix, shard_id, num_shards):
    """``P.data-SSSSS-of-NNNNN``.

    >>> data_filename("model-4", 0, 1)
    'model-4.data-00000-of-00001'
    """
    return f"{prefix}.data-{shard_id:05d}-of-{num_shards:05d}"


def index_filename(prefix):
    """``P.index``."""
    return f"{prefix}.index"


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


def sync(fd, path):
    """Wait until the bytes written to ``fd`` are on the disk."""
    try:
        os.fsync(fd)
    except OSError as exc:
        raise os_error(exc, path) from exc


_SYNC_FILE_RANGE_WRITE = 2  # Linux's flag: start writing the dirty pages of the range, wait for nothing
_sync_file_range = []  # [libc's sync_file_range, or None where there is none], looked up on first use


def _find_sync_file_range():
    try:
        import ctypes

        function = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError, ImportError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    return function


def start_writeback(fd, offset, size):
    """Have the kernel start writing ``size`` bytes of ``fd`` from ``offset`` to the disk, without waiting.

    Writing a large file and then syncing it does the copying and the disk's work one after the other;
    started piece by piece, the disk writes while the next pieces are copied, and the final
    :func:`sync` has little left to wait for. Advice only: where Linux's ``sync_file_range`` is
    missing or fails, nothing happens.
    """
    if not _sync_file_range:
        _sync_file_range.append(_find_sync_file_range())
    function = _sync_file_range[0]
    if function is not None:
        function(fd, offset, size, _SYNC_FILE_RANGE_WRITE)


def sync_directory(directory):
    """Make the renames done in ``directory`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def unlink_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass


class _Remover:
    """One thread at a time unlinking the paths handed to it; the interpreter waits for it at exit."""

    def __init__(self):
        self._lock = threading.Lock()
        self._paths = []
        self._thread = None

    def add(self, path):
        with self._lock:
            self._paths.append(path)
            if self._thread is not None and self._thread.is_alive():
                return  # it takes the paths added before it stops (it stops under the lock)
            thread = threading.Thread(target=self._run, name="numflow-remove")
            try:
                thread.start()
            except RuntimeError:  # the interpreter is shutting down: no new threads
                self._paths.remove(path)
                unlink_quietly(path)
                return
            self._thread = thread

    def _run(self):
        while True:
            with self._lock:
                if not self._paths:
                    self._thread = None
                    return
                path = self._paths.pop()
            unlink_quietly(path)

    def wait(self):
        while True:
            with self._lock:
                thread = self._thread
            if thread is None or not thread.is_alive():
                return
            thread.join()


_remover = _Remover()


def remove_soon(path, size):
    """Unlink ``path`` (of ``size`` bytes): now if it is small, else on a background thread."""
    if size < _REMOVE_IN_BACKGROUND:
        unlink_quietly(path)
    else:
        _remover.add(path)


def wait_for_removals():
    """Wait until the files handed to :func:`remove_soon` are gone."""
    _remover.wait()


def write_atomically(path, data):
    """Replace ``path`` by a file holding ``data`` (bytes): a synced temporary renamed over it; for a URL,
    one put of the whole object."""
    if is_url(path):
        resolve(path).pipe(path, data)
        return
    temp = temp_path(path, "tmp")
    fd = create_exclusive(temp)

    def write():
        try:
            write_all(fd, data, temp)
            sync(fd, temp)
        finally:
            os.close(fd)

    replace_with(temp, path, write)
    sync_directory(os.path.dirname(path))


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
    error is raised as an OpError. Large backups are unlinked in the background (:func:`remove_soon`).
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
                    size = os.lstat(final).st_size
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
                done.append((final, backup, size if backup else 0))
    except BaseException as exc:
        _roll_back(done)
        if isinstance(exc, OSError):
            raise os_error(exc, final) from exc
        raise
    for _, backup, size in done:
        if backup:
            remove_soon(backup, size)


def _roll_back(done):
    for final, backup, _ in reversed(done):
        if backup:
            try:
                os.replace(backup, final)
            except OSError:
                unlink_quietly(backup)
        else:
            unlink_quietly(final)
