"""Placement: where ops run, colocation with variables, soft placement on and off, the device log."""

import threading
import warnings

import numpy as np
import pytest

import numflow as tf
from numflow.runtime.placement import PlacementWarning

CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _placements(sess, fetch):
    sess.run(fetch)
    plan = next(iter(sess._plans.values()))
    return {op.name: device.name for op, device in plan.placements.items()}


def test_unplaced_ops_run_on_cpu0_and_list_devices():
    c = tf.constant(1.0) + 2.0
    with tf.Session() as sess:
        assert CPU0 in [d.name for d in sess.list_devices()]
        assert set(_placements(sess, c).values()) == {CPU0}


def test_guide_pin_to_cpu():
    with tf.device("/cpu:0"):
        v = tf.Variable([1.0], name="v")
    assert v.device == "/device:CPU:0"
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(v) == [1.0]


def test_variable_ops_are_colocated_and_ignore_other_device_scopes():
    with tf.device("/job:ps/task:7"):
        v = tf.Variable([1.0], name="v")
    with tf.device("/job:worker/task:0"):
        update = v.assign_add([1.0])
        read = v.read_value()
    assert v.initializer.device == "/job:ps/task:7"
    assert update.device == "/job:ps/task:7"
    assert update.op.colocation_groups() == [b"loc:@v"]
    assert read.device == "/job:worker/task:0"


def test_soft_placement_moves_missing_gpu_ops_to_cpu_with_one_warning():
    with tf.device("/device:GPU:1"):
        v = tf.get_variable("v", [1], initializer=tf.ones_initializer())
        doubled = v * 2.0
    with tf.Session() as sess:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sess.run(v.initializer)
            assert sess.run(doubled) == [2.0]
            sess.run(doubled)
    messages = [str(w.message) for w in caught if issubclass(w.category, PlacementWarning)]
    assert len(messages) == 2  # one per plan built: the initializer's, the fetch's
    assert "v (VariableV2): /device:GPU:1 -> " + CPU0 in messages[0]


def test_strict_placement_names_op_device_and_the_devices_available():
    with tf.device("/device:GPU:1"):
        c = tf.constant(1.0, name="c")
    with tf.Session(config=tf.ConfigProto(allow_soft_placement=False)) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(c)
    message = str(info.value)
    assert message.startswith("Cannot assign a device for operation c: c was explicitly assigned to /device:GPU:1")
    assert f"available devices are [ {CPU0}" in message
    assert "allow_soft_placement=True" in message


def test_job_and_task_are_never_relaxed():
    with tf.device("/job:ps/task:0"):
        v = tf.Variable([1.0], name="v")
    with tf.Session() as sess:
        expected = r"v(/initial_value)? was explicitly assigned to /job:ps/task:0 but available devices are \[ /job:lo"
        with pytest.raises(tf.errors.InvalidArgumentError, match=expected):
            sess.run(v.initializer)


def test_log_device_placement_prints_each_op_once_per_plan(capsys):
    a = tf.constant(2.0, name="a")
    b = tf.multiply(a, 3.0, name="b")
    with tf.Session(config=tf.ConfigProto(log_device_placement=True)) as sess:
        sess.run(b)
        sess.run(b)
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted([f"a: (Const): {CPU0}", f"b/y: (Const): {CPU0}", f"b: (Mul): {CPU0}"])


def test_guide_replica_device_setter_example_places_variables_on_ps():
    cluster_spec = {
        "ps": ["ps0:2222", "ps1:2222"],
        "worker": ["worker0:2222", "worker1:2222", "worker2:2222"]}
    with tf.device(tf.train.replica_device_setter(cluster=cluster_spec)):
        v = tf.get_variable("v", shape=[20, 20])
        w = tf.get_variable("w", shape=[20, 20])
        y = tf.matmul(v, w)
    assert (v.device, w.device, y.device) == ("/job:ps/task:0", "/job:ps/task:1", "/job:worker")
    assert v.initializer.device == "/job:ps/task:0"


