"""The executor: independent ops at the same time, chains inline, errors naming the op, many callers."""

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import numflow as tf
from numflow.runtime import executor
from numflow.runtime import plan as plan_module
from numflow.runtime.executor import SyncExecutor
from numflow_kernels import tuning

TWO_THREADS = tf.ConfigProto(inter_op_parallelism_threads=2)


def test_two_independent_ops_run_at_the_same_time(graph, test_ops):
    # Each op waits until both have started: this completes only if the pool runs them at once.
    barrier = threading.Barrier(2)
    a = test_ops.barrier(tf.constant([1.0]), barrier, name="left")
    b = test_ops.barrier(tf.constant([2.0]), barrier, name="right")
    with tf.Session(config=TWO_THREADS) as sess:
        for _ in range(3):
            got = sess.run([a, b])
            assert [list(v) for v in got] == [[1.0], [2.0]]
    assert not barrier.broken


def test_a_chain_runs_on_one_thread(graph, test_ops):
    log = []
    x = tf.constant([1.0])
    for i in range(5):
        x = test_ops.record(x, log, name=f"step{i}")
    with tf.Session(config=TWO_THREADS) as sess:
        sess.run(x)
    assert [name for name, _ in log] == [f"step{i}" for i in range(5)]
    assert len({thread for _, thread in log}) == 1


def test_dependencies_are_respected(graph, test_ops):
    log = []
    roots = [test_ops.record(tf.constant([float(i)]), log, name=f"root{i}") for i in range(6)]
    total = roots[0]
    for r in roots[1:]:
        total = total + r
    last = test_ops.record(total, log, name="last")
    with tf.Session(config=TWO_THREADS) as sess:
        assert list(sess.run(last)) == [15.0]
    names = [name for name, _ in log]
    assert names[-1] == "last" and sorted(names[:-1]) == [f"root{i}" for i in range(6)]


def _wide_graph(test_ops, width=16, failing=7):
    log = []
    outs = []
    for i in range(width):
        x = test_ops.record(tf.constant([float(i)]), log, name=f"branch{i}")
        if i == failing:
            x = test_ops.fail(x, message="branch exploded", name="bad")
        outs.append(x)
    return outs, log


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_failing_op_in_a_wide_graph_raises_naming_it(graph, test_ops, threads):
    outs, _ = _wide_graph(test_ops)
    ok = tf.constant(3.0) * 2.0
    config = tf.ConfigProto(inter_op_parallelism_threads=threads)
    with tf.Session(config=config) as sess:
        for _ in range(5):
            with pytest.raises(tf.errors.InvalidArgumentError, match="branch exploded") as info:
                sess.run(outs)
            assert isinstance(info.value, tf.errors.OpError)
            assert info.value.op is graph.get_operation_by_name("bad")
            assert "bad" in info.value.message
        # The session stays usable, for other fetches and for the healthy branches.
        assert sess.run(ok) == 6.0
        assert [float(v[0]) for v in sess.run(outs[:7])] == [float(i) for i in range(7)]


def test_kernel_exceptions_map_to_tensorflow_error_classes(graph):
    x = tf.constant([1, 2])
    bad = tf.floordiv(x, tf.constant(0), name="div0")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero") as info:
            sess.run(bad)
    assert info.value.op.name == "div0"
    assert info.value.error_code == tf.errors.INVALID_ARGUMENT


def test_several_threads_call_run_on_one_session(graph, test_ops):
    x = tf.placeholder(tf.float32, shape=[None])
    branches = [test_ops.record(x * float(i), [], name=f"b{i}") for i in range(4)]
    total = branches[0]
    for b in branches[1:]:
        total = total + b
    errors = []

    def worker(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(30):
                v = rng.standard_normal(5).astype(np.float32)
                got = sess.run(total, {x: v})
                np.testing.assert_allclose(got, v * 6.0, rtol=1e-5)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    with tf.Session(config=TWO_THREADS) as sess:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
    assert errors == []


def test_threads_with_failing_and_healthy_runs(graph, test_ops):
    outs, _ = _wide_graph(test_ops, width=8, failing=3)
    good = outs[:3]
    results = {"failed": 0, "ok": 0, "other": []}
    lock = threading.Lock()

    def worker(i):
        for _ in range(20):
            try:
                sess.run(outs if i % 2 else good)
                key = "ok"
            except tf.errors.InvalidArgumentError:
                key = "failed"
            except Exception as e:  # noqa: BLE001
                with lock:
                    results["other"].append(e)
                continue
            with lock:
                results[key] += 1

    with tf.Session(config=TWO_THREADS) as sess:
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
    assert results == {"failed": 40, "ok": 40, "other": []}


# -- plan caching --------------------------------------------------------------------------------
@pytest.fixture
def count_builds(monkeypatch):
    calls = []
    real = plan_module.build

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_module, "build", counting)
    return calls


