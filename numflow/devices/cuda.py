"""CUDA GPUs through ``numba.cuda`` (and Numba's CUDA simulator when NUMBA_ENABLE_CUDASIM=1)."""

import functools
import os
import sys

import numpy as np

from numflow.devices.base import Device


class CUDADevice(Device):
    """GPU:i. Memory is ``numba.cuda`` device arrays; kernels are ``numba.cuda.jit`` kernels."""

    device_type = "GPU"
    kernel_modules = ("numflow_kernels.cuda.ops",)

    @classmethod
    def count(cls):
        return gpu_count()

    def __init__(self, index=0, job="localhost", replica=0, task=0):
        super().__init__(index, job, replica, task)
        self._context = None

    def _select(self):
        from numba import cuda

        cuda.select_device(self.index)
        return cuda

    def alloc(self, shape, dtype):
        return self._select().device_array(shape, dtype=dtype)

    def copy_in(self, host_array):
        if is_device_array(host_array):
            return host_array
        array = np.asarray(host_array)
        if not array.flags.c_contiguous:  # (np.ascontiguousarray would also turn a scalar into shape [1])
            array = np.ascontiguousarray(array)
        return self._select().to_device(array)

    def copy_out(self, array):
        return array.copy_to_host() if is_device_array(array) else np.asarray(array)

    def copy(self, array):
        """A new device array holding ``array``'s value."""
        out = self._select().device_array(array.shape, dtype=array.dtype)
        out.copy_to_device(array)
        return out

    def synchronize(self):
        self._select().synchronize()


def is_device_array(x):
    """Whether ``x`` lives in GPU memory (a numba device array, or the simulator's stand-in)."""
    return hasattr(x, "copy_to_host")


def _no_nvidia_driver():
    """True when this Linux machine has no NVIDIA driver (nor WSL's GPU bridge): then there is no
    GPU to find, and importing numba.cuda (a third of a second) to learn it is skipped."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "") not in ("", "0") or not sys.platform.startswith("linux"):
        return False
    return not any(os.path.exists(p) for p in ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/dxg"))


@functools.cache
def gpu_count():
    """How many GPUs numba.cuda sees (the simulator's one when NUMBA_ENABLE_CUDASIM=1), 0 without CUDA."""
    if _no_nvidia_driver():
        return 0
    try:
        from numba import cuda

        if not cuda.is_available():
            return 0
        return len(cuda.gpus)
    except Exception:  # noqa: BLE001 - a broken CUDA install means no GPU, not a crash at import
        return 0


DEVICE = CUDADevice
