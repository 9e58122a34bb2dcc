"""Devices: one module per device type, each with the interface of ``base.Device``."""

import functools

from numflow.devices.cpu import CPUDevice


@functools.cache
def _gpu_count():
    from numflow.devices.cuda import gpu_count

    return gpu_count()


def local_devices(job="localhost", task=0):
    """The devices of one task on this machine: CPU:0 always, then GPU:i for each CUDA GPU."""
    from numflow.devices.cuda import CUDADevice

    return [CPUDevice(0, job=job, task=task)] + [CUDADevice(i, job=job, task=task) for i in range(_gpu_count())]


def list_local_devices():
    """The names of this process's devices (``/job:localhost/replica:0/task:0/device:CPU:0``, ...)."""
    return [d.name for d in local_devices()]
