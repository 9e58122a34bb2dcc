"""The host CPU: memory is numpy arrays, kernels are Numba CPU kernels or the numpy reference."""

import numpy as np

from numflow.devices.base import Device


class CPUDevice(Device):
    device_type = "CPU"
    kernel_modules = ("numflow_kernels.cpu", "numflow_kernels.reference")
    is_host = True

    def alloc(self, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def copy_in(self, array):
        return array.copy_to_host() if hasattr(array, "copy_to_host") else np.asarray(array)

    def copy_out(self, array):
        return self.copy_in(array)

    def copy(self, array):
        return np.array(array, order="C", copy=True)


DEVICE = CPUDevice
