"""The host CPU: memory is numpy arrays, kernels are Numba CPU kernels or the numpy reference."""

import numpy as np

from numflow.devices.base import Device


class CPUDevice(Device):
    device_type = "CPU"

    def alloc(self, shape, dtype):
        return np.empty(shape, dtype=dtype)

    def copy_in(self, host_array):
        return np.asarray(host_array)

    def copy_out(self, array):
        return np.asarray(array)
