"""Partitioned plans over the loopback transport: ps tasks in this process, every partition,
registration and tensor pickled both ways, as between processes (no Ray needed)."""

import itertools
import threading

import numpy as np
import pytest

import numflow as tf
from numflow.cluster import server as cluster_server
from numflow.runtime import partition

_clusters = itertools.count()


def _cluster(num_ps, num_workers):
    """A ClusterSpec of its own per test (loopback tasks are found by the cluster's addresses)."""
    n = next(_clusters)
    return tf.train.ClusterSpec({"ps": [f"ps{i}.test{n}:1" for i in range(num_ps)],
                                 "worker": [f"worker{i}.test{n}:1" for i in range(num_workers)]})


def _servers(cluster, protocol="loopback"):
    ps = [tf.train.Server(cluster, "ps", i, protocol=protocol) for i in range(cluster.num_tasks("ps"))]
    workers = [tf.train.Server(cluster, "worker", i, protocol=protocol) for i in range(cluster.num_tasks("worker"))]
    return ps, workers


def _model(cluster):
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        x = tf.placeholder(tf.float32, [None, 4])
        y = tf.placeholder(tf.float32, [None, 1])
        w = tf.get_variable("w", [4, 1], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
    return x, y, w, b, loss, global_step, train_op


def _data():
    rng = np.random.default_rng(7)
    data_x = rng.standard_normal((16, 4)).astype(np.float32)
    return data_x, data_x @ np.array([[1.0], [-2.0], [0.5], [3.0]], np.float32) + 0.25


def _train(target_of, steps=4):
    """Losses and final values of ``steps`` steps alternating between two workers' sessions."""
    cluster = target_of.cluster
    x, y, w, b, loss, global_step, train_op = _model(cluster)
    data_x, data_y = _data()
    sessions = [tf.Session(target_of(i)) for i in range(2)]
    sessions[0].run(tf.global_variables_initializer())
    losses = [sessions[i % 2].run([train_op, loss], {x: data_x, y: data_y})[1] for i in range(steps)]
    values = sessions[1].run([w, b, global_step])
    for sess in sessions:
        sess.close()
    return losses, values


def test_training_across_loopback_ps_tasks_gives_the_in_process_cluster_numbers():
    cluster = _cluster(2, 2)
    ps, workers = _servers(cluster)

    def loopback_target(i):
        return workers[i].target
    loopback_target.cluster = cluster
    losses, (w, b, step) = _train(loopback_target)
    tf.reset_default_graph()

    local_workers, local_ps = tf.test.create_local_cluster(num_workers=2, num_ps=2)
    local_cluster = tf.train.ClusterSpec({"ps": [s.target[len("grpc://"):] for s in local_ps],
                                          "worker": [s.target[len("grpc://"):] for s in local_workers]})

    def local_target(i):
        return local_workers[i].target
    local_target.cluster = local_cluster
    expected_losses, (expected_w, expected_b, expected_step) = _train(local_target)
    np.testing.assert_array_equal(losses, expected_losses)
    np.testing.assert_array_equal(w, expected_w)
    np.testing.assert_array_equal(b, expected_b)
    assert step == expected_step == 4
    # By hand: the first step from zeros has loss mean(y^2).
    assert losses[0] == pytest.approx(float(np.mean(_data()[1] ** 2)), rel=1e-6)
    for server in ps + workers + local_ps + local_workers:
        server.stop()


def _calls(monkeypatch):
    """Count the partition runs each ps task receives."""
    calls = []
    submit = partition.RemoteTask.submit

    def counting(self, key, blob, step_id, inputs):
        calls.append(self.name)
        return submit(self, key, blob, step_id, inputs)
    monkeypatch.setattr(partition.RemoteTask, "submit", counting)
    return calls


def test_a_step_calls_each_ps_once_per_stage_and_registers_each_partition_once(monkeypatch):
    cluster = _cluster(1, 1)
    ps, workers = _servers(cluster)
    x, y, w, b, loss, global_step, train_op = _model(cluster)
    data_x, data_y = _data()
    with tf.Session(workers[0].target) as sess:
        sess.run(tf.global_variables_initializer())
        # The initial values (zeros_initializer, a callable) are built in their variables' colocation
        # groups, as TensorFlow does: the whole init is one partition on the ps, nothing on the worker.
        init_plan = list(sess._plans.values())[-1]
        assert [len(stage.partitions) for stage in init_plan.stages] == [1]
        assert {device.job for device in init_plan.placements.values()} == {"ps"}
        calls = _calls(monkeypatch)
        for _ in range(3):
            sess.run(train_op, {x: data_x, y: data_y})
        # One ps holds everything: its variables' reads, then the updates and the step increment
        # (the optimizer's update group runs on the ps too): two calls a step.
        assert calls == ["/job:ps/replica:0/task:0"] * 6
        plan = list(sess._plans.values())[-1]
        assert [len(stage.partitions) for stage in plan.stages] == [1, 0, 1]
    registered = ps[0]._remote._runner._runner._partitions
    # init's one, and the step's two
    assert len(registered) == 3
    for server in ps + workers:
        server.stop()


def test_partitions_of_different_ps_tasks_run_at_once():
    cluster = _cluster(2, 1)
    ps, workers = _servers(cluster)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        a = tf.get_variable("a", [], initializer=tf.ones_initializer())
        b = tf.get_variable("b", [], initializer=tf.ones_initializer())
    assert {a.device, b.device} == {"/job:ps/task:0", "/job:ps/task:1"}
    tasks = [s._remote._runner._runner for s in ps]
    barrier = threading.Barrier(2, timeout=10)
    for task in tasks:  # each ps's run waits for the other's: they must overlap
        run = task.run
        task.run = lambda *args, _run=run: (barrier.wait(), _run(*args))[1]
    with tf.Session(workers[0].target) as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([a, b]) == [1.0, 1.0]
    for server in ps + workers:
        server.stop()


def test_a_queue_handle_stays_on_its_ps_and_a_waiting_dequeue_lets_an_enqueue_through():
    cluster = _cluster(1, 2)
    ps, workers = _servers(cluster)
    graphs, queues = [tf.Graph(), tf.Graph()], []
    for graph in graphs:
        with graph.as_default(), tf.device("/job:ps/task:0"):
            queues.append(tf.FIFOQueue(1, tf.int64, shared_name="handoff"))
    with graphs[0].as_default():  # the value comes from the worker: the enqueue is a later stage on the ps
        enqueue = queues[0].enqueue(tf.constant(7, tf.int64))
    with graphs[1].as_default():
        dequeue = queues[1].dequeue()
    dequeued = []
    with tf.Session(workers[1].target, graph=graphs[1]) as waiting, \
            tf.Session(workers[0].target, graph=graphs[0]) as filling:
        thread = threading.Thread(target=lambda: dequeued.append(waiting.run(dequeue)))
        thread.start()
        filling.run(enqueue)
        thread.join(10)
    assert dequeued == [7]
    for server in ps + workers:
        server.stop()


def test_an_error_on_a_ps_is_raised_as_its_class_naming_the_workers_op():
    cluster = _cluster(1, 1)
    ps, workers = _servers(cluster)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable([1.0, 2.0], name="v")
        bad = tf.scatter_update(v, [5], [3.0])
    with tf.Session(workers[0].target) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v") as info:
            sess.run(v.read_value() * 2.0)
        assert info.value.op is not None and info.value.op.graph is tf.get_default_graph()
        sess.run(v.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match="5") as info:
            sess.run(bad)
        assert info.value.op is bad.op
        assert list(sess.run(v)) == [1.0, 2.0]
    for server in ps + workers:
        server.stop()


def test_a_stopped_ps_is_unavailable_and_a_restarted_one_aborts_stale_sessions():
    cluster = _cluster(1, 1)
    ps, workers = _servers(cluster)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(3.0, name="v")
        inc = v.assign_add(1.0)
    stale = tf.Session(workers[0].target)
    stale.run(v.initializer)
    assert stale.run(inc) == 4.0
    ps[0].stop()
    with pytest.raises(tf.errors.UnavailableError, match="/job:ps/replica:0/task:0"):
        stale.run(inc)
    restarted = tf.train.Server(cluster, "ps", 0, protocol="loopback")
    with pytest.raises(tf.errors.AbortedError, match="/job:ps/replica:0/task:0 restarted"):
        stale.run(inc)
    with tf.Session(workers[0].target) as fresh:  # the restarted task's variables are uninitialized
        assert list(fresh.run(tf.report_uninitialized_variables())) == [b"v"]
        fresh.run(v.initializer)
        assert fresh.run(inc) == 4.0
    stale.close()
    for server in [restarted] + workers:
        server.stop()


def test_a_ps_that_never_starts_gives_a_deadline_error_naming_it():
    cluster = _cluster(1, 1)
    worker = tf.train.Server(cluster, "worker", 0, protocol="loopback")
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    config = tf.ConfigProto(operation_timeout_in_ms=300)
    with tf.Session(worker.target, config=config) as sess:
        with pytest.raises(tf.errors.DeadlineExceededError, match="/job:ps/replica:0/task:0"):
            sess.run(v.initializer)
    worker.stop()


def test_a_session_waits_only_for_the_tasks_its_graph_uses():
    cluster = _cluster(2, 1)
    ps0 = tf.train.Server(cluster, "ps", 0, protocol="loopback")  # ps 1 never starts
    worker = tf.train.Server(cluster, "worker", 0, protocol="loopback")
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    with tf.Session(worker.target, config=tf.ConfigProto(operation_timeout_in_ms=300)) as sess:
        sess.run(v.initializer)
        assert sess.run(v + 1.0) == 2.0
    ps0.stop()
    worker.stop()


def test_a_ps_join_returns_once_every_worker_is_done():
    cluster = _cluster(1, 2)
    ps, workers = _servers(cluster)
    joined = threading.Event()
    thread = threading.Thread(target=lambda: (ps[0].join(), joined.set()))
    thread.start()
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    for worker in workers:
        with tf.Session(worker.target) as sess:
            sess.run(v.initializer)
    workers[0].stop()
    assert not joined.wait(0.5)
    workers[1].stop()
    assert joined.wait(10)
    thread.join()
    ps[0].stop()


def test_an_update_placed_away_from_its_variable_is_refused_naming_it():
    cluster = _cluster(1, 1)
    ps, workers = _servers(cluster)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    graph = tf.get_default_graph()
    with tf.device("/job:worker/task:0"):  # no colocation with v: built as no numflow function builds it
        assign = graph.create_op("Assign", [v._variable, tf.constant(2.0)], {"validate_shape": True,
                                                                              "use_locking": True}, name="away")
    with tf.Session(workers[0].target) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="away .*variable v"):
            sess.run(assign)
    for server in ps + workers:
        server.stop()


