"""BLAS runs on one thread in every run that calls it, whichever way the executor takes; kernels keep
to their calling thread while a run schedules ops on the pool, and use the free cores otherwise."""

import threading

import pytest

import numflow as tf
from numflow.runtime import executor
from numflow_kernels import cpu_threads

threadpoolctl = pytest.importorskip("threadpoolctl")


def _blas_threads():
    """Thread counts of the BLAS libraries numflow tunes (those loaded with numpy), read afresh."""
    tuned = {lib.filepath for lib in cpu_threads._blas()}
    assert tuned, "numpy's BLAS was not found"
    return [c.num_threads for c in threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers
            if c.filepath in tuned]


class _BlasLog(list):
    """A record op's log that also notes BLAS's thread counts when each op runs."""

    def append(self, item):
        super().append((item, _blas_threads()))


class _SerialLog(list):
    """A record op's log that notes whether kernels would keep to their calling thread then."""

    def append(self, item):
        super().append(cpu_threads.serial_kernels())


@pytest.mark.parametrize("way", [executor.ONE_CORE_EACH, executor.ALL_CORES])
@pytest.mark.parametrize("intra", [0, 1, 2])
def test_a_run_that_calls_blas_holds_it_to_one_thread_in_either_way(graph, test_ops, monkeypatch, way, intra):
    monkeypatch.setattr(executor.Ways, "choose", lambda self: way)
    before = _blas_threads()
    log = _BlasLog()
    x = tf.placeholder(tf.float32, [None, None])
    out = tf.matmul(test_ops.record(x, log), x)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=intra)) as sess:
        for _ in range(3):
            sess.run(out, {x: [[2.0]]})
    assert [counts for _, counts in log] == [[1] * len(before)] * 3
    assert _blas_threads() == before


def test_a_run_scheduling_ops_on_the_pool_holds_blas_to_one_thread(graph, test_ops):
    before = _blas_threads()
    barrier = threading.Barrier(2)
    log = _BlasLog()
    a = test_ops.record(test_ops.barrier(tf.constant([[1.0]]), barrier, name="left"), log)
    b = test_ops.record(test_ops.barrier(tf.constant([[2.0]]), barrier, name="right"), log)
    with tf.Session(config=tf.ConfigProto(inter_op_parallelism_threads=2)) as sess:
        sess.run([tf.matmul(a, b), a, b])
    assert [counts for _, counts in log] == [[1] * len(before)] * 2
    assert _blas_threads() == before


def test_a_run_without_blas_leaves_its_thread_count_alone(graph, test_ops):
    before = _blas_threads()
    log = _BlasLog()
    with tf.Session() as sess:
        sess.run(test_ops.record(tf.constant([1.0]) * 2.0, log))
    assert [counts for _, counts in log] == [before]


def test_a_run_on_any_thread_sets_blas_after_another_thread_took_threadpoolctls_control(graph, test_ops):
    """threadpoolctl ignores OpenBLAS counts set by any thread but the first that set one."""
    controller = threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers[0]
    if controller.num_threads == 1:
        pytest.skip("BLAS runs on one thread here anyway")
    controller.set_num_threads(controller.num_threads)  # this thread now controls it, for threadpoolctl
    try:
        log = _BlasLog()
        x = tf.placeholder(tf.float32, [None, None])
        out = tf.matmul(test_ops.record(x, log), x)
        with tf.Session() as sess:
            worker = threading.Thread(target=sess.run, args=(out, {x: [[1.0]]}))
            worker.start()
            worker.join(10)
        assert [counts for _, counts in log] == [[1] * len(log[0][1])]
    finally:
        controller.clear_controlling_thread()


def test_nested_holders_release_once_all_have_left():
    assert not cpu_threads.serial_kernels()
    with cpu_threads.one_thread_each():
        with cpu_threads.one_thread_each():
            assert cpu_threads.serial_kernels()
        assert cpu_threads.serial_kernels()
    assert not cpu_threads.serial_kernels()


