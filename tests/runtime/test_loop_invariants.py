"""A loop's ops that depend only on what it captured run in its first iteration only, and nothing else
changes: their values, an error of one that would fail (never raised by a loop that does not run),
random draws (new in every iteration), and loops that update a variable (whose readers read it anew).
"""

import numpy as np
import pytest

import numflow as tf


def _executions(sess, fetch, feed=None):
    """``(value, {op name: times the run executed it})`` of a traced run."""
    metadata = tf.RunMetadata()
    value = sess.run(fetch, feed, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                     run_metadata=metadata)
    counts = {}
    for device in metadata.step_stats.dev_stats:
        for stats in device.node_stats:
            if stats.op_end_rel_micros or stats.all_end_rel_micros:
                counts[stats.node_name] = counts.get(stats.node_name, 0) + 1
    return value, counts


def test_what_depends_on_captured_values_alone_runs_once_and_gives_the_same_values():
    rng = np.random.default_rng(0)
    kernel_value, x_value = rng.standard_normal((4, 8)), rng.standard_normal((3, 4))
    with tf.Graph().as_default(), tf.Session() as sess:
        kernel = tf.constant(kernel_value)
        x = tf.placeholder(tf.float64, [3, 4])

        def body(i, h):
            gates = tf.split(kernel, 2, axis=1, name="gates")  # the same in every iteration
            return i + 1, tf.tanh(tf.matmul(h, gates[0]) + tf.matmul(x, gates[1]))

        _, h = tf.while_loop(lambda i, h: i < 5, body, [0, tf.zeros([3, 4], tf.float64)])
        value, counts = _executions(sess, h, {x: x_value})
    want = np.zeros((3, 4))
    for _ in range(5):
        want = np.tanh(want @ kernel_value[:, :4] + x_value @ kernel_value[:, 4:])
    np.testing.assert_allclose(value, want, rtol=1e-12)
    assert counts["while/gates"] == 1 and counts["while/MatMul_1"] == 1  # x @ gates[1] too
    assert counts["while/MatMul"] == 5 and counts["while/Tanh"] == 5


def test_a_failing_invariant_op_of_a_loop_that_never_runs_raises_nothing():
    with tf.Graph().as_default(), tf.Session() as sess:
        n = tf.placeholder(tf.int32, [])
        table = tf.placeholder(tf.float64, [None])

        def body(i, total):
            return i + 1, total + tf.reduce_sum(tf.reshape(table, [4, -1]))  # 6 values do not fill 4 rows

        _, total = tf.while_loop(lambda i, t: i < n, body, [0, tf.constant(0.0, tf.float64)])
        assert sess.run(total, {n: 0, table: np.arange(6.0)}) == 0.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="reshape"):
            sess.run(total, {n: 2, table: np.arange(6.0)})


def test_random_draws_in_a_loop_are_new_in_every_iteration():
    with tf.Graph().as_default(), tf.Session() as sess:
        shape = tf.constant([3])
        draws = tf.TensorArray(tf.float32, size=4)

        def body(i, array):
            return i + 1, array.write(i, tf.random_uniform(shape, seed=1))

        _, array = tf.while_loop(lambda i, a: i < 4, body, [0, draws])
        values = sess.run(array.stack())
    assert len({tuple(row) for row in values.tolist()}) == 4


def test_a_loop_that_updates_a_variable_reads_it_anew_in_every_iteration():
    with tf.Graph().as_default(), tf.Session() as sess:
        v = tf.Variable(1.0)

        def body(i, total):
            with tf.control_dependencies([v.assign_add(1.0)]):
                return i + 1, total + v.read_value() * 2.0

        _, total = tf.while_loop(lambda i, t: i < 3, body, [0, 0.0])
        sess.run(v.initializer)
        assert sess.run(total) == 2.0 * (2.0 + 3.0 + 4.0)


def test_a_condition_on_a_captured_size_computes_the_size_once():
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None])
        i = tf.while_loop(lambda i: i < tf.size(x, name="length") * 2, lambda i: i + 1, [0])
        value, counts = _executions(sess, i, {x: np.zeros(5, np.float32)})
    assert value == 10
    assert counts["while/length"] == 1 and counts["while/Less"] == 11


def test_a_tensor_arrays_size_read_in_a_loop_that_grows_it_is_read_in_every_iteration():
    with tf.Graph().as_default(), tf.Session() as sess:
        grown = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        seen = tf.TensorArray(tf.int32, size=3)

        def body(i, sizes):
            written = grown.write(i, 1.0)  # grows the captured array, whose size is read through its handle
            with tf.control_dependencies([written.flow]):
                return i + 1, sizes.write(i, grown.size())

        _, sizes = tf.while_loop(lambda i, s: i < 3, body, [0, seen])
        assert sess.run(sizes.stack()).tolist() == [1, 2, 3]
