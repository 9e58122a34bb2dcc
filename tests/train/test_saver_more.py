"""train.Saver behaves as TF 1.x's Saver (2.21, tf.compat.v1): retention, paths, steps, var_list, failures.

The expected values were observed on TensorFlow 2.21's ``tf.compat.v1.train.Saver`` running the
same steps (ref variables, graph mode); tests/train/test_saver_tf.py repeats the retention
sequences against TF live where it is installed.
"""

import os
import threading
import types

import numpy as np
import pytest

import numflow as tf
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.train import saver as saver_module

DATA = ".data-00000-of-00001"


def _indexes(directory):
    return sorted(name[:-len(".index")] for name in os.listdir(directory) if name.endswith(".index"))


def _state(directory, name="checkpoint"):
    path = os.path.join(directory, name)
    return open(path).read() if os.path.exists(path) else None


@pytest.fixture
def sess_v():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        yield sess, v


@pytest.fixture
def clock(monkeypatch):
    """The Saver's clock, set by the test: ``clock[0] = seconds``."""
    now = [1_000_000.0]
    monkeypatch.setattr(saver_module, "time", types.SimpleNamespace(time=lambda: now[0]))
    return now


# -- var_list --------------------------------------------------------------------------------------


def test_var_list_forms_and_their_keys(tmp_path):
    a = tf.Variable(1.0, name="a")
    b = tf.Variable([2, 3], name="scope/b")
    c = tf.Variable(4.0, name="c")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for var_list, keys in [(None, ["a", "c", "scope/b"]), ([b, a], ["a", "scope/b"]),
                               ((a, [b, (c,)]), ["a", "c", "scope/b"]), ({c, a}, ["a", "c"]),
                               ({"x/y": a, "z": b}, ["x/y", "z"])]:
            path = tf.train.Saver(var_list).save(sess, str(tmp_path / "m"))
            with BundleReader(path) as reader:
                assert reader.keys() == keys, var_list


def test_var_list_errors_in_tensorflows_words():
    v = tf.Variable([1.0, 2.0], name="v")
    const = tf.constant(1.0)
    cases = [
        ([v, v], ValueError, "At least two variables have the same name: v"),
        ({"a": v, "b": v}, ValueError, "The same saveable will be restored with two names: b"),
        (v, TypeError, f"Variables to save should be passed in a dict or a list. Got {v}"),
        ({"a": const}, TypeError, "names_to_saveables must be a dict mapping string names to Tensors/Variables. "
                                  f"Not a variable: {const}"),
        ([const], TypeError, f"Variable to save is not a Variable: {const}"),
        ([v.value()], TypeError, f"Variable to save is not a Variable: {v.value()}"),
        ({1: v}, TypeError, "names_to_saveables must be a dict mapping string names to trackable operations. "
                            "Name is not a string: 1"),
        ([], ValueError, "No variables to save"),
        ({}, ValueError, "No variables to save"),
    ]
    for var_list, cls, message in cases:
        with pytest.raises(cls) as info:
            tf.train.Saver(var_list)
        assert str(info.value) == message


def test_no_variables_at_all():
    with pytest.raises(ValueError, match="^No variables to save$"):
        tf.train.Saver()


def test_allow_empty_saver_saves_nothing_and_returns_none(tmp_path):
    saver = tf.train.Saver(allow_empty=True)
    assert saver.as_saver_def() is None
    with tf.Session() as sess:
        assert saver.save(sess, str(tmp_path / "m"), global_step=3) is None
        assert saver.restore(sess, None) is None
        assert saver.restore(sess, str(tmp_path / "nothing")) is None
    assert os.listdir(tmp_path) == [] and saver.last_checkpoints == []


def test_defer_build_takes_variables_made_later(tmp_path):
    with pytest.raises(ValueError, match="If `var_list` is provided then build cannot be deferred"):
        tf.train.Saver([tf.Variable(0.0, name="early")], defer_build=True)
    saver = tf.train.Saver(defer_build=True)
    late = tf.Variable(5.0, name="late")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(RuntimeError, match="`build\\(\\)` should be called before save if defer_build==True"):
            saver.save(sess, str(tmp_path / "m"))
        saver.build()
        path = saver.save(sess, str(tmp_path / "m"))
        sess.run(late.assign(0.0))
        saver.restore(sess, path)
        assert sess.run(late) == 5.0
    assert BundleReader(path).keys() == ["early", "late"]


def test_as_saver_def_names_the_ops(sess_v):
    _, v = sess_v
    first, second = tf.train.Saver([v], max_to_keep=3), tf.train.Saver({"w": v})
    saver_def = first.as_saver_def()
    assert (saver_def.filename_tensor_name, saver_def.max_to_keep, saver_def.sharded) == ("save/filename:0", 3, False)
    assert second.as_saver_def().filename_tensor_name.startswith("save_1/")
    assert saver_def.restore_op_name == "save/restore_all"


