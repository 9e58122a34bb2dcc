"""The interface every device module implements: allocate, copy in and out, synchronize, find kernels."""

from numflow_kernels import registry


class Device:
    """One device of one task, e.g. ``/job:localhost/replica:0/task:0/device:CPU:0``.

    A subclass, in a module of its own in ``numflow.devices`` (see the package's docstring), sets:

    - ``device_type``: the type a device spec names (``"CPU"``, ``"GPU"``);
    - ``kernel_modules``: the modules whose import registers its kernels under that type
      (``numflow_kernels.registry``), imported when a kernel is first looked up;
    - ``is_host``: its memory is the host's (numpy arrays); a host device runs the numpy
      reference kernel of any op type it has no kernel of its own for;
    - ``default_count``: how many it offers a session unless ``ConfigProto.device_count`` says
      (None: every one this machine has, ``count()``);

    and implements the memory methods for its kind of memory.
    """

    device_type = None
    kernel_modules = ()
    is_host = False
    default_count = None

    def __init__(self, index=0, job="localhost", replica=0, task=0):
        self.index = index
        self.job = job
        self.replica = replica
        self.task = task
        self.name = f"/job:{job}/replica:{replica}/task:{task}/device:{self.device_type}:{index}"

    @classmethod
    def count(cls):
        """How many devices of this type this machine has."""
        return 1

    def kernel(self, op_type):
        """The kernel computing ``op_type`` here, or None."""
        registry.load(self.kernel_modules)
        return registry.lookup(op_type, self.device_type, registry.REFERENCE if self.is_host else None)

    def calls_blas(self, op_type):
        """Whether ``kernel(op_type)`` calls BLAS or LAPACK (its registration says)."""
        return registry.calls_blas(op_type, self.device_type, registry.REFERENCE if self.is_host else None)

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