def test_an_unknown_protocol_is_refused():
    with pytest.raises(ValueError, match="Unknown server protocol 'carrier-pigeon'"):
        cluster_server.backend_for("carrier-pigeon")


def test_a_non_chief_waits_for_the_chiefs_init_with_backoff_not_the_whole_recovery_wait():
    cluster = _cluster(1, 2)
    ps, workers = _servers(cluster)
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(5.0, name="v")
    manager = tf.train.SessionManager(ready_op=tf.report_uninitialized_variables())  # recovery_wait_secs=30
    result = {}
    waiter = threading.Thread(target=lambda: result.update(sess=manager.wait_for_session(workers[1].target)))
    waiter.start()
    with tf.Session(workers[0].target) as chief:
        chief.run(v.initializer)
    waiter.join(10)  # well before one recovery_wait_secs sleep would end
    assert not waiter.is_alive()
    assert result["sess"].run(v) == 5.0
    result["sess"].close()
    for server in ps + workers:
        server.stop()


def test_monitored_training_restores_the_last_checkpoint_when_its_ps_comes_back(tmp_path):
    cluster = _cluster(1, 1)
    ps, workers = _servers(cluster)
    x, y, w, b, loss, global_step, train_op = _model(cluster)
    data_x, data_y = _data()
    restarted = []
    with tf.train.MonitoredTrainingSession(master=workers[0].target, is_chief=True, checkpoint_dir=str(tmp_path),
                                           save_checkpoint_steps=3, save_summaries_steps=None) as sess:
        for _ in range(4):
            sess.run(train_op, {x: data_x, y: data_y})
        prefix = tf.train.latest_checkpoint(str(tmp_path))
        reader = tf.train.NewCheckpointReader(prefix)
        assert reader.get_tensor("global_step") == 3
        ps[0].stop()  # the ps dies with the values of step 4; one comes back 0.3 s later, empty
        timer = threading.Timer(0.3, lambda: restarted.append(tf.train.Server(cluster, "ps", 0, protocol="loopback")))
        timer.start()
        # The run meets UnavailableError, re-creates the session, and the chief restores step 3.
        assert sess.run(global_step) == 3
        np.testing.assert_array_equal(sess.run(w), reader.get_tensor("w"))
        sess.run(train_op, {x: data_x, y: data_y})
        assert sess.run(global_step) == 4
    timer.join()
    for server in restarted + workers:
        server.stop()


def test_uninitialized_variables_of_several_ps_tasks_are_reported_and_each_fetch_list_is_its_own_partition():
    cluster = _cluster(2, 1)
    ps, workers = _servers(cluster)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        a = tf.Variable(1.0, name="a")
        b = tf.Variable(2.0, name="b")
    assert {a.device, b.device} == {"/job:ps/task:0", "/job:ps/task:1"}
    report = tf.report_uninitialized_variables()
    a_ready = tf.is_variable_initialized(a)
    with tf.Session(workers[0].target) as sess:
        assert list(sess.run(report)) == [b"a", b"b"]
        sess.run(a.initializer)
        assert list(sess.run(report)) == [b"b"]
        # The same ops on a ps with other fetches: registered apart, each answering its own fetches.
        assert sess.run(a_ready)
        assert sess.run([a, a_ready]) == [1.0, True]
    for server in ps + workers:
        server.stop()
