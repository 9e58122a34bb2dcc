"""Sharded checkpoints of variables on ps tasks (loopback transport): each task writes its own data
file, the caller the merged index, in TensorFlow's format. The golden tf_sharded/ was written by
TensorFlow 2.21 over two ps tasks (data/make_sharded_golden.py)."""

import itertools
import json
import os
from pathlib import Path

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint.bundle_reader import BundleReader

DATA = Path(__file__).parent / "data"
GOLDEN = json.loads((DATA / "tf_sharded.json").read_text())
_clusters = itertools.count()


@pytest.fixture
def servers():
    started = []

    def start(num_ps):
        n = next(_clusters)
        cluster = tf.train.ClusterSpec({"ps": [f"ps{i}.shard{n}:1" for i in range(num_ps)],
                                        "worker": [f"worker0.shard{n}:1"]})
        started.extend(tf.train.Server(cluster, "ps", i, protocol="loopback") for i in range(num_ps))
        worker = tf.train.Server(cluster, "worker", 0, protocol="loopback")
        started.append(worker)
        return cluster, worker
    yield start
    for server in started:
        server.stop()


def _golden_model(cluster, initial=True):
    values = GOLDEN["values"]
    dtypes = {"a": np.float32, "b": np.int64, "c": np.float32, "layer/d": np.float64}
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        variables = [tf.get_variable(name, initializer=np.asarray(values[name], dtypes[name])
                                     if initial else np.zeros(np.shape(values[name]), dtypes[name]))
                     for name in ("a", "b", "c", "layer/d")]
    return variables


def _check_golden_values(sess, variables):
    for v, got in zip(variables, sess.run(variables)):
        np.testing.assert_array_equal(got, np.asarray(GOLDEN["values"][v.op.name], got.dtype))


def test_a_sharded_save_over_two_ps_writes_tensorflows_files_byte_for_byte(servers, tmp_path):
    cluster, worker = servers(2)
    variables = _golden_model(cluster)
    assert {v.op.name: v.device for v in variables} == GOLDEN["devices"]
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        prefix = tf.train.Saver(sharded=True).save(sess, str(tmp_path / "model"), global_step=7,
                                                   write_meta_graph=False)
    assert prefix == str(tmp_path / "model-7")
    written = sorted(p for p in os.listdir(tmp_path) if p != "checkpoint")
    assert written == GOLDEN["files"]
    for name in written:
        assert (tmp_path / name).read_bytes() == (DATA / "tf_sharded" / name).read_bytes(), name


@pytest.mark.parametrize("num_ps", [1, 3])
def test_tensorflows_sharded_checkpoint_restores_onto_another_number_of_ps_tasks(servers, num_ps):
    cluster, worker = servers(num_ps)
    variables = _golden_model(cluster, initial=False)
    with tf.Session(worker.target) as sess:
        tf.train.Saver(sharded=True).restore(sess, str(DATA / "tf_sharded" / "model-7"))
        _check_golden_values(sess, variables)


def test_a_checkpoint_of_two_ps_and_the_worker_restores_onto_three_ps(servers, tmp_path):
    cluster, worker = servers(2)
    variables = _golden_model(cluster)
    local = tf.Variable([4.0, 5.0], name="local")  # on the worker: the last shard
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        prefix = tf.train.Saver(sharded=True).save(sess, str(tmp_path / "model"))
    with BundleReader(prefix) as reader:
        assert reader.num_shards == 3
        assert reader.entry("local").shard_id == 2
        assert [reader.entry(n).shard_id for n in ("a", "b", "c", "layer/d")] == [0, 1, 0, 1]
    tf.reset_default_graph()
    cluster, worker = servers(3)
    variables = _golden_model(cluster, initial=False)
    local = tf.Variable([0.0, 0.0], name="local")
    with tf.Session(worker.target) as sess:
        tf.train.Saver(sharded=True).restore(sess, prefix)
        _check_golden_values(sess, variables)
        assert list(sess.run(local)) == [4.0, 5.0]


def test_a_non_sharded_checkpoint_is_read_here_and_sent_to_the_ps_tasks(servers, tmp_path):
    prefix = str(tmp_path / "plain")
    with tf.Graph().as_default():
        values = GOLDEN["values"]
        tf.Variable(np.float32(values["a"]), name="a")
        tf.Variable(np.int64(values["b"]), name="b")
        tf.Variable(np.float32(values["c"]), name="c")
        tf.Variable(np.float64(values["layer/d"]), name="layer/d")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, prefix, write_meta_graph=False)
    cluster, worker = servers(2)
    variables = _golden_model(cluster, initial=False)
    with tf.Session(worker.target) as sess:
        tf.train.Saver().restore(sess, prefix)
        _check_golden_values(sess, variables)


def test_saving_an_uninitialized_ps_variable_names_it_and_restoring_a_wrong_shape_changes_nothing(servers,
                                                                                                   tmp_path):
    cluster, worker = servers(2)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        a = tf.get_variable("a", initializer=np.zeros((2, 2), np.float32))
    with tf.Session(worker.target) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value a"):
            tf.train.Saver(sharded=True).save(sess, str(tmp_path / "m"))
        sess.run(a.initializer)
        with pytest.raises(tf.errors.InvalidArgumentError, match="shapes of both tensors to match"):
            tf.train.Saver(sharded=True).restore(sess, str(DATA / "tf_sharded" / "model-7"))
        np.testing.assert_array_equal(sess.run(a), np.zeros((2, 2)))


