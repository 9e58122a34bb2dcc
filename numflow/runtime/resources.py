"""Resources: each variable's buffer, its initialized flag and its lock, kept outside any one run.

A local ``Session()`` owns a container; a ``Server`` owns one per task, shared by every session on
its target. Reads copy under the lock, updates write under it, so no reader sees a half-written
buffer and no concurrent update is lost.
"""

import threading

from numflow.framework import errors


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
        """A snapshot of the value, copied under the lock; FailedPreconditionError when uninitialized."""
        with self.lock:
            value = self.value
            if value is None:
                raise self.uninitialized_error()
            return value.copy() if self.device is None or self.device.is_host else self.device.copy(value)

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

    def clear(self):
        with self._lock:
            self._vars.clear()
            self._other.clear()
