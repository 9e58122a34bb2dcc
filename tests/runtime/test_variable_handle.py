"""The in-process variable handle: snapshots, copy on write, locks, and the handle interface."""

import threading

import numpy as np
import pytest

import numflow as tf
from numflow.devices.cpu import CPUDevice
from numflow.runtime.resources import LocalVariable, ResourceContainer
from numflow_kernels.errors import FailedPrecondition
from numflow_kernels.handle import VariableHandle


def _address(array):
    return array.__array_interface__["data"][0]


def _add(buffer, value):
    buffer += value


def _variable(value, name="v"):
    v = LocalVariable(name, CPUDevice())
    v.assign(np.asarray(value))
    return v


def _address_now(v):
    """Where ``v``'s buffer is (a snapshot taken and dropped at once)."""
    return _address(v.read())


def test_a_snapshot_is_read_only_and_shares_the_buffer():
    v = _variable(np.arange(4.0))
    first, second = v.read(), v.read()
    assert not first.flags.writeable
    assert _address(first) == _address(second)
    with pytest.raises(ValueError):
        first[0] = 7.0


def test_an_update_copies_while_a_snapshot_or_a_view_of_one_is_alive():
    v = _variable(np.arange(6.0))
    snapshot = v.read()
    view = snapshot.reshape(2, 3)[1:]  # a view of a view: it alone keeps the buffer shared
    address = _address(snapshot)
    del snapshot
    v.update(_add, 10.0)
    np.testing.assert_array_equal(view, [[3.0, 4.0, 5.0]])
    assert _address_now(v) != address
    del view
    address = _address_now(v)
    v.update(_add, 1.0)  # no snapshot alive now: in place
    assert _address_now(v) == address
    np.testing.assert_array_equal(v.read(), np.arange(6.0) + 11.0)


def test_a_copy_on_write_fills_the_buffer_the_last_one_left_once_its_snapshots_are_gone():
    v = _variable(np.arange(4.0))
    first = v.read()
    first_address = _address(first)
    v.update(_add, 10.0)  # copies: the first buffer stays with the snapshot
    second = v.read()
    second_address = _address(second)
    v.update(_add, 100.0)  # the first buffer is still seen: a new buffer, not it
    np.testing.assert_array_equal(first, np.arange(4.0))
    np.testing.assert_array_equal(second, np.arange(4.0) + 10.0)
    assert first_address not in (_address(second), _address_now(v))
    del first, second
    third = v.read()
    v.update(_add, 1000.0)  # the second buffer was the last one left, and nothing sees it now
    assert _address_now(v) == second_address
    np.testing.assert_array_equal(third, np.arange(4.0) + 110.0)
    np.testing.assert_array_equal(v.read(), np.arange(4.0) + 1110.0)


def test_a_spare_buffer_is_reused_only_by_a_value_of_its_shape_and_dtype():
    v = _variable(np.zeros(3))
    old = v.read()
    old_address = _address(old)
    v.update(_add, 1.0)
    del old
    keep = v.read()
    v.update(_add, 1.0)  # the first buffer is free now: filled with the value, which it becomes
    assert _address_now(v) == old_address
    np.testing.assert_array_equal(keep, np.ones(3))
    np.testing.assert_array_equal(v.read(), np.full(3, 2.0))
    del keep
    v.assign(np.zeros(5))
    snapshot = v.read()
    v.update(_add, 1.0)  # the spare has 3 elements: a new buffer of 5
    np.testing.assert_array_equal(snapshot, np.zeros(5))
    np.testing.assert_array_equal(v.read(), np.ones(5))


def test_a_reference_to_something_else_does_not_count_as_a_snapshot():
    v = _variable(np.zeros(3))
    address = _address_now(v)
    kept = [v, v.read().copy()]  # the handle itself and a copy: neither sees the buffer
    v.update(_add, 1.0)
    assert _address_now(v) == address and kept[1].sum() == 0.0


def test_uninitialized_variables_raise_tensorflows_message():
    v, w = LocalVariable("v"), _variable([1.0], name="w")
    assert not v.initialized and w.initialized
    with pytest.raises(FailedPrecondition, match="^Attempting to use uninitialized value v$"):
        v.read()
    called = []
    with pytest.raises(FailedPrecondition, match="uninitialized value v$"):
        w.update(lambda *buffers: called.append(buffers), slots=(v,))
    assert called == []