def test_a_second_run_does_not_rebuild_the_plan(graph, count_builds):
    a = tf.constant(1.0, name="a")
    b = a + 1.0
    with tf.Session() as sess:
        sess.run(b)
        sess.run(b)
        assert len(count_builds) == 1
        sess.run([b])  # the same elements in another structure share the plan
        sess.run({"b": b})
        assert len(count_builds) == 1
        sess.run("a:0")
        sess.run(a)  # a name and its tensor share the plan
        assert len(count_builds) == 2


def test_feeds_are_part_of_the_plan_signature(graph, count_builds):
    x = tf.placeholder(tf.float32, shape=[])
    y = x * 2.0
    with tf.Session() as sess:
        assert sess.run(y, {x: 1.0}) == 2.0
        assert sess.run(y, {x: 2.0}) == 4.0
        assert len(count_builds) == 1
        assert sess.run(y, {"Placeholder:0": 3.0}) == 6.0
        assert len(count_builds) == 1


def test_a_graph_change_rebuilds_the_plan(graph, count_builds):
    a = tf.constant(1.0)
    with tf.Session() as sess:
        sess.run(a)
        tf.constant(2.0)
        sess.run(a)
        sess.run(a)
    assert len(count_builds) == 2


def test_plans_are_per_session(graph, count_builds):
    a = tf.constant(1.0)
    with tf.Session() as s1, tf.Session() as s2:
        s1.run(a)
        s2.run(a)
        s1.run(a)
    assert len(count_builds) == 2


# -- an injected pool: a thread pool or the serial SyncExecutor ----------------------------------
def _diamond_of_records(test_ops, log, width=6):
    x = tf.constant(np.arange(4, dtype=np.float32))
    branches = [test_ops.record(x * float(i), log, name=f"branch{i}") for i in range(width)]
    total = branches[0]
    for b in branches[1:]:
        total = total + b
    return test_ops.record(total, log, name="sink")


def test_results_do_not_depend_on_the_pool(graph, test_ops, pool):
    log = []
    sink = _diamond_of_records(test_ops, log)
    with tf.Session(pool=pool) as sess:
        got = sess.run(sink)
    np.testing.assert_array_equal(got, np.arange(4) * 15.0)
    names = [name for name, _ in log]
    assert names[-1] == "sink" and sorted(names[:-1]) == [f"branch{i}" for i in range(6)]


def test_the_sync_executor_runs_everything_on_the_calling_thread(graph, test_ops):
    log = []
    sink = _diamond_of_records(test_ops, log)
    with tf.Session(pool=SyncExecutor()) as sess:
        sess.run(sink)
    assert {thread for _, thread in log} == {threading.get_ident()}


def test_a_thread_pool_runs_independent_branches_on_its_threads(graph, test_ops):
    log = []
    sink = _diamond_of_records(test_ops, log)
    with ThreadPoolExecutor(2, thread_name_prefix="injected") as executor:
        with tf.Session(pool=executor) as sess:
            sess.run(sink)
        pool_threads = {t.ident for t in threading.enumerate() if t.name.startswith("injected")}
    branch_threads = {thread for name, thread in log if name.startswith("branch")}
    # One branch may run on the calling thread, which would otherwise sit waiting.
    assert branch_threads & pool_threads and branch_threads <= pool_threads | {threading.get_ident()}


