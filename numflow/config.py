"""``tf.config``: this process's devices in TensorFlow 2's terms, and the runtime settings it takes.

Scripts written for TensorFlow 2's ``compat.v1`` open with these calls (list the GPUs, let their
memory grow, hide some). The devices listed are those a session gets (``numflow.devices``), and
``set_visible_devices`` hides devices from the sessions made afterwards. The thread, placement and
JIT settings are kept and read back as TensorFlow keeps them: as there, a ``Session`` takes its
own from its ``ConfigProto``.
"""

import collections
import types

from numflow import devices as _devices

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_settings = {"intra_op": 0, "inter_op": 0, "soft_placement": True, "jit": False}
_memory_growth = {}


def list_physical_devices(device_type=None):
    """The devices of this machine: ``PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')``..."""
    found = []
    for kind, cls in _devices.device_classes().items():
        if cls.default_count == 0 or device_type not in (None, kind):
            continue  # a device type a session gets only when it asks (numflow's null device)
        number = 1 if kind == _devices.HOST else cls.count()
        found += [PhysicalDevice(f"/physical_device:{kind}:{i}", kind) for i in range(number)]
    return found


def _index(device):
    return int(device.name.rsplit(":", 1)[1])


def get_visible_devices(device_type=None):
    """The physical devices sessions may use (all, unless :func:`set_visible_devices` hid some)."""
    return [d for d in list_physical_devices(device_type) if _devices.is_visible(d.device_type, _index(d))]


def set_visible_devices(devices, device_type=None):
    """Let sessions made from now on use only ``devices`` (of ``device_type``, or of every type listed
    here but the host's, which a session always has). ``set_visible_devices([], "GPU")`` runs on the CPU."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    kinds = {device_type} if device_type else {kind for _, kind in list_physical_devices()}
    for kind in kinds - {_devices.HOST}:
        _devices.set_visible(kind, sorted(_index(d) for d in devices if d.device_type == kind))


def list_logical_devices(device_type=None):
    """The visible devices under the names ops are placed with: ``LogicalDevice(name='/device:CPU:0', ...)``."""
    return [LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
            for d in get_visible_devices(device_type)]


def _check_gpu(device, verb):
    if device.device_type != "GPU":
        raise ValueError(f"Cannot {verb} memory growth on non-GPU and non-Pluggable devices")


def set_memory_growth(device, enable):
    """Kept for ``get_memory_growth``: numflow takes GPU memory as arrays need it, growing anyway."""
    _check_gpu(device, "set")
    _memory_growth[device.name] = bool(enable)


def get_memory_growth(device):
    """What :func:`set_memory_growth` set for ``device`` (False before)."""
    _check_gpu(device, "get")
    return _memory_growth.get(device.name, False)


def _setting(key, doc):
    def get():
        return _settings[key]

    def set_(value):
        _settings[key] = value

    get.__doc__ = f"{doc} (as last set; TensorFlow's default until then)."
    set_.__doc__ = f"Keep {doc}; a Session takes its own from its ConfigProto."
    return get, set_


get_soft_device_placement, set_soft_device_placement = _setting("soft_placement", "whether soft placement is on")
threading = types.SimpleNamespace()
(threading.get_intra_op_parallelism_threads,
 threading.set_intra_op_parallelism_threads) = _setting("intra_op", "the threads inside one op")
(threading.get_inter_op_parallelism_threads,
 threading.set_inter_op_parallelism_threads) = _setting("inter_op", "the threads running ops at once")
optimizer = types.SimpleNamespace()
optimizer.get_jit, optimizer.set_jit = _setting("jit", "whether XLA's JIT was asked for (numflow compiles with Numba)")


def functions_run_eagerly():
    """False: numflow runs graphs in sessions."""
    return False


experimental = types.SimpleNamespace(
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    set_memory_growth=set_memory_growth, get_memory_growth=get_memory_growth)
