"""Variable handles: the one way a kernel reaches a variable.

A variable's op (``VariableV2``) outputs its handle, from ``ctx.resources.variable(name, device)``;
the ops that take the variable by reference (Assign, ScatterAdd, ApplyAdam...) receive the handle,
and the plan gives every other op a snapshot of the value (``read()``). A kernel uses the methods
below and nothing else: not the lock, not the buffer, not how sharing is tracked.

``numflow.runtime.resources.LocalVariable`` is the handle of a variable held in this process. A
variable held elsewhere (a parameter server's, in another process) is another implementation of
the same methods, and so is the null device's (``numflow.devices.null``).

The rules every implementation keeps
------------------------------------
1. **Reads are snapshots.** ``read()`` returns an array that keeps the value it had when it was
   read, whatever updates come after; it is read-only. It may share memory with the variable
   (a host variable's snapshot is a view, no copy): the handle then tracks the snapshot, and any
   view of it, for as long as one is alive.
2. **Updates are atomic and copy on write.** ``update`` and ``assign`` run under the variable's
   lock (several variables' locks, for ``update(..., slots=...)``, taken in one fixed order, so two
   updates of overlapping variables never deadlock). The buffer an update writes is the
   variable's own when no snapshot of it is alive, else a copy that becomes the variable's value
   (the snapshots keep the old one). Whether a snapshot is alive is the handle's business alone:
   it does not depend on who else holds a Python reference to anything.
3. **Buffers do not escape.** The buffers an update's ``fn`` receives are valid only while it
   runs; ``fn`` must not keep them or return views of them.
4. **Errors are plain.** A handle raises the exceptions of ``numflow_kernels.errors`` (an
   uninitialized variable: ``uninitialized_error()``), which the runtime maps to TensorFlow's.
"""

from numflow_kernels.errors import FailedPrecondition

__all__ = ["VariableHandle"]


class VariableHandle:
    """The interface of a variable's handle; see the module docstring for its rules.

    An abstract base: subclasses implement every method. (It is not an ``abc.ABC``: the runtime
    asks ``isinstance(x, VariableHandle)`` of every input that may be a variable, and ABC's check
    costs three times a plain class's.)

    Attributes
    ----------
    name : str
        The variable's name, for messages.
    device : Device or None
        The device whose memory holds the value (None: the host).
    """

    __slots__ = ()

    @property
    def initialized(self):
        """Whether the variable has a value."""
        raise NotImplementedError

    def read(self, copy=False):
        """A read-only snapshot of the value (rule 1); ``uninitialized_error()`` when there is none.

        ``copy=True``: a new writable host array of the value instead, the caller's own (a fetch).
        """
        raise NotImplementedError

    def update(self, fn, *args, slots=(), host=False):
        """``fn(buffer, *slot_buffers, *args)`` under the locks of this variable and of ``slots``,
        with each variable's writable buffer (rule 2); returns what ``fn`` returns.

        ``slots``: other variables updated together with this one (an optimizer's accumulators).
        ``host``: give ``fn`` host numpy buffers, copying a value held in a device's memory out and
        back in. Raises ``uninitialized_error()`` of the first uninitialized variable, before
        ``fn`` runs.
        """
        raise NotImplementedError

    def assign(self, value, *, donate=False, write=None, check=None):
        """Make ``value`` the variable's value; return the buffer given up when nothing else can see
        it (for the caller to reuse), else None.

        ``check(shape)``, when given, runs first under the lock with the current value's shape
        (None when uninitialized), and may raise. When the current buffer has ``value``'s shape, no
        snapshot of it is alive and ``write`` is given, ``write(buffer, value)`` copies ``value``
        into it. Otherwise the variable takes ``value`` itself when ``donate`` is true (the caller
        promises that nothing else will use it; a read-only or strided host array is copied all the
        same), or a copy of it.
        """
        raise NotImplementedError

    def uninitialized_error(self):
        """The error of using this variable before it has a value, in TensorFlow's words."""
        return FailedPrecondition(f"Attempting to use uninitialized value {self.name}")