# -- sharing, subsets, threads, failures -----------------------------------------------------------


def test_two_savers_share_a_variable(tmp_path):
    shared = tf.Variable([1.0, 1.0], name="shared")
    a = tf.Variable(10, name="a")
    b = tf.Variable(20, name="b")
    first = tf.train.Saver([shared, a])
    second = tf.train.Saver({"renamed": shared, "b": b})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        one = first.save(sess, str(tmp_path / "one"))
        sess.run(shared.assign([2.0, 2.0]))
        two = second.save(sess, str(tmp_path / "two"))
        assert BundleReader(one).keys() == ["a", "shared"] and BundleReader(two).keys() == ["b", "renamed"]
        sess.run([shared.assign([0.0, 0.0]), a.assign(0), b.assign(0)])
        first.restore(sess, one)
        assert sess.run([shared, a, b])[1:] == [10, 0] and list(sess.run(shared)) == [1.0, 1.0]
        second.restore(sess, two)
        assert list(sess.run(shared)) == [2.0, 2.0] and sess.run([a, b]) == [10, 20]


def test_restore_a_subset_then_initialize_the_rest(tmp_path):
    """The guide: restoring only some variables leaves the others to an initializer."""
    v1 = tf.Variable([1.0, 2.0], name="v1")
    v2 = tf.Variable([3.0], name="v2")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(v1.assign([5.0, 6.0]))
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    with tf.Session() as sess:
        tf.train.Saver([v1]).restore(sess, path)
        assert list(sess.run(tf.report_uninitialized_variables())) == [b"v2"]
        with pytest.raises(tf.errors.FailedPreconditionError, match="Attempting to use uninitialized value v2"):
            sess.run(v2)
        sess.run(tf.variables_initializer([v2]))
        assert list(sess.run(v1)) == [5.0, 6.0] and list(sess.run(v2)) == [3.0]


def test_saving_while_other_threads_assign_writes_each_variable_whole(tmp_path):
    n = 1 << 20
    v = tf.Variable(tf.zeros([n]), name="v")
    w = tf.Variable(tf.zeros([n // 4], dtype=tf.int64), name="w")
    bump_v = v.assign_add(tf.ones([n]))
    set_w = w.assign(tf.fill([n // 4], tf.cast(tf.reduce_sum(v) / n, tf.int64)))
    saver = tf.train.Saver(max_to_keep=None)
    stop = threading.Event()
    failures = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())

        def train(op):
            try:
                while not stop.is_set():
                    sess.run(op)
            except Exception as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

        threads = [threading.Thread(target=train, args=(op,)) for op in (bump_v, set_w)]
        for thread in threads:
            thread.start()
        try:
            paths = [saver.save(sess, str(tmp_path / "m"), global_step=i) for i in range(8)]
        finally:
            stop.set()
            for thread in threads:
                thread.join()
    assert not failures
    firsts = set()
    for path in paths:
        with BundleReader(path) as reader:
            for name in ("v", "w"):
                value = reader.get_tensor(name)
                assert (value == value[0]).all(), (path, name)  # never half an update
            firsts.add(float(reader.get_tensor("v")[0]))
    assert len(firsts) > 1  # the saves really overlapped the updates


def test_restore_failing_midway_leaves_the_variables_not_reached(tmp_path):
    names = ["a", "b", "c", "d"]
    variables = [tf.Variable(np.full(4, i, np.float32), name=n) for i, n in enumerate(names)]
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
        with BundleReader(path) as reader:
            offset = reader.entry("c").offset
        with open(path + DATA, "r+b") as f:
            f.seek(offset + 2)
            byte = f.read(1)[0]
            f.seek(offset + 2)
            f.write(bytes([byte ^ 0x10]))
        sess.run([var.assign(np.full(4, 9, np.float32)) for var in variables])
        with pytest.raises(tf.errors.DataLossError) as info:
            saver.restore(sess, path)
        message = str(info.value)
        assert "Checksum does not match" in message and "tensor c" in message and path + DATA in message
        values = [float(x[0]) for x in sess.run(variables)]
    # Restored in key order: a and b are, c (whose bytes were bad) and d were not touched.
    assert values == [0.0, 1.0, 9.0, 9.0]


def test_restore_with_a_wrong_dtype_changes_nothing(tmp_path):
    a = tf.Variable([1.0], name="a")
    b = tf.Variable([2.0], name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    tf.reset_default_graph()
    a = tf.Variable([7.0], name="a")
    b = tf.Variable([7], name="b")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError, match="Restoring from checkpoint failed. This is most "
                           "likely due to a mismatch between the current graph and the graph"):
            tf.train.Saver().restore(sess, path)
        assert sess.run([a, b]) == [[7.0], [7]]
