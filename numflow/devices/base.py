"""The interface every device module implements: allocate, copy in and out, synchronize, find kernels."""

from numflow_kernels import registry


class Device:
    """One device of one task, e.g. ``/job:localhost/replica:0/task:0/device:CPU:0``.

    Subclasses set ``device_type`` and implement the memory methods for their kind of memory.
    """

    device_type = None
    is_host = False

    def __init__(self, index=0, job="localhost", replica=0, task=0):
        self.index = index
        self.job = job
        self.replica = replica
        self.task = task
        self.name = f"/job:{job}/replica:{replica}/task:{task}/device:{self.device_type}:{index}"

    def kernel(self, op_type):
        """The kernel computing ``op_type`` here, or None."""
        return registry.lookup(op_type, self.device_type)

    def alloc(self, shape, dtype):
        raise NotImplementedError

    def copy_in(self, host_array):
        """``host_array`` in this device's memory."""
        raise NotImplementedError

    def copy_out(self, array):
        """A host numpy array holding ``array``'s value."""
        raise NotImplementedError

    def copy(self, array):
        """A new array in this device's memory holding ``array``'s value."""
        raise NotImplementedError

    def synchronize(self):
        """Wait for the work queued on this device."""

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"