def test_a_callable_initial_value_is_built_on_no_device_in_its_variables_group_and_runs_on_its_ps():
    # What TensorFlow 2.21 gives (its op.device, colocation_groups() and NodeDef _class, printed): the
    # ops of a callable initial value ask for no device and join the variable's group (the variable
    # op carries the _class too), so they run where the variable lives; a tensor initial value is
    # built where the device scope says, in its own group.
    workers, ps = tf.test.create_local_cluster(num_workers=1, num_ps=2)
    cluster = {"ps": [s.target[len("grpc://"):] for s in ps], "worker": [workers[0].target[len("grpc://"):]]}
    with tf.device("/job:ps/task:1"):
        a = tf.get_variable("a", [3, 2], initializer=tf.glorot_uniform_initializer())
        b = tf.Variable(tf.random_normal([3]), name="b")
    with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:0")):
        c = tf.Variable(lambda: tf.random_normal([3]), name="c")
        with tf.colocate_with(a):  # an enclosing colocation wins, as for an optimizer's slots
            u = tf.get_variable("u", [2], initializer=tf.zeros_initializer())
    graph = tf.get_default_graph()
    uniform = graph.get_operation_by_name("a/Initializer/random_uniform")
    assert (uniform.device, uniform.colocation_groups(), uniform.get_attr("_class")) == ("", [b"loc:@a"], [b"loc:@a"])
    assert a.op.get_attr("_class") == [b"loc:@a"] and a.device == "/job:ps/task:1"
    normal = graph.get_operation_by_name("c/Initializer/random_normal")
    assert (normal.device, normal.colocation_groups()) == ("", [b"loc:@c"])
    assert c.device == "/job:ps/task:0"
    zeros = u.initial_value.op
    assert (zeros.device, zeros.colocation_groups(), u.op.colocation_groups()) == ("/job:ps/task:1", [b"loc:@a"],
                                                                                   [b"loc:@a"])
    tensor = b.initial_value.op
    assert (tensor.device, tensor.colocation_groups()) == ("/job:ps/task:1", [f"loc:@{tensor.name}".encode()])
    with tf.Session(workers[0].target) as sess:
        placements = _placements(sess, tf.global_variables_initializer())
    assert placements["a/Initializer/random_uniform"].startswith("/job:ps/replica:0/task:1/")
    assert placements["c/Initializer/random_normal"].startswith("/job:ps/replica:0/task:0/")
    assert placements[tensor.name].startswith("/job:ps/replica:0/task:1/")


def test_local_cluster_shares_ps_variables_across_worker_sessions():
    workers, ps = tf.test.create_local_cluster(num_workers=3, num_ps=2)
    assert len(workers) == 3 and len(ps) == 2
    with tf.device("/job:ps/task:1"):
        counter = tf.Variable(0, name="counter")
    with tf.device("/job:worker/task:0"):
        local = tf.Variable(0, name="local")
    increment = counter.assign_add(1).op
    with tf.Session(workers[0].target) as sess:
        sess.run(tf.global_variables_initializer())

    def work(i):
        sess = tf.Session(workers[i % 3].target)
        for _ in range(100):
            sess.run(increment)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with tf.Session(workers[2].target) as sess:
        assert sess.run(counter) == 600
        assert sess.run(local) == 0
    with tf.Session() as local_sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="/job:ps/task:1"):
            local_sess.run(counter.initializer)


def test_two_local_sessions_hold_separate_values():
    v = tf.Variable(1.0, name="v")
    a, b = tf.Session(), tf.Session()
    a.run(v.initializer)
    b.run(v.initializer)
    a.run(v.assign(5.0))
    assert (a.run(v), b.run(v)) == (5.0, 1.0)


def test_create_local_server_target_runs_a_graph():
    server = tf.train.Server.create_local_server()
    v = tf.Variable(np.arange(3.0), name="v")
    with tf.Session(server.target) as sess:
        sess.run(v.initializer)
        assert [d.name for d in sess.list_devices()][0] == "/job:local/replica:0/task:0/device:CPU:0"
    with tf.Session(server.target) as sess:
        np.testing.assert_array_equal(sess.run(v), [0.0, 1.0, 2.0])


def test_unknown_target_says_how_to_create_a_server():
    with pytest.raises(tf.errors.UnavailableError, match=r"tf.train.Server"):
        tf.Session("grpc://nowhere:1")
