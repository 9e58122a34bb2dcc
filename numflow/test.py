"""``tf.test``: helpers for tests and examples."""

from numflow.devices.cuda import gpu_count
from numflow.train.server import create_local_cluster  # noqa: F401


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Whether numba.cuda sees a GPU (the simulator's counts when NUMBA_ENABLE_CUDASIM=1)."""
    return gpu_count() > 0


def is_built_with_cuda():
    return True


def gpu_device_name():
    return "/device:GPU:0" if gpu_count() else ""
