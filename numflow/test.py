"""``tf.test``: the test harness (``TestCase``, ``main``, ``get_temp_dir``, ``compute_gradient``,
``compute_gradient_error``; loaded when first used) and what tests ask of the machine."""

from numflow.devices.cuda import gpu_count
from numflow.train.server import create_local_cluster  # noqa: F401


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Whether numba.cuda sees a GPU (the simulator's counts when NUMBA_ENABLE_CUDASIM=1)."""
    return gpu_count() > 0


def is_built_with_cuda():
    return True


def is_built_with_gpu_support():
    return True


def gpu_device_name():
    """``"/device:GPU:0"`` when a GPU is there, else ``""``."""
    return "/device:GPU:0" if gpu_count() else ""


def __getattr__(name):
    if name in ("TestCase", "main", "get_temp_dir"):
        from numflow.framework import test_util

        return getattr(test_util, name)
    if name in ("compute_gradient", "compute_gradient_error"):
        from numflow.framework import gradient_checker

        return getattr(gradient_checker, name)
    if name == "mock":
        from unittest import mock

        return mock
    raise AttributeError(f"module 'numflow.test' has no attribute {name!r}")