@pytest.mark.parametrize("failing", [0, 3, 5])
def test_a_failing_branch_under_either_pool(graph, test_ops, pool, failing):
    outs, _ = _wide_graph(test_ops, width=6, failing=failing)
    with tf.Session(pool=pool) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="branch exploded") as info:
            sess.run(outs)
        assert info.value.op.name == "bad"
        assert len(sess.run(outs[:failing] + outs[failing + 1:])) == 5


def test_closing_a_session_leaves_an_injected_pool_running(graph):
    c = tf.constant(1.0)
    with ThreadPoolExecutor(2) as executor:
        with tf.Session(pool=executor) as sess:
            sess.run(c)
        assert executor.submit(lambda: 7).result() == 7


def test_a_pool_shared_by_two_sessions(graph, test_ops):
    log = []
    sink = _diamond_of_records(test_ops, log)
    with ThreadPoolExecutor(2) as executor:
        s1, s2 = tf.Session(pool=executor), tf.Session(pool=executor)
        np.testing.assert_array_equal(s1.run(sink), s2.run(sink))
        s1.close()
        s2.close()


def test_interactive_session_takes_a_pool(graph):
    c = tf.constant(2.0)
    sess = tf.InteractiveSession(pool=SyncExecutor())
    try:
        assert c.eval() == 2.0
    finally:
        sess.close()


def test_an_op_error_says_where_the_op_was_defined(graph):
    import inspect

    line = inspect.currentframe().f_lineno + 1
    bad = tf.floordiv(tf.constant([1, 2]), tf.constant(0), name="bad")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(bad)
    assert f"[[node bad (defined at {__file__}:{line}) ]]" in info.value.message


@pytest.mark.filterwarnings("ignore::numflow.runtime.growth.GraphGrowthWarning")  # growing is the point here
def test_running_a_graph_while_another_thread_adds_ops(graph):
    # Each new op consumes an op the runs need, so the runs rebuild their plans while the graph grows.
    import sys

    consts = [tf.constant(float(i)) for i in range(30)]
    total = consts[0]
    for c in consts[1:]:
        total = total + c
    errors, stop = [], threading.Event()

    def runner():
        while not stop.is_set():
            try:
                assert sess.run(total) == 435.0
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)
                return

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so plan builds overlap op creation
    try:
        with tf.Session() as sess:
            threads = [threading.Thread(target=runner) for _ in range(2)]
            for t in threads:
                t.start()
            for i in range(1000):
                consts[i % 30] * 3.0
            stop.set()
            for t in threads:
                t.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    assert errors == []


# -- pool or caller's thread: the faster way, measured -------------------------------------------
def _measured_ways(one_core_each, all_cores):
    """Ways past their measuring runs, each way having taken these seconds."""
    ways = executor.Ways()
    for _ in range(2 * (executor.Ways.SAMPLES + 1)):
        way = ways.choose()
        ways.record(way, one_core_each if way == executor.ONE_CORE_EACH else all_cores)
    return ways


def test_ways_measure_both_ways_in_turn_leaving_out_each_first_run():
    ways = executor.Ways()
    chosen = []
    one_core_each = [1.2 + 0.01 * i for i in range(executor.Ways.SAMPLES)]
    all_cores = [1.05 - 0.01 * i for i in range(executor.Ways.SAMPLES)]
    # the first run each way loads kernels: slow
    for seconds in (9.0, 9.0, *(t for pair in zip(one_core_each, all_cores) for t in pair)):
        chosen.append(ways.choose())
        ways.record(chosen[-1], seconds)
    assert chosen == [executor.ONE_CORE_EACH, executor.ALL_CORES] * (executor.Ways.SAMPLES + 1)
    assert ways.seconds == [min(one_core_each), min(all_cores)]
    assert ways.choose() == executor.ALL_CORES


def test_a_far_slower_way_is_measured_once():
    # 30 times as slow (a probe of 0.9 s beside a step of 29 ms): two more runs of it would cost
    # more than the probes of a thousand steps may.
    ways = executor.Ways()
    chosen = []
    for seconds in (9.0, 9.0, 0.9, 0.029):
        chosen.append(ways.choose())
        ways.record(chosen[-1], seconds)
    for _ in range(10):
        chosen.append(ways.choose())
        ways.record(chosen[-1], 0.029)
    assert chosen == [executor.ONE_CORE_EACH, executor.ALL_CORES] * 2 + [executor.ALL_CORES] * 10