@pytest.mark.tensorflow
def test_tensorflow_reads_a_sharded_checkpoint_written_by_ps_tasks(servers, tmp_path):
    real_tf = pytest.importorskip("tensorflow")
    cluster, worker = servers(2)
    variables = _golden_model(cluster)
    tf.Variable([4.0, 5.0], name="local")
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        prefix = tf.train.Saver(sharded=True).save(sess, str(tmp_path / "model"))
    reader = real_tf.train.load_checkpoint(prefix)
    for v in variables:
        np.testing.assert_array_equal(reader.get_tensor(v.op.name), GOLDEN["values"][v.op.name])
    np.testing.assert_array_equal(reader.get_tensor("local"), [4.0, 5.0])


PARTITIONED = np.arange(12, dtype=np.float32).reshape(6, 2) / 8  # as data/make_sharded_golden.py


def _partitioned_model(cluster, initial=True):
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        emb = tf.get_variable("emb", shape=PARTITIONED.shape, initializer=tf.zeros_initializer(),
                              partitioner=tf.fixed_size_partitioner(3))
        bias = tf.get_variable("bias", initializer=np.array([0.5, -1.5] if initial else [0.0, 0.0], np.float32))
    return emb, bias


def test_a_variable_in_parts_over_two_ps_saves_as_tensorflow_writes_it_byte_for_byte(servers, tmp_path):
    cluster, worker = servers(2)
    emb, _ = _partitioned_model(cluster)
    assert [part.device for part in emb] == ["/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:0"]
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([part.assign(PARTITIONED[2 * i:2 * i + 2]) for i, part in enumerate(emb)])
        tf.train.Saver(sharded=True).save(sess, str(tmp_path / "model"), write_meta_graph=False)
    golden = DATA / "tf_sharded_partitioned"
    assert sorted(p for p in os.listdir(tmp_path) if p != "checkpoint") == sorted(os.listdir(golden))
    for name in os.listdir(golden):
        assert (tmp_path / name).read_bytes() == (golden / name).read_bytes(), name


@pytest.mark.parametrize("num_ps", [1, 3])
def test_tensorflows_checkpoint_of_a_variable_in_parts_restores_onto_another_number_of_ps(servers, num_ps):
    cluster, worker = servers(num_ps)
    emb, bias = _partitioned_model(cluster, initial=False)
    with tf.Session(worker.target) as sess:
        tf.train.Saver(sharded=True).restore(sess, str(DATA / "tf_sharded_partitioned" / "model"))
        np.testing.assert_array_equal(sess.run(tf.concat(list(emb), 0)), PARTITIONED)
        np.testing.assert_array_equal(sess.run(bias), [0.5, -1.5])


def test_a_part_whose_slice_does_not_fit_the_stored_variable_restores_nothing(servers):
    cluster, worker = servers(2)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        emb = tf.get_variable("emb", shape=[4, 2], initializer=tf.ones_initializer(),
                              partitioner=tf.fixed_size_partitioner(2))
        bias = tf.get_variable("bias", initializer=np.array([7.0, 7.0], np.float32))
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"tensor_name = emb; shape in shape_and_slice spec "
                           r"\[4,2\] does not match the shape stored in checkpoint: \[6,2\]"):
            tf.train.Saver(sharded=True).restore(sess, str(DATA / "tf_sharded_partitioned" / "model"))
        np.testing.assert_array_equal(sess.run(tf.concat(list(emb), 0)), np.ones((4, 2)))
        np.testing.assert_array_equal(sess.run(bias), [7.0, 7.0])


@pytest.mark.parametrize("sharded", [True, False])
def test_a_restore_that_fails_on_one_ps_changes_no_variable_on_any_ps(servers, tmp_path, sharded):
    """ps0's variable restores cleanly, ps1's has the wrong shape: ps0's keeps its value too."""
    cluster, worker = servers(2)
    with tf.device(tf.train.replica_device_setter(cluster=cluster)):
        a = tf.get_variable("a", initializer=np.full((2, 3), 9.0, np.float32))
        b = tf.get_variable("b", initializer=np.array([1, 2], np.int64))
    assert (a.device, b.device) == ("/job:ps/task:0", "/job:ps/task:1")
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"variable b\): lhs shape= \[2\] rhs shape= \[4\]"):
            tf.train.Saver(sharded=sharded).restore(sess, str(DATA / "tf_sharded" / "model-7"))
        np.testing.assert_array_equal(sess.run(a), np.full((2, 3), 9.0))
        np.testing.assert_array_equal(sess.run(b), [1, 2])


@pytest.mark.tensorflow
def test_tensorflow_reads_a_variable_in_parts_that_two_ps_saved(servers, tmp_path):
    real_tf = pytest.importorskip("tensorflow")
    cluster, worker = servers(2)
    emb, _ = _partitioned_model(cluster)
    with tf.Session(worker.target) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([part.assign(PARTITIONED[2 * i:2 * i + 2] + 1) for i, part in enumerate(emb)])
        prefix = tf.train.Saver(sharded=True).save(sess, str(tmp_path / "model"))
    reader = real_tf.train.load_checkpoint(prefix)
    np.testing.assert_array_equal(reader.get_tensor("emb"), PARTITIONED + 1)
    np.testing.assert_array_equal(reader.get_tensor("bias"), [0.5, -1.5])
