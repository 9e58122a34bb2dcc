"""Resources: each variable's buffer, its initialized flag and its lock, kept outside any one run.

A local ``Session()`` owns a container; a ``Server`` owns one per task, shared by every session on
its target. Updates write under the lock, so no concurrent update is lost.

Reads are snapshots without a copy: a read of a host variable is a read-only view of its buffer,
taken under the lock. An update that finds a snapshot (or a view of one) still alive writes into a
copy instead, which becomes the value (copy on write); with none alive, it writes in place. Whether
one is alive is the buffer's reference count: only the state itself refers to an unread buffer.
"""

import sys
import threading

import numpy as np

from numflow.framework import errors


def _references(array):
    return sys.getrefcount(array)


class _Holder:
    __slots__ = ("value",)


def _references_when_held_alone():
    """What ``_references(state.value)`` counts for a buffer that only ``state`` refers to (the count
    includes the call's own references, which differ between Python versions)."""
    holder = _Holder()
    holder.value = np.empty(0)
    return _references(holder.value)


_HELD_ALONE = _references_when_held_alone()


class VariableState:
    """One variable's value in one container."""

    __slots__ = ("name", "value", "lock", "device")

    def __init__(self, name, device=None):
        self.name = name
        self.value = None
        self.lock = threading.Lock()
        self.device = device

    @property
    def initialized(self):
        return self.value is not None

    def read(self):
        """A snapshot of the value; FailedPreconditionError when uninitialized.

        On the host, a read-only view that later updates leave alone (see ``writable``); on a device,
        a copy.
        """
        with self.lock:
            value = self.value
            if value is None:
                raise self.uninitialized_error()
            if self.device is not None and not self.device.is_host:
                return self.device.copy(value)
            snapshot = value.view()
            snapshot.flags.writeable = False
            return snapshot

    def in_use(self):
        """Whether something besides this state refers to the buffer (a snapshot, a view of one), or
        the buffer is itself a view of another's memory; call with the lock held."""
        return _references(self.value) > _HELD_ALONE or getattr(self.value, "base", None) is not None

    def writable(self):
        """The buffer to update in place, a copy of it when it is in use; call with the lock held."""
        if self.in_use():
            value = self.value
            self.value = value.copy() if self.device is None or self.device.is_host else self.device.copy(value)
        return self.value

    def uninitialized_error(self):
        return errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {self.name}")


class ResourceContainer:
    """The variables of one session, or of one server task shared by its sessions."""

    def __init__(self, name="localhost"):
        self.name = name
        self._vars = {}
        self._other = {}
        self._lock = threading.Lock()

    def variable(self, name, device=None):
        """The state of variable ``name``, created (uninitialized) on first use."""
        state = self._vars.get(name)
        if state is None:
            with self._lock:
                state = self._vars.get(name)
                if state is None:
                    state = self._vars[name] = VariableState(name, device)
        return state

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
