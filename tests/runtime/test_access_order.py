"""A run's reads and updates of one variable that the graph leaves unordered happen in a fixed order:
reads first, updates in creation order. The same result on every pool and every run."""

import numpy as np
import pytest

import numflow as tf

RUNS = 8


@pytest.fixture
def sessions(pool):
    """A session on the pool fixture's executor (threads, or the serial SyncExecutor), and one of
    the session's own with four inter-op threads."""
    made = [tf.Session(pool=pool), tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=4))]
    yield made
    for sess in made:
        sess.close()


def _each_run(sessions, init, fetches):
    results = []
    for sess in sessions:
        for _ in range(RUNS):
            sess.run(init)
            results.append(sess.run(fetches))
    return results


def test_a_read_left_unordered_with_an_update_sees_the_value_before_it(sessions):
    v = tf.Variable(1.0)
    update = v.assign_add(1.0)  # created first: the creation order alone would run it first
    read = v * 10.0
    results = _each_run(sessions, v.initializer, [update, read])
    assert [r[1] for r in results] == [10.0] * len(results)


def test_a_read_the_graph_orders_after_the_update_sees_the_update(sessions):
    v = tf.Variable(1.0)
    update = v.assign_add(1.0)
    with tf.control_dependencies([update]):
        read = v * 10.0
    assert {r[1] for r in _each_run(sessions, v.initializer, [update, read])} == {20.0}


def test_unordered_updates_of_one_variable_run_in_creation_order(sessions):
    v = tf.Variable(1.0)
    first, second = v.assign(5.0), v.assign(7.0)
    results = []
    for sess in sessions:
        for _ in range(RUNS):
            sess.run(v.initializer)
            sess.run([second, first])
            results.append(sess.run(v))
    assert results == [7.0] * len(results)


def test_two_optimizers_in_one_step_differentiate_through_the_values_the_step_started_from(sessions):
    w = tf.Variable(2.0, name="w")
    u = tf.Variable(3.0, name="u")
    loss = w * u
    train = tf.group(tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[w]),
                     tf.train.GradientDescentOptimizer(0.1).minimize(loss, var_list=[u]))
    init = tf.global_variables_initializer()
    results = []
    for sess in sessions:
        for _ in range(RUNS):
            sess.run(init)
            sess.run(train)
            results.append(sess.run([w, u]))
    # d(loss)/dw = u = 3 and d(loss)/du = w = 2, both read before either update
    np.testing.assert_allclose(results, [[2.0 - 0.1 * 3.0, 3.0 - 0.1 * 2.0]] * len(results), rtol=1e-7)
    assert len({tuple(r) for r in results}) == 1


def test_reads_and_updates_that_cross_two_variables_get_one_order_without_a_cycle(sessions):
    a, b = tf.Variable(1.0, name="a"), tf.Variable(10.0, name="b")
    set_a = a.assign(2.0)
    with tf.control_dependencies([set_a]):
        read_b = b + 0.0  # after a's update, unordered with b's
    set_b = b.assign(20.0)
    with tf.control_dependencies([set_b]):
        read_a = a + 0.0  # after b's update, unordered with a's: both reads cannot come first
    init = tf.global_variables_initializer()
    results = _each_run(sessions, init, [read_a, read_b])
    assert len({tuple(r) for r in results}) == 1
    assert tuple(results[0]) in {(1.0, 20.0), (2.0, 10.0), (2.0, 20.0)}
