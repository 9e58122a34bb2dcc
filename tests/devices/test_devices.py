"""Device types are found by rule: one module of ``numflow.devices`` each, the host's first; ``tf.config``
lists them and hides some."""

import pkgutil

import pytest

import numflow as tf
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


@pytest.fixture
def every_device_visible():
    yield
    devices._visible.clear()


def test_devices_set_invisible_are_left_out_of_sessions_made_afterwards(every_device_visible):
    devices.set_visible("NULL", [1])
    asked = devices.local_devices(device_count={"NULL": 3})
    assert [d.name.rsplit("/", 1)[1] for d in asked if d.device_type != "GPU"] == ["device:CPU:0", "device:NULL:1"]


def test_tf_config_lists_this_machines_devices_as_tensorflow_names_them():
    gpus = devices.device_classes()["GPU"].count()
    assert tf.config.list_physical_devices() == [
        ("/physical_device:CPU:0", "CPU"), *[(f"/physical_device:GPU:{i}", "GPU") for i in range(gpus)]]
    assert tf.config.experimental.list_physical_devices("CPU")[0].name == "/physical_device:CPU:0"
    assert tf.config.list_logical_devices("CPU") == [tf.config.LogicalDevice("/device:CPU:0", "CPU")]
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU and non-Pluggable devices"):
        tf.config.experimental.set_memory_growth(cpu, True)


@pytest.mark.cuda
def test_tf_config_grows_gpu_memory_and_hides_the_gpu_from_later_sessions(every_device_visible):
    (gpu,) = tf.config.list_physical_devices("GPU")[:1] or pytest.skip("no CUDA device")
    tf.config.experimental.set_memory_growth(gpu, True)
    assert tf.config.experimental.get_memory_growth(gpu) is True
    tf.config.set_visible_devices(tf.config.list_physical_devices("CPU"))  # every listed type: the GPU hidden
    assert tf.config.get_visible_devices() == tf.config.list_physical_devices("CPU")
    with tf.Graph().as_default(), tf.Session() as sess:
        assert [d.device_type for d in sess.list_devices()] == ["CPU"]
        with tf.device("/gpu:0"):
            doubled = tf.constant([1.0, 2.0]) * 2.0
        assert sess.run(doubled).tolist() == [2.0, 4.0]  # placed softly on the CPU
