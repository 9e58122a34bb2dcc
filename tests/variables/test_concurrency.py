"""Variables under concurrent runs: no lost update, no torn read, one value per local session.

Every update holds the variable's lock (DESIGN.md), so T threads running ``assign_add(1)`` K times
end at exactly T*K, and a read taken while whole-array assignments run sees one of them, never a
mix. Large variables take the ``parallel=True`` kernels, launched from several threads at once.
"""

import threading

import numpy as np
import pytest

import numflow as tf

THREADS = 8
RUNS = 400
BIG = 1 << 17  # elements: above the parallel kernels' threshold


def _hammer(target, threads=THREADS):
    """Run ``target(i)`` on ``threads`` threads started together; re-raise the first failure."""
    start = threading.Barrier(threads)
    errors = []

    def run(i):
        try:
            start.wait(10)
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported to the test thread
            errors.append(e)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    if errors:
        raise errors[0]


def test_concurrent_assign_add_loses_no_update():
    v = tf.Variable(0.0, name="counter")
    w = tf.Variable(np.zeros(BIG, np.float32), name="big")
    increment, big_increment = v.assign_add(1), w.assign_add(np.ones(BIG, np.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())

        def work(i):
            for k in range(RUNS):
                sess.run(increment)
                if k % 8 == 0:
                    sess.run(big_increment.op)

        _hammer(work)
        assert sess.run(v) == THREADS * RUNS
        big = sess.run(w)
        assert big.min() == big.max() == THREADS * RUNS / 8


def test_each_thread_runs_its_own_assign_op():
    v = tf.Variable(0, name="v")
    ops = [v.assign_add(i + 1) for i in range(THREADS)]
    with tf.Session() as sess:
        sess.run(v.initializer)
        _hammer(lambda i: [sess.run(ops[i]) for _ in range(RUNS // 4)])
        assert sess.run(v) == sum(range(1, THREADS + 1)) * (RUNS // 4)


def test_reads_never_see_a_half_written_variable():
    size = 8 * BIG  # 4 MB: a copy takes long enough for a racing write to land in it
    v = tf.Variable(np.zeros(size, np.float32), name="v")
    x = tf.placeholder(tf.float32, [size])
    fills = [np.full(size, float(i), np.float32) for i in range(4)]
    write, read = v.assign(x), v.value()
    torn = []
    with tf.Session() as sess:
        sess.run(v.initializer)

        def work(i):
            for k in range(40):
                if i % 2:
                    sess.run(write.op, {x: fills[(i + k) % 4]})
                else:
                    value = sess.run(read)
                    if value.min() != value.max():
                        torn.append(value)

        _hammer(work, threads=4)
    assert not torn


@pytest.mark.parametrize("threads", [2, 4])
def test_two_local_sessions_of_one_graph_hold_separate_values_under_load(threads):
    v = tf.Variable(0.0, name="v")
    increment = v.assign_add(1)
    sessions = [tf.Session(), tf.Session()]
    try:
        for sess in sessions:
            sess.run(v.initializer)
        _hammer(lambda i: [sessions[i % 2].run(increment) for _ in range(RUNS // 4 * (i % 2 + 1))], threads)
        per_session = threads // 2 * RUNS // 4
        assert sessions[0].run(v) == per_session and sessions[1].run(v) == 2 * per_session
    finally:
        for sess in sessions:
            sess.close()


def test_a_large_initializer_runs_on_the_callers_thread_so_its_kernel_may_use_every_core():
    # A draw feeding the variable's Assign cannot run beside it: the plan runs on the caller's
    # thread, where parallel kernels are allowed (no numba_serial), run after run.
    v = tf.Variable(tf.random_normal([BIG]), name="v")
    init = tf.global_variables_initializer()
    with tf.Session() as sess:
        for _ in range(3):
            sess.run(init)
        plan = next(p for p in sess._plans.values() if any(s.op is v.initializer for s in p.steps))
        assert plan.serial
