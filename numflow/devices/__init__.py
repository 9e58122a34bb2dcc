"""Devices: one module per device type, each with the interface of ``base.Device``."""

from numflow.devices.cpu import CPUDevice


def local_devices(job="localhost", task=0):
    """The devices of one task on this machine: CPU:0 always."""
    return [CPUDevice(0, job=job, task=task)]
