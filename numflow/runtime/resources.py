"""Resources: each variable's value, its lock and its snapshots, kept outside any one run.

A local ``Session()`` owns a container; a ``Server`` owns one per task, shared by every session on
its target. A variable in a container is a :class:`LocalVariable`, the in-process implementation of
the handle kernels use (``numflow_kernels.handle.VariableHandle``, whose docstring has the rules).
"""

import itertools
import threading
import weakref

import numpy as np

from numflow_kernels.handle import VariableHandle

_LOCK_ORDER = itertools.count()  # update(slots=...) takes locks in creation order: no deadlock


class LocalVariable(VariableHandle):
    """One variable's value in one container of this process.

    How snapshots are tracked. On the host, the snapshots of one buffer are views of one *shared
    root*: an array over the buffer's memory made through a ``memoryview``, so that numpy, which
    points a view of a view at the first array that owns its memory, stops at the root instead.
    Every snapshot, and every view of one (a reshape, a slice, a view made inside a kernel), keeps
    the root alive through its ``base``; the handle keeps only a weak reference to it. So the root
    dies exactly when the last array that sees the buffer through a snapshot does. While it lives,
    an update writes into a copy of the buffer, which becomes the value (the snapshots keep the old
    one); once it is gone, an update writes in place, and the next read makes a new root.

    The buffer a copy on write leaves to the snapshots is kept as the variable's *spare* once they
    are gone (its root dead): the next copy on write fills it instead of a new buffer, whose pages
    the kernel would have to fault in and zero while the update waits (for 1 GiB, seconds on a busy
    machine). A loop whose saves keep snapshots while it trains thus swaps two buffers per variable:
    the memory of the copy, which such a loop needs at every save anyway, stays with the variable.

    The buffer itself never leaves the handle, except to an update's ``fn`` while it runs under the
    lock. A value in a device's memory is read by copy, so it is never shared and always updated in
    place; so are strings (object arrays, which a memoryview cannot export).
    """

    __slots__ = ("name", "device", "_lock", "_value", "_root", "_export", "_on_host", "_rank", "_retired")

    def __init__(self, name, device=None):
        self.name = name
        self.device = device
        self._lock = threading.Lock()
        self._value = None
        self._root = None  # a weak reference to the shared root of _value's snapshots, or None
        self._export = None  # memoryview(_value), made by the first read of the value
        self._retired = None  # (weak reference to its snapshots' root, buffer) of the last copy on write
        self._on_host = device is None or device.is_host
        self._rank = next(_LOCK_ORDER)

    @property
    def initialized(self):
        return self._value is not None

    def read(self, copy=False):
        with self._lock:
            value = self._value
            if value is None:
                raise self.uninitialized_error()
            if copy:
                return np.array(value) if self._on_host else self.device.copy_out(value)
            if not self._on_host:
                return self.device.copy(value)
            root = None if self._root is None else self._root()
            if root is None:
                root = self._new_root(value)
                if root is None:  # strings
                    snapshot = value.copy()
                    snapshot.flags.writeable = False
                    return snapshot
            snapshot = root.view()
            snapshot.flags.writeable = False
            return snapshot

    def update(self, fn, *args, slots=(), host=False):
        if not slots and not host:
            with self._lock:
                if self._value is None:
                    raise self.uninitialized_error()
                return fn(self._writable(), *args)
        handles = (self, *slots)
        ordered = sorted(handles, key=_rank)
        held = []
        try:
            for handle in ordered:
                handle._lock.acquire()
                held.append(handle)
            for handle in handles:
                if handle._value is None:
                    raise handle.uninitialized_error()
            buffers = [h.device.copy_out(h._value) if host and not h._on_host else h._writable() for h in handles]
            result = fn(*buffers, *args)
            for handle, buffer in zip(handles, buffers):
                if host and not handle._on_host:
                    handle._set(handle.device.copy_in(buffer))
            return result
        finally:
            for handle in reversed(held):
                handle._lock.release()

    def assign(self, value, *, donate=False, write=None, check=None):
        with self._lock:
            current = self._value
            if check is not None:
                check(None if current is None else tuple(current.shape))
            shared = self._shared()
            if write is not None and not donate and not shared and current is not None and current.shape == value.shape:
                write(current, value)
                return None
            if donate and (not self._on_host or value.flags.writeable and value.flags.c_contiguous):
                self._set(value)
            elif self._on_host:
                self._set(np.array(value, order="C", copy=True))
            else:
                self._set(self.device.copy(value))
            return None if shared else current

    def _set(self, value):
        """Make ``value`` the buffer, with no snapshot of it yet; call with the lock held."""
        self._value = value
        self._root = None
        self._export = None

    def _new_root(self, value):
        """A new shared root of ``value``'s snapshots (None for strings); call with the lock held."""
        if value.dtype.hasobject:
            return None
        if self._export is None:
            self._export = memoryview(value)
        root = np.asarray(self._export)
        self._root = weakref.ref(root)
        return root

    def _shared(self):
        """Whether a snapshot of the value (or a view of one) is alive; call with the lock held."""
        return self._root is not None and self._root() is not None

    def _writable(self):
        """The buffer to update: the value, or a copy of it that becomes the value while a snapshot of
        it is alive; call with the lock held."""
        if self._root is not None:
            if self._root() is not None:
                value, root = self._value, self._root
                self._set(self._copy_into_spare(value))
                self._retired = (root, value)
            else:
                self._root = None
        return self._value

    def _copy_into_spare(self, value):
        """A copy of ``value`` in the buffer of the last copy on write when its snapshots are all gone
        and it fits, else in a new buffer; call with the lock held."""
        retired, self._retired = self._retired, None
        if retired is not None:
            root, spare = retired
            if root() is None and spare.shape == value.shape and spare.dtype == value.dtype:
                np.copyto(spare, value)
                return spare
        return value.copy()


def _rank(handle):
    return handle._rank


class ResourceContainer:
    """The variables of one session, or of one server task shared by its sessions."""

    def __init__(self, name="localhost"):
        self.name = name
        self._vars = {}
        self._other = {}
        self._lock = threading.Lock()

    def variable(self, name, device=None):
        """The handle of variable ``name``, created (uninitialized) on first use."""
        handle = self._vars.get(name)
        if handle is None:
            with self._lock:
                handle = self._vars.get(name)
                if handle is None:
                    handle = self._vars[name] = LocalVariable(name, device)
        return handle

    def get_or_create(self, key, make):
        """Any other per-container state (a random op's stream...), made by ``make()`` on first use."""
        state = self._other.get(key)
        if state is None:
            with self._lock:
                state = self._other.get(key)
                if state is None:
                    state = self._other[key] = make()
        return state

    def names(self):
        return list(self._vars)

    def cancel(self):
        """Cancel what waits on this container's resources (a queue's enqueues and dequeues): the
        session owning it is closing."""
        with self._lock:
            resources = list(self._other.values())
        for resource in resources:
            cancel = getattr(resource, "cancel", None)
            if cancel is not None:
                cancel()

    def clear(self):
        with self._lock:
            self._vars.clear()
            self._other.clear()
