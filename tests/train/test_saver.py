"""train.Saver: the guide's save/restore examples (spec 004), retention, errors, failed saves."""

import os

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint.bundle_reader import BundleReader


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _two_variables():
    v1 = tf.Variable(tf.constant([1.0, 2.0, 3.0]), name="v1")
    v2 = tf.Variable(tf.constant([[4, 5]], dtype=tf.int32), name="v2")
    return v1, v2


def test_guide_save_then_restore_without_initializing(tmp_path):
    v1, v2 = _two_variables()
    init_op = tf.global_variables_initializer()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(init_op)
        sess.run(v1.assign_add([10.0, 10.0, 10.0]))
        save_path = saver.save(sess, str(tmp_path / "model.ckpt"))
    assert save_path == str(tmp_path / "model.ckpt")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model.ckpt.data-00000-of-00001", "model.ckpt.index",
                                            "model.ckpt.meta"]
    with BundleReader(save_path) as reader:
        assert reader.keys() == ["v1", "v2"]
        np.testing.assert_array_equal(reader.get_tensor("v1"), [11.0, 12.0, 13.0])
    with tf.Session() as sess:
        saver.restore(sess, save_path)
        np.testing.assert_array_equal(sess.run(v1), [11.0, 12.0, 13.0])
        np.testing.assert_array_equal(sess.run(v2), [[4, 5]])


def test_guide_saving_a_subset_under_another_name(tmp_path):
    v1, v2 = _two_variables()
    saver = tf.train.Saver({"my_v2": v2})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "model.ckpt"))
    with BundleReader(path) as reader:
        assert reader.keys() == ["my_v2"]
    tf.reset_default_graph()
    params = tf.Variable([[0, 0]], name="params")
    other = tf.Variable(tf.ones([3]), name="other")
    with tf.Session() as sess:
        tf.train.Saver({"my_v2": params}).restore(sess, path)
        sess.run(tf.variables_initializer([other]))
        np.testing.assert_array_equal(sess.run(params), [[4, 5]])
        np.testing.assert_array_equal(sess.run(other), [1.0, 1.0, 1.0])


def test_global_step_prefixes_state_file_and_max_to_keep(tmp_path):
    v1, _ = _two_variables()
    step = tf.Variable(0, dtype=tf.int64, name="global_step", trainable=False)
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(4):
            sess.run(step.assign(i + 1))
            last = saver.save(sess, str(tmp_path / "model"), global_step=step)
    assert last == str(tmp_path / "model-4")
    assert saver.last_checkpoints == [str(tmp_path / "model-3"), str(tmp_path / "model-4")]
    assert not os.path.exists(tmp_path / "model-1.index") and not os.path.exists(tmp_path / "model-2.index")
    state = (tmp_path / "checkpoint").read_text()
    assert state == (f'model_checkpoint_path: "{tmp_path}/model-4"\n'
                     f'all_model_checkpoint_paths: "{tmp_path}/model-3"\n'
                     f'all_model_checkpoint_paths: "{tmp_path}/model-4"\n')
    assert tf.train.latest_checkpoint(str(tmp_path)) == str(tmp_path / "model-4")
    assert tf.train.load_checkpoint(str(tmp_path)).get_tensor("global_step") == 4


def test_restore_missing_path_and_none():
    _two_variables()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="Can't load save_path when it is None."):
            saver.restore(sess, None)
        with pytest.raises(ValueError, match="The passed save_path is not a valid checkpoint: /nonexistent/x"):
            saver.restore(sess, "/nonexistent/x")


def test_restore_missing_key_names_it_and_the_fix(tmp_path):
    _two_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    tf.reset_default_graph()
    tf.Variable([0.0, 0.0, 0.0], name="weights")
    tf.Variable([[0, 0]], name="v2")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.NotFoundError) as info:
            tf.train.Saver().restore(sess, path)
    message = str(info.value)
    assert message.startswith("Restoring from checkpoint failed. This is most likely due to a Variable name")
    assert "Key weights not found in checkpoint" in message
    assert "1 of 2 variables matched" in message
    assert "tf.train.Saver(var_list={'v1':" in message


def test_restore_dtype_and_shape_mismatch_change_nothing(tmp_path):
    _two_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    tf.reset_default_graph()
    tf.Variable([0, 0, 0], name="v1")
    v2 = tf.Variable([[0, 0]], name="v2")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="tensor_name = v1; expected dtype int32 does not equal original dtype float"):
            tf.train.Saver().restore(sess, path)
        np.testing.assert_array_equal(sess.run(v2), [[0, 0]])
    tf.reset_default_graph()
    tf.Variable([0.0, 0.0], name="v1")
    tf.Variable([[0, 0]], name="v2")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Assign requires shapes of both tensors to match. lhs shape= \[2\] rhs shape= \[3\]"):
            tf.train.Saver().restore(sess, path)


def test_failed_save_keeps_the_last_good_checkpoint(tmp_path, monkeypatch):
    v1, _ = _two_variables()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        good = saver.save(sess, str(tmp_path / "m"))
        sess.run(v1.assign([7.0, 7.0, 7.0]))
        from numflow.checkpoint import bundle

        def broken_add(self, name, value, shard_id=0, dtype=None):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(bundle.BundleWriter, "add", broken_add)
        with pytest.raises(tf.errors.ResourceExhaustedError, match="No space left on device"):
            saver.save(sess, str(tmp_path / "m"))
        monkeypatch.undo()
        assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m.data-00000-of-00001", "m.index", "m.meta"]
        sess.run(v1.assign([0.0, 0.0, 0.0]))
        saver.restore(sess, good)
        np.testing.assert_array_equal(sess.run(v1), [1.0, 2.0, 3.0])


def test_saving_uninitialized_variable_fails_and_writes_nothing(tmp_path):
    _two_variables()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value v1"):
            tf.train.Saver().save(sess, str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []


def test_variables_on_ps_tasks_save_and_restore_through_the_host(tmp_path):
    workers, _ = tf.test.create_local_cluster(1, 2)
    with tf.device("/job:ps/task:1"):
        v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver()
    with tf.Session(workers[0].target) as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "ps"))
        sess.run(v.assign([0.0, 0.0]))
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
