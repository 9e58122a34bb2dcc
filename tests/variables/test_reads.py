"""Reads of variables: TensorFlow's aliasing, seen through snapshots that copy nothing.

TensorFlow's read of a variable (``v/read``, ``tf.identity(v)``) forwards the variable's buffer: an
op that runs after an update in the same run sees the updated value, and a fetch sees the value at
the end of the run. Here such a read passes the variable itself on, and each consumer takes a
snapshot when it runs: a read-only view of the buffer. An update that finds a snapshot alive (held
by a value computed from it, a fetched result, or a view of either) writes into a copy that becomes
the variable's value, so every snapshot keeps the value it saw; with none alive, the update writes
in place.
"""

import numpy as np

import numflow as tf


def _address(sess, name):
    """Where variable ``name``'s buffer lives (its address, so that the test holds no reference)."""
    (container,) = set(sess._containers.values())
    return container.variable(name).read().__array_interface__["data"][0]


def test_a_fetched_value_is_the_callers_own():
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        for fetch in (v, v.value(), tf.reshape(v, [3, 1])):
            got = sess.run(fetch)
            got += 100.0
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])


def test_reads_alias_the_variable_as_tensorflows_do():
    # Checked against TF 2.21: [11, 12, 13] for the read, the product taken after the update and the
    # update; [1, 2, 3] for the product taken before it and what was computed from that.
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    read = tf.identity(v.value(), name="read")
    copied = v.value() * 1.0
    with tf.control_dependencies([read, copied]):
        update = v.assign_add([10.0, 10.0, 10.0])
    with tf.control_dependencies([update]):
        after = read * 1.0
        after_copy = copied * 1.0
    with tf.Session() as sess:
        sess.run(v.initializer)
        got = sess.run([read, after, copied, after_copy, update])
    for value, want in zip(got, [[11.0, 12.0, 13.0]] * 2 + [[1.0, 2.0, 3.0]] * 2 + [[11.0, 12.0, 13.0]]):
        np.testing.assert_array_equal(value, want)


def test_a_fetched_variable_is_its_value_at_the_end_of_the_run():
    # Checked against TF 2.21: the training step's result, whichever order the fetches are in.
    w = tf.Variable([1.0, 2.0], name="w")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(w * w))
    with tf.Session() as sess:
        sess.run(w.initializer)
        np.testing.assert_allclose(sess.run([train, w])[1], [0.8, 1.6], rtol=1e-6)
        np.testing.assert_allclose(sess.run([w, train])[0], [0.64, 1.28], rtol=1e-6)
        np.testing.assert_allclose(sess.run([w.assign_add([1.0, 1.0]), w])[1], [1.64, 2.28], rtol=1e-6)


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