def _probes(ways, one_core_each, all_cores, runs):
    """The indices of the runs, of ``runs`` more, that took the slower way (ONE_CORE_EACH)."""
    chosen = []
    for _ in range(runs):
        chosen.append(ways.choose())
        ways.record(chosen[-1], one_core_each if chosen[-1] == executor.ONE_CORE_EACH else all_cores)
    return [i for i, way in enumerate(chosen) if way == executor.ONE_CORE_EACH]


def test_close_ways_probe_the_slower_every_probe_every_runs():
    ways = _measured_ways(one_core_each=1.2, all_cores=1.0)
    probes = _probes(ways, 1.2, 1.0, 3 * executor.PROBE_EVERY)
    assert len(probes) == 3 and probes[1] - probes[0] == probes[2] - probes[1] == executor.PROBE_EVERY


def test_probes_of_a_far_slower_way_cost_a_bounded_share_of_the_time():
    ways = _measured_ways(one_core_each=3.0, all_cores=1.0)
    probes = _probes(ways, 3.0, 1.0, 500)
    # Each probe costs 2.0 more than a faster run: one every 2.0 / (PROBE_COST * 1.0) runs.
    every = round(2.0 / tuning.PROBE_COST)
    assert every > executor.PROBE_EVERY and ways.probe_interval() == every
    assert [b - a for a, b in zip(probes, probes[1:])] == [every] * (len(probes) - 1)
    assert len(probes) * 2.0 <= tuning.PROBE_COST * 500 * 1.0


def test_a_way_a_thousand_times_slower_is_still_probed_now_and_then():
    ways = _measured_ways(one_core_each=1000.0, all_cores=1.0)
    assert ways.probe_interval() == executor.PROBE_MAX_EVERY


def test_ways_of_no_measurable_time_are_close():
    ways = _measured_ways(one_core_each=0.0, all_cores=0.0)
    assert ways.probe_interval() == executor.PROBE_EVERY


def test_a_plan_with_nothing_to_overlap_first_runs_on_every_core(graph):
    # A one-off run (an initializer's) then gets every core, as before any timing.
    x = tf.placeholder(tf.float32, [None], name="x")
    chain = tf.square(tf.square(x))
    wide = tf.square(x) + tf.square(tf.placeholder(tf.float32, [None], name="y"))
    with tf.Session(config=TWO_THREADS) as sess:
        sess.run(chain, {x: [1.0]})
        sess.run(wide, {"x:0": [1.0], "y:0": [2.0]})
        runs = {p.serial: p.ways.runs for p in sess._plans.values()}
    assert runs == {True: [0, 1], False: [1, 0]}


def test_one_slow_run_under_load_does_not_change_the_way():
    ways = _measured_ways(one_core_each=3.0, all_cores=1.0)
    ways.record(executor.ALL_CORES, 50.0)  # another process took the cores for a while
    assert ways.choose() == executor.ALL_CORES


def test_ways_switch_when_the_other_way_turns_out_faster_now():
    ways = _measured_ways(one_core_each=3.0, all_cores=1.0)
    for _ in range(executor.Ways.SAMPLES):  # other work took a core: a kernel's second thread waits for it
        ways.record(executor.ALL_CORES, 5.0)
    assert ways.choose() == executor.ONE_CORE_EACH


def test_a_plan_run_again_and_again_is_timed_both_ways(graph):
    a = tf.square(tf.placeholder(tf.float32, [None], name="x"), name="a")
    b = tf.square(tf.placeholder(tf.float32, [None], name="y"), name="b")
    total = a + b
    feed = {"x:0": np.arange(4.0), "y:0": np.ones(4)}
    with tf.Session(config=TWO_THREADS) as sess:
        for _ in range(2 * (executor.Ways.SAMPLES + 1)):
            np.testing.assert_allclose(sess.run(total, feed), np.arange(4.0) ** 2 + 1)
        (plan,) = sess._plans.values()
    assert not plan.serial and all(s is not None and s > 0 for s in plan.ways.seconds)


