"""Kernels run one thread each while the executor runs ops at once, and get their threads back after."""

import threading

import pytest

import numflow as tf
from numflow_kernels import cpu_threads

threadpoolctl = pytest.importorskip("threadpoolctl")


def _blas_threads():
    """Thread counts of the BLAS libraries numflow tunes (those loaded with numpy), read afresh."""
    tuned = {c.filepath for c in cpu_threads._blas()}
    assert tuned, "numpy's BLAS was not found"
    return [c.num_threads for c in threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers
            if c.filepath in tuned]


class _BlasLog(list):
    """A record op's log that also notes BLAS's thread counts when each op runs."""

    def append(self, item):
        super().append((item, _blas_threads()))


def test_blas_is_single_threaded_only_while_a_run_schedules_ops(graph, test_ops):
    before = _blas_threads()
    barrier = threading.Barrier(2)
    log = _BlasLog()
    a = test_ops.record(test_ops.barrier(tf.constant([1.0]), barrier, name="left"), log)
    b = test_ops.record(test_ops.barrier(tf.constant([2.0]), barrier, name="right"), log)
    with tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=2)) as sess:
        sess.run([a, b])
    assert len(log) == 2 and all(counts and set(counts) == {1} for _, counts in log)
    assert _blas_threads() == before


def test_nested_holders_restore_once_all_have_left():
    before = _blas_threads()
    with cpu_threads.one_thread_each():
        with cpu_threads.one_thread_each():
            assert all(n == 1 for n in _blas_threads())
        assert all(n == 1 for n in _blas_threads())
    assert _blas_threads() == before


def test_numba_kernels_take_their_serial_twin_while_runs_share_the_cores():
    from numflow_kernels import parallel

    calls = []
    twin = (lambda *args: calls.append("serial"), lambda *args: calls.append("parallel"))
    parallel.launch(twin, parallel.PARALLEL_THRESHOLD, 0)
    with cpu_threads.one_thread_each():
        parallel.launch(twin, parallel.PARALLEL_THRESHOLD, 0)
    parallel.launch(twin, parallel.PARALLEL_THRESHOLD - 1, 0)
    assert calls == ["parallel", "serial", "serial"]


class _SerialLog(list):
    """A record op's log that notes whether Numba kernels would take their serial twins then."""

    def append(self, item):
        super().append(cpu_threads.serial_kernels())


def test_a_run_that_calls_blas_leaves_it_the_cores_and_numba_kernels_run_serially(graph, test_ops, monkeypatch):
    from numflow.runtime import executor

    monkeypatch.setattr(executor.Ways, "choose", lambda self: executor.ALL_CORES)
    x = tf.placeholder(tf.float32, [None, None])
    log = _SerialLog()
    with_blas = test_ops.record(tf.matmul(x, x), log)
    without = test_ops.record(x + 1.0, log)
    with tf.Session() as sess:
        for fetch in (with_blas, without, with_blas):
            sess.run(fetch, {x: [[1.0]]})
    assert log == [True, False, True]
    assert not cpu_threads.serial_kernels()


def test_a_run_one_core_each_holds_every_kernel_to_one_thread(graph, test_ops, monkeypatch):
    from numflow.runtime import executor

    monkeypatch.setattr(executor.Ways, "choose", lambda self: executor.ONE_CORE_EACH)
    before = _blas_threads()
    log = _BlasLog()
    x = tf.placeholder(tf.float32, [None, None])
    out = test_ops.record(tf.matmul(x, x), log)
    with tf.Session() as sess:
        sess.run(out, {x: [[2.0]]})
    assert [counts for _, counts in log] == [[1] * len(before)]
    assert _blas_threads() == before


def test_a_session_with_one_intra_op_thread_holds_every_kernel_to_one_thread(graph, test_ops):
    before = _blas_threads()
    log = _BlasLog()
    x = tf.placeholder(tf.float32, [None, None])
    out = test_ops.record(tf.matmul(x, x), log)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
        for _ in range(12):  # past the runs that would time both ways
            sess.run(out, {x: [[2.0]]})
    assert {tuple(counts) for _, counts in log} == {(1,) * len(before)}
    assert _blas_threads() == before
