"""Reads are snapshots that copy nothing: an update copies only while a snapshot of the buffer is alive.

A read of a host variable is a read-only view of its buffer. An update that finds one alive (held
by a later op of the run, by a fetched result, or by a view of either) writes into a copy that
becomes the variable's value, so every read keeps the value it saw; with none alive, the update
writes in place.
"""

import numpy as np

import numflow as tf


def _address(sess, name):
    """Where variable ``name``'s buffer lives (its address, so that the test holds no reference)."""
    (container,) = set(sess._containers.values())
    return container.variable(name).value.__array_interface__["data"][0]


def test_a_fetched_value_is_the_callers_own():
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        for fetch in (v, v.value(), tf.reshape(v, [3, 1])):
            got = sess.run(fetch)
            got += 100.0
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])


def test_a_read_keeps_its_value_when_its_run_then_updates_the_variable():
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    read = tf.identity(v.value(), name="read")
    with tf.control_dependencies([read]):
        update = v.assign_add([10.0, 10.0, 10.0])
    with tf.control_dependencies([update]):
        after = read * 1.0  # runs after the update, from the snapshot taken before it
    with tf.Session() as sess:
        sess.run(v.initializer)
        got_read, got_after, got_update = sess.run([read, after, update])
        np.testing.assert_array_equal(got_read, [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(got_after, [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(got_update, [11.0, 12.0, 13.0])
        np.testing.assert_array_equal(sess.run(v), [11.0, 12.0, 13.0])


def test_a_fetched_snapshot_keeps_its_value_across_later_updates():
    v = tf.Variable(np.zeros(4, np.float32), name="v")
    x = tf.placeholder(tf.float32, [4])
    snapshot = v.value()
    updates = [v.assign_add(x).op, v.assign(x).op, tf.scatter_add(v, [1], [5.0]).op,
               tf.train.GradientDescentOptimizer(1.0).apply_gradients([(x, v)])]
    with tf.Session() as sess:
        sess.run(v.initializer)
        for i, update in enumerate(updates):
            before = sess.run(snapshot)
            kept = before.copy()
            sess.run(update, {x: np.full(4, i + 1.0, np.float32)})
            np.testing.assert_array_equal(before, kept)
            assert not np.array_equal(sess.run(v), kept)


def test_updates_write_in_place_once_no_snapshot_is_alive():
    v = tf.Variable(np.zeros(1 << 16, np.float32), name="v")
    total = tf.reduce_sum(v.value())  # reads v; keeps no snapshot past the run
    step = v.assign_add(np.ones(1 << 16, np.float32)).op
    with tf.Session() as sess:
        sess.run(v.initializer)
        for i in range(3):
            address = _address(sess, "v")
            assert sess.run(total) == i * (1 << 16)
            sess.run(step)  # a copy would be made while the old buffer is alive: a new address
            assert _address(sess, "v") == address
        assert sess.run(v)[0] == 3.0


def test_a_read_consumed_earlier_in_the_run_lets_the_update_write_in_place():
    # The read's one consumer empties its slot, so no snapshot is alive when the update runs.
    v = tf.Variable(np.zeros(1 << 16, np.float32), name="v")
    total = tf.reduce_sum(v.value())
    with tf.control_dependencies([total]):
        step = v.assign_add(np.ones(1 << 16, np.float32))
    with tf.Session() as sess:
        sess.run(v.initializer)
        for i in range(3):
            address = _address(sess, "v")
            assert sess.run([total, step.op])[0] == i * (1 << 16)
            assert _address(sess, "v") == address


def test_a_read_with_several_consumers_is_released_after_the_last_of_them():
    # As each hidden layer's weights are read by the forward and the backward product.
    v = tf.Variable(np.ones((256, 256), np.float32), name="v")
    read = v.value()
    first, second = tf.reduce_sum(read), tf.reduce_sum(tf.transpose(read))
    with tf.control_dependencies([first, second]):
        step = v.assign_add(np.ones((256, 256), np.float32))
    with tf.Session() as sess:
        sess.run(v.initializer)
        for i in range(1, 4):
            address = _address(sess, "v")
            assert sess.run([first, second, step.op])[:2] == [i * 256 * 256] * 2
            assert _address(sess, "v") == address