def test_numba_kernels_take_their_serial_twin_while_runs_share_the_cores():
    from numflow_kernels import parallel

    calls = []
    twin = (lambda *args: calls.append("serial"), lambda *args: calls.append("parallel"))
    parallel.launch(twin, parallel.PARALLEL_THRESHOLD, 0)
    with cpu_threads.one_thread_each():
        parallel.launch(twin, parallel.PARALLEL_THRESHOLD, 0)
    parallel.launch(twin, parallel.PARALLEL_THRESHOLD - 1, 0)
    assert calls == ["parallel", "serial", "serial"]


@pytest.mark.parametrize("way", [executor.ONE_CORE_EACH, executor.ALL_CORES])
def test_kernels_keep_to_one_thread_only_in_a_run_one_core_each(graph, test_ops, monkeypatch, way):
    monkeypatch.setattr(executor.Ways, "choose", lambda self: way)
    x = tf.placeholder(tf.float32, [None, None])
    log = _SerialLog()
    with_blas = test_ops.record(tf.matmul(x, x), log)
    without = test_ops.record(x + 1.0, log)
    with tf.Session() as sess:
        for fetch in (with_blas, without):
            sess.run(fetch, {x: [[1.0]]})
    assert log == [way == executor.ONE_CORE_EACH] * 2
    assert not cpu_threads.serial_kernels()


def test_a_session_with_one_intra_op_thread_keeps_every_kernel_to_one_thread(graph, test_ops):
    before = _blas_threads()
    log = _BlasLog()
    serial = _SerialLog()
    x = tf.placeholder(tf.float32, [None, None])
    out = test_ops.record(test_ops.record(tf.matmul(x, x), log) + 1.0, serial)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
        for _ in range(12):  # past the runs that would time both ways
            sess.run(out, {x: [[2.0]]})
    assert {tuple(counts) for _, counts in log} == {(1,) * len(before)}
    assert serial == [True] * 12
    assert _blas_threads() == before


def _threads_running_blocks(count, monkeypatch, cores=4):
    monkeypatch.setattr(cpu_threads, "cores", lambda: cores)
    started = threading.Barrier(2, timeout=10)
    ran = {}

    def block(i):
        if i < 2 and not cpu_threads.serial_kernels():
            started.wait()  # two blocks at once: only two threads get past here
        ran[i] = threading.get_ident()

    cpu_threads.run_blocks(block, count)
    return ran


def test_run_blocks_runs_every_block_once_on_several_threads_while_the_cores_are_free(monkeypatch):
    ran = _threads_running_blocks(6, monkeypatch)
    assert sorted(ran) == list(range(6))
    assert len(set(ran.values())) >= 2


def test_run_blocks_runs_them_in_order_on_the_calling_thread_while_the_cores_are_taken(monkeypatch):
    with cpu_threads.one_thread_each():
        ran = _threads_running_blocks(6, monkeypatch)
    assert list(ran) == list(range(6)) and set(ran.values()) == {threading.get_ident()}


def test_run_blocks_raises_a_blocks_error_after_the_others_finished(monkeypatch):
    monkeypatch.setattr(cpu_threads, "cores", lambda: 3)
    done = []

    def block(i):
        if i == 3:
            raise ValueError("block 3 failed")
        done.append(i)

    with pytest.raises(ValueError, match="block 3 failed"):
        cpu_threads.run_blocks(block, 8)
    assert 3 not in done


def test_kernels_that_call_blas_say_so_when_they_register():
    from numflow.devices.cpu import CPUDevice
    from numflow.devices.null import NullDevice

    cpu = CPUDevice()
    cpu.kernel("MatMul")  # loads the host's kernels
    blas = {"MatMul", "BatchMatMulV2", "Conv2D", "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D",
            "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2", "Einsum", "Orthogonal", "MatrixInverse",
            "MatrixDeterminant", "Cholesky", "MatrixSolve", "Svd"}  # Svd, Einsum...: numpy reference kernels
    assert {t for t in blas if cpu.calls_blas(t)} == blas
    assert not any(cpu.calls_blas(t) for t in ("AddV2", "MaxPool", "Relu", "Sum"))
    assert not NullDevice().calls_blas("MatMul")
