"""Devices: one module per device type, found by rule.

Every module of this package but ``base`` holds one device type: a subclass of ``base.Device``,
named ``DEVICE`` at module level, with the memory methods and the names of the modules that
register its kernels (``numflow_kernels/``). ``cpu.py`` is the host, ``cuda.py`` the GPUs
(``numba.cuda``), ``null.py`` a device whose kernels do nothing. Adding a device type is adding a
module here and its kernels; nothing else names it.

A session on this machine gets the host CPU first, then, by device type, as many of each as the
machine has, at most ``ConfigProto.device_count[type]`` (TensorFlow's setting), or the type's
``default_count`` when the config does not say (the null device's is 0: a session asks for it).
"""

import functools
import importlib
import pkgutil

HOST = "CPU"
_visible = {}  # device type -> the indices sessions may use (``tf.config.set_visible_devices``); absent: all


@functools.cache
def device_classes():
    """The Device class of each device type, the host's first: ``{"CPU": CPUDevice, ...}``."""
    found = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            cls = importlib.import_module(f"{__name__}.{module.name}").DEVICE
            found[cls.device_type] = cls
    return {t: found[t] for t in sorted(found, key=lambda t: (t != HOST, t))}


def local_devices(job="localhost", task=0, device_count=None):
    """The devices of one task on this machine: CPU:0, then GPU:i for each CUDA GPU, and any other
    type's that ``device_count`` (type -> at most how many) asks for."""
    device_count = device_count or {}
    devices = []
    for device_type, cls in device_classes().items():
        wanted = device_count.get(device_type, cls.default_count)
        number = cls.count() if wanted is None else min(wanted, cls.count())
        if device_type == HOST:
            number = 1  # a task always has its CPU
        devices += [cls(i, job=job, task=task) for i in range(number) if is_visible(device_type, i)]
    return devices


def set_visible(device_type, indices):
    """Let sessions made from now on use only the devices ``indices`` of ``device_type``."""
    _visible[device_type] = frozenset(indices)


def is_visible(device_type, index):
    """Whether sessions may use device ``index`` of ``device_type``."""
    return device_type == HOST or index in _visible.get(device_type, (index,))


def list_local_devices():
    """The names of this process's devices (``/job:localhost/replica:0/task:0/device:CPU:0``, ...)."""
    return [d.name for d in local_devices()]
