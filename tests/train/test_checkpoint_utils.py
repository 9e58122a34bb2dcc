"""tf.train.init_from_checkpoint in each form of its assignment map, read from a checkpoint TensorFlow wrote
(``tests/golden/checkpoints/partitioned``: ``pv`` [8, 3] saved in two slices, and ``plain``), with
TensorFlow's op names and errors; checkpoints_iterator, get_checkpoint_mtimes, remove_checkpoint and
basic_train_loop."""

import os
import pathlib

import numpy as np
import pytest

import numflow as tf

GOLDEN = pathlib.Path(__file__).parents[1] / "golden" / "checkpoints" / "partitioned"
PREFIX = str(GOLDEN / "model")
VALUES = np.load(GOLDEN / "values.npz")


def _initialized(fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


def test_scope_to_scope_into_partitioned_and_plain_variables():
    with tf.Graph().as_default():
        with tf.variable_scope("new"):
            pv = tf.get_variable("pv", [8, 3], partitioner=tf.fixed_size_partitioner(3))
            plain = tf.get_variable("plain", [])
        other = tf.get_variable("other", initializer=5.0)
        tf.train.init_from_checkpoint(PREFIX, {"/": "new/"})
        parts = list(pv)
        got = _initialized([tf.concat(parts, 0), plain, other])
    np.testing.assert_array_equal(got[0], VALUES["pv"])
    assert got[1] == VALUES["plain"] and got[2] == 5.0


def test_names_variables_and_lists_of_parts():
    with tf.Graph().as_default():
        with tf.variable_scope("a"):
            whole = tf.get_variable("whole", [8, 3])
            by_name = tf.get_variable("by_name", [])
        parts = tf.get_variable("parts", [8, 3], partitioner=tf.fixed_size_partitioner(2))
        tf.train.init_from_checkpoint(PREFIX, [("pv", whole), ("plain", "a/by_name")])
        tf.train.init_from_checkpoint(PREFIX, {"pv": list(parts)})
        got = _initialized([whole, by_name, tf.concat(list(parts), 0)])
    np.testing.assert_array_equal(got[0], VALUES["pv"])
    np.testing.assert_array_equal(got[2], VALUES["pv"])
    assert got[1] == VALUES["plain"]


def test_partitioned_variable_by_name_and_object():
    for target in ("p", None):
        with tf.Graph().as_default():
            p = tf.get_variable("p", [8, 3], partitioner=tf.fixed_size_partitioner(4))
            tf.train.init_from_checkpoint(PREFIX, {"pv": target or p})
            np.testing.assert_array_equal(_initialized(tf.concat(list(p), 0)), VALUES["pv"])


def test_tensorflows_op_names_and_device():
    with tf.Graph().as_default():
        x = tf.get_variable("x", [])
        y = tf.get_variable("y", [8, 3])
        tf.train.init_from_checkpoint(PREFIX, {"plain": x, "pv": y})
        # sorted by checkpoint name: plain first, as TensorFlow orders them
        assert x.initial_value.name == "checkpoint_initializer:0"
        assert y.initial_value.name == "checkpoint_initializer_1:0"
        assert y.initial_value.shape.as_list() == [8, 3]
        assert y.initial_value.device == "/device:CPU:0"
        assert [i.name for i in x.initial_value.op.inputs] == [
            "checkpoint_initializer/prefix:0", "checkpoint_initializer/tensor_names:0",
            "checkpoint_initializer/shape_and_slices:0"]
        assert (x.initializer.type, y.initializer.name) == ("Assign", "Assign_1")


def test_a_directory_reads_its_newest_checkpoint(tmp_path):
    with tf.Graph().as_default():
        v = tf.get_variable("v", initializer=[1.0, 2.0])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver = tf.train.Saver()
            saver.save(sess, str(tmp_path / "model"), global_step=1)
            sess.run(v.assign([3.0, 4.0]))
            saver.save(sess, str(tmp_path / "model"), global_step=2)
    with tf.Graph().as_default():
        w = tf.get_variable("w", [2])
        tf.train.init_from_checkpoint(str(tmp_path), {"v": "w"})
        assert _initialized(w).tolist() == [3.0, 4.0]


def test_errors():
    with tf.Graph().as_default():
        with tf.variable_scope("s"):
            v = tf.get_variable("v", [2])
        with pytest.raises(ValueError, match="^Tensor missing is not found in .* checkpoint"):
            tf.train.init_from_checkpoint(PREFIX, {"missing": v})
        with pytest.raises(ValueError, match=r"^Shape of variable s/v:0 \(\(2,\)\) doesn't match with shape of "
                                             r"tensor pv \(\[8, 3\]\) from checkpoint reader.$"):
            tf.train.init_from_checkpoint(PREFIX, {"pv": v})
        with pytest.raises(ValueError, match="^Assignment map with scope only name s should map to scope only pv. "
                                             "Should be 'scope/': 'other_scope/'.$"):
            tf.train.init_from_checkpoint(PREFIX, {"pv": "s/"})
        with pytest.raises(ValueError, match=r"^Tensor v \(v in /\) is not found in "):
            tf.train.init_from_checkpoint(PREFIX, {"/": "s/"})
        with pytest.raises(tf.errors.NotFoundError):
            tf.train.init_from_checkpoint(PREFIX + "_absent", {"pv": v})


def _save(directory, steps):
    with tf.Graph().as_default():
        tf.get_variable("v", initializer=1.0)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver = tf.train.Saver()
            return [saver.save(sess, str(directory / "model"), global_step=s) for s in steps]


def test_checkpoints_iterator_yields_each_new_checkpoint(tmp_path):
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == []
    first, second = _save(tmp_path, [1, 2])
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0)) == [second]
    asked = []
    seen = []
    for path in tf.train.checkpoints_iterator(str(tmp_path), timeout=0,
                                              timeout_fn=lambda: asked.append(1) or len(asked) == 2):
        seen.append(path)
        if len(seen) == 1:
            seen.extend(_save(tmp_path, [3]))
    assert seen == [second, str(tmp_path / "model-3"), str(tmp_path / "model-3")]
    assert len(asked) == 2


def test_mtimes_and_removal(tmp_path):
    first, second = _save(tmp_path, [1, 2])
    os.utime(first + ".index", (1_000_000_000, 1_000_000_000.5))
    mtimes = tf.train.get_checkpoint_mtimes([first, str(tmp_path / "absent"), second])
    assert mtimes == [1_000_000_000.5, os.stat(second + ".index").st_mtime]
    tf.train.remove_checkpoint(first)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "checkpoint", "model-2.data-00000-of-00001", "model-2.index", "model-2.meta"]
    tf.train.remove_checkpoint(first)  # nothing left to remove: no error, as in TensorFlow


def test_basic_train_loop_runs_until_stop_and_retries_after_an_abort(tmp_path):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        increment = tf.assign_add(step, 1)
        sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
        calls = []

        def train_step(sess, scale, offset=0):
            calls.append(sess.run(increment) * scale + offset)
            if len(calls) == 2:
                raise tf.errors.AbortedError(None, None, "parameter server restarted")
            if len(calls) == 4:
                sv.request_stop()

        tf.train.basic_train_loop(sv, train_step, args=[10], kwargs={"offset": 1})
    assert calls == [11, 21, 11, 21]  # the retry's session initializes the step again
