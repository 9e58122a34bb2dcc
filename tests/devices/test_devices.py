"""Device types are found by rule: one module of ``numflow.devices`` each, the host's first."""

import pkgutil

import numflow.devices as devices
from numflow.devices.base import Device


def test_every_device_module_holds_one_device_type_and_the_cpu_comes_first():
    modules = {m.name for m in pkgutil.iter_modules(devices.__path__)} - {"base"}
    classes = devices.device_classes()
    assert list(classes)[0] == "CPU"
    assert {"CPU", "GPU", "NULL"} <= set(classes) and len(classes) == len(modules)
    for device_type, cls in classes.items():
        assert issubclass(cls, Device) and cls.device_type == device_type


def test_a_task_has_its_cpu_and_as_many_null_devices_as_asked():
    plain = devices.local_devices("worker", 1)
    assert plain[0].name == "/job:worker/replica:0/task:1/device:CPU:0"
    assert not any(d.device_type == "NULL" for d in plain)
    asked = devices.local_devices("worker", 1, {"NULL": 2, "CPU": 0})
    assert [d.name for d in asked if d.device_type in ("CPU", "NULL")] == [
        "/job:worker/replica:0/task:1/device:CPU:0", "/job:worker/replica:0/task:1/device:NULL:0",
        "/job:worker/replica:0/task:1/device:NULL:1"]


def test_device_count_limits_the_gpus_as_in_tensorflow():
    gpus = devices.device_classes()["GPU"].count()
    assert sum(d.device_type == "GPU" for d in devices.local_devices()) == gpus
    assert not any(d.device_type == "GPU" for d in devices.local_devices(device_count={"GPU": 0}))