def test_assign_writes_in_place_replaces_or_donates():
    v = _variable(np.zeros(3))
    address = _address_now(v)
    assert v.assign(np.ones(3), write=np.copyto) is None
    assert _address_now(v) == address
    snapshot = v.read()
    assert v.assign(np.full(3, 2.0), write=np.copyto) is None  # a snapshot is alive: a new buffer
    np.testing.assert_array_equal(snapshot, np.ones(3))
    del snapshot
    fresh = np.full(3, 3.0)
    spare = v.assign(fresh, donate=True)
    assert spare is not None and _address(spare) != _address(fresh)
    assert _address_now(v) == _address(fresh)
    mine = v.read()
    assert v.assign(np.zeros(3), donate=True) is None  # its buffer is still seen: no spare
    np.testing.assert_array_equal(mine, np.full(3, 3.0))


def test_a_failing_check_leaves_the_value_as_it_was():
    v = _variable(np.arange(3.0))

    def check(shape):
        assert shape == (3,)
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        v.assign(np.zeros(2), check=check)
    np.testing.assert_array_equal(v.read(), np.arange(3.0))


def test_strings_are_read_by_copy():
    v = _variable(np.array([b"a", b"b"], dtype=object))
    snapshot = v.read()
    v.update(lambda buffer: buffer.__setitem__(0, b"z"))
    assert snapshot.tolist() == [b"a", b"b"] and v.read().tolist() == [b"z", b"b"]


def test_updates_of_overlapping_variables_in_opposite_orders_do_not_deadlock():
    a, b = _variable(np.zeros(1), "a"), _variable(np.zeros(1), "b")

    def both(x, y):
        x += 1.0
        y += 1.0

    def hammer(first, second):
        for _ in range(2000):
            first.update(both, slots=(second,))

    threads = [threading.Thread(target=hammer, args=pair) for pair in ((a, b), (b, a))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert a.read()[0] == b.read()[0] == 4000.0


class _Device:
    """A device whose memory is a list holding one array: what a copy in or out does is visible."""

    is_host = False

    def copy_in(self, host):
        return [np.array(host)]

    def copy_out(self, held):
        return np.array(held[0])

    def copy(self, held):
        return [np.array(held[0])]


def test_a_host_update_of_a_value_in_device_memory_copies_it_out_and_back():
    v = LocalVariable("v", _Device())
    v.assign([np.arange(3.0)], donate=True)
    seen = []
    v.update(lambda buffer: (seen.append(type(buffer)), _add(buffer, 1.0)), host=True)
    assert seen == [np.ndarray]
    np.testing.assert_array_equal(v.read()[0], [1.0, 2.0, 3.0])


def test_the_local_handle_implements_the_interface_and_shows_nothing_else():
    interface = {n for n in vars(VariableHandle) if not n.startswith("_")}
    local = {n for n in dir(LocalVariable) if not n.startswith("_")}
    assert local == interface | {"name", "device"}
    for name in interface - {"uninitialized_error"}:
        assert getattr(LocalVariable, name) is not getattr(VariableHandle, name), name


def test_a_container_gives_one_handle_per_name():
    container = ResourceContainer()
    assert container.variable("v") is container.variable("v")
    assert isinstance(container.variable("v"), VariableHandle)


def test_a_copying_read_is_the_callers_own():
    v = _variable(np.arange(3.0))
    mine = v.read(copy=True)
    mine += 1.0
    address = _address_now(v)
    v.update(_add, 1.0)  # the copy is no snapshot: in place
    assert _address_now(v) == address and mine.flags.writeable


def test_fetching_an_uninitialized_variables_own_tensor_is_tensorflows_error():
    v = tf.Variable([1.0], name="weights")
    with tf.Session() as sess, pytest.raises(tf.errors.FailedPreconditionError,
                                             match="^Attempting to use uninitialized value weights"):
        sess.run(v.op.outputs[0])


def test_a_donated_array_that_cannot_be_written_in_place_is_copied():
    v = _variable(np.zeros(4))
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    v.assign(frozen, donate=True)
    v.update(_add, 1.0)
    np.testing.assert_array_equal(frozen, np.arange(4.0))
    np.testing.assert_array_equal(v.read(), np.arange(4.0) + 1.0)
