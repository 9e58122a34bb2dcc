"""Kernel tests: CUDA kernels run on a GPU when there is one, else under Numba's CUDA simulator.

Numba picks real CUDA or the simulator once, when ``numba.cuda`` is first imported; this file
asks for the simulator before that happens unless ``NUMBA_ENABLE_CUDASIM`` is set or a CUDA
driver is installed. Tests marked ``cuda`` skip when neither is available.
"""

import ctypes
import os
import sys


def _cuda_driver_present():
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


if "NUMBA_ENABLE_CUDASIM" not in os.environ and "numba.cuda" not in sys.modules and not _cuda_driver_present():
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    from numba.core import config

    config.reload_config()