def test_a_plan_with_a_blocking_op_always_runs_on_the_pool(graph, test_ops):
    barrier = threading.Barrier(2)
    a = test_ops.barrier(tf.constant([1.0]), barrier, name="left")
    b = test_ops.barrier(tf.constant([2.0]), barrier, name="right")
    with tf.Session(config=TWO_THREADS) as sess:
        for _ in range(executor.PROBE_EVERY + 2):
            sess.run([a, b])
        (plan,) = sess._plans.values()
    assert plan.blocking and plan.ways.seconds[executor.ALL_CORES] is None


def test_a_run_on_the_callers_thread_skips_constants_variable_states_and_no_ops(graph):
    v = tf.Variable([1.0, 2.0], name="v")
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.control_dependencies([tf.no_op(name="order")]):
        y = tf.add(v * tf.constant(3.0, name="three"), x, name="y")
    with tf.Session() as sess:
        sess.run(v.initializer)
        for _ in range(2):
            np.testing.assert_allclose(sess.run(y, {x: [1.0, 1.0]}), [4.0, 7.0])
        plan = next(p for p in sess._plans.values() if any(s.op.name == "y" for s in p.steps))
    assert {s.op.type for s in plan.steps} >= {"Const", "VariableV2", "NoOp"}
    assert [s.op.name for s in plan.alone_steps] == ["v/read", "mul", "y"]


# -- hooks ---------------------------------------------------------------------------------------
class _Recorder(executor.Hook):
    def __init__(self):
        self.calls = []

    def start(self, plan):
        self.calls.append(("start", None))

    def pre_op(self, step):
        self.calls.append(("pre", step.op.name))

    def post_op(self, step):
        self.calls.append(("post", step.op.name))

    def finish(self, plan):
        self.calls.append(("finish", None))


def _plan_of(sess, fetch):
    sess.run(fetch)
    (plan,) = sess._plans.values()
    return plan


@pytest.mark.parametrize("ways", [executor.ONE_CORE_EACH, executor.ALL_CORES])
def test_hooks_are_called_around_each_step_the_run_runs(graph, ways, monkeypatch):
    monkeypatch.setattr(executor.Ways, "choose", lambda self: ways)
    x = tf.constant([1.0, 2.0], name="x")
    y = tf.square(tf.placeholder_with_default(x, [None], name="p"), name="y")
    with tf.Session(pool=SyncExecutor()) as sess:
        plan = _plan_of(sess, y)
        hook = _Recorder()
        values = plan.slots.copy()
        executor.run(plan, values, SyncExecutor(), [hook])
    np.testing.assert_array_equal(values[plan.fetch_slots[0]], [1.0, 4.0])
    assert hook.calls == [("start", None), ("pre", "p"), ("post", "p"), ("pre", "y"), ("post", "y"), ("finish", None)]


def test_a_failing_step_is_still_reported_to_the_hooks_and_the_run_finishes(graph, test_ops):
    bad = test_ops.fail(tf.constant([1.0]), name="bad")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(bad)
        (plan,) = sess._plans.values()
        hook = _Recorder()
        with pytest.raises(tf.errors.InvalidArgumentError, match="boom"):
            executor.run(plan, plan.slots.copy(), None, [hook])
    assert hook.calls == [("start", None), ("pre", "bad"), ("post", "bad"), ("finish", None)]


def test_a_hook_without_op_callbacks_leaves_the_steps_unwrapped(graph, monkeypatch):
    seen = []
    monkeypatch.setattr(executor, "_hooked_steps", lambda hooks: seen.append(hooks))

    class Start(executor.Hook):
        def start(self, plan):
            seen.append("start")

    y = tf.square(tf.placeholder_with_default([3.0], [None]))
    with tf.Session() as sess:
        plan = _plan_of(sess, y)
        values = plan.slots.copy()
        executor.run(plan, values, None, [Start()])
    assert seen == ["start"] and list(values[plan.fetch_slots[0]]) == [9.0]
