"""train.Saver behaves as TF 1.x's Saver (2.21, tf.compat.v1): retention, paths, steps, var_list, failures.

The expected values were observed on TensorFlow 2.21's ``tf.compat.v1.train.Saver`` running the
same steps (ref variables, graph mode); tests/train/test_saver_tf.py repeats the retention
sequences against TF live where it is installed.
"""

import os
import threading
import time
import types
import warnings

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


# -- retention -------------------------------------------------------------------------------------


def test_keep_checkpoint_every_n_hours_keeps_one_per_hour_off_the_list(tmp_path, clock, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], max_to_keep=2, keep_checkpoint_every_n_hours=1.0)
    seen = []
    for step in range(12):
        clock[0] = 1_000_000.0 + 1000 * step  # a save every 1000 s
        saver.save(sess, str(tmp_path / "m"), global_step=step)
        seen.append((_indexes(tmp_path), [os.path.basename(p) for p in saver.last_checkpoints]))
    # TF 2.21: the first checkpoint past the hour (m-4, at 4000 s) and the next one (m-8) stay on disk.
    assert seen[5] == (["m-4", "m-5"], ["m-4", "m-5"])
    assert seen[6] == (["m-4", "m-5", "m-6"], ["m-5", "m-6"])
    assert seen[7] == (["m-4", "m-6", "m-7"], ["m-6", "m-7"])
    assert seen[11] == (["m-10", "m-11", "m-4", "m-8"], ["m-10", "m-11"])


def test_max_to_keep_none_or_zero_records_nothing_and_deletes_nothing(tmp_path, sess_v):
    sess, v = sess_v
    for max_to_keep in (None, 0):
        saver = tf.train.Saver([v], max_to_keep=max_to_keep)
        for step in range(3):
            saver.save(sess, str(tmp_path / f"m{max_to_keep}"), global_step=step)
        assert saver.last_checkpoints == []
        assert _state(tmp_path) == (f'model_checkpoint_path: "{tmp_path}/m{max_to_keep}-2"\n'
                                    f'all_model_checkpoint_paths: "{tmp_path}/m{max_to_keep}-2"\n')
    assert len(_indexes(tmp_path)) == 6


def test_saving_a_prefix_again_moves_it_to_the_end(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], max_to_keep=2)
    for step in (1, 2, 1, 3):
        saver.save(sess, str(tmp_path / "m"), global_step=step)
    assert [os.path.basename(p) for p in saver.last_checkpoints] == ["m-1", "m-3"]
    assert _indexes(tmp_path) == ["m-1", "m-3"]


def test_recover_last_checkpoints_then_one_deletion_per_save(tmp_path, sess_v):
    sess, v = sess_v
    writer = tf.train.Saver([v], max_to_keep=2)
    paths = [writer.save(sess, str(tmp_path / "m"), global_step=i, write_state=False) for i in range(5)]
    assert writer.last_checkpoints == [] and _state(tmp_path) is None  # write_state=False records nothing
    saver = tf.train.Saver([v], max_to_keep=2)
    saver.recover_last_checkpoints(paths + [str(tmp_path / "missing-9")])
    assert saver.last_checkpoints == paths
    assert [t for _, t in saver._last_checkpoints] == [os.stat(p + ".index").st_mtime for p in paths]
    saver.save(sess, str(tmp_path / "m"), global_step=5)
    # As TF: the list was already past max_to_keep; each save deletes only its oldest entry.
    assert [os.path.basename(p) for p in saver.last_checkpoints] == ["m-1", "m-2", "m-3", "m-4", "m-5"]
    assert _indexes(tmp_path) == ["m-1", "m-2", "m-3", "m-4", "m-5"]
    assert _state(tmp_path).count("all_model_checkpoint_paths") == 5
    saver.save(sess, str(tmp_path / "m"), global_step=6)
    assert _indexes(tmp_path) == ["m-2", "m-3", "m-4", "m-5", "m-6"]


def test_set_last_checkpoints_with_time_and_the_deprecated_setter(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], max_to_keep=1)
    old = saver.save(sess, str(tmp_path / "m"), global_step=1)
    other = tf.train.Saver([v], max_to_keep=1)
    other.set_last_checkpoints_with_time([(old, 0.0)])
    assert other.last_checkpoints == [old]
    other.save(sess, str(tmp_path / "m"), global_step=2)
    assert _indexes(tmp_path) == ["m-2"]  # an old timestamp: deleted when it leaves the list
    third = tf.train.Saver([v], max_to_keep=1)
    third.set_last_checkpoints([str(tmp_path / "m-2")])  # deprecated: timestamp +inf, never deleted
    third.save(sess, str(tmp_path / "m"), global_step=3)
    assert third.last_checkpoints == [str(tmp_path / "m-3")]
    assert _indexes(tmp_path) == ["m-2", "m-3"]
    with pytest.raises(AssertionError):
        third.set_last_checkpoints((old,))
    with pytest.raises(AssertionError):
        third.set_last_checkpoints_with_time(())


def test_deleting_removes_every_shard_and_the_meta_file(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], max_to_keep=1)
    first = saver.save(sess, str(tmp_path / "m"), global_step=1)
    for extra in (".meta", ".data-00001-of-00002"):
        (tmp_path / ("m-1" + extra)).write_bytes(b"x")
    saver.save(sess, str(tmp_path / "m"), global_step=2)
    assert not [name for name in os.listdir(tmp_path) if name.startswith(os.path.basename(first) + ".")]


# -- paths and steps -------------------------------------------------------------------------------


def test_save_relative_paths_and_latest_filename(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], max_to_keep=2, save_relative_paths=True)
    for step in range(3):
        saver.save(sess, str(tmp_path / "m"), global_step=step, latest_filename="mystate")
    assert sorted(os.listdir(tmp_path)) == ["m-1" + DATA, "m-1.index", "m-1.meta", "m-2" + DATA, "m-2.index",
                                            "m-2.meta", "mystate"]
    assert _state(tmp_path, "mystate") == ('model_checkpoint_path: "m-2"\n'
                                           'all_model_checkpoint_paths: "m-1"\n'
                                           'all_model_checkpoint_paths: "m-2"\n')
    assert saver.last_checkpoints == [str(tmp_path / "m-1"), str(tmp_path / "m-2")]
    assert tf.train.latest_checkpoint(str(tmp_path), "mystate") == str(tmp_path / "m-2")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    moved = tmp_path.parent / (tmp_path.name + "-moved")
    os.rename(tmp_path, moved)  # relative paths survive moving the directory
    assert tf.train.latest_checkpoint(str(moved), "mystate") == str(moved / "m-2")


def test_relative_save_path_is_stored_relative_to_its_directory(tmp_path, sess_v, monkeypatch):
    sess, v = sess_v
    monkeypatch.chdir(tmp_path)
    os.makedirs("run/sub")
    saver = tf.train.Saver([v], max_to_keep=2)
    assert saver.save(sess, "run/sub/m", global_step=0) == "run/sub/m-0"
    assert saver.save(sess, "run/sub/m", global_step=1) == "run/sub/m-1"
    assert _state("run/sub") == 'model_checkpoint_path: "m-1"\nall_model_checkpoint_paths: "m-0"\n' \
                                'all_model_checkpoint_paths: "m-1"\n'
    assert saver.last_checkpoints == ["run/sub/m-0", "run/sub/m-1"]
    assert tf.train.Saver([v]).save(sess, "bare") == "bare"
    assert _state(".") == 'model_checkpoint_path: "bare"\nall_model_checkpoint_paths: "bare"\n'


def test_latest_filename_errors_write_nothing(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v])
    with pytest.raises(ValueError, match="^'latest_filename' must not contain path components$"):
        saver.save(sess, str(tmp_path / "m"), latest_filename="a/b")
    with pytest.raises(ValueError, match=f"^'latest_filename' collides with 'save_path': 'checkpoint' and "
                                         f"'{tmp_path}/checkpoint'$"):
        saver.save(sess, str(tmp_path / "checkpoint"))
    with pytest.raises(ValueError, match="^'latest_filename' collides with 'save_path': 'st' and"):
        saver.save(sess, str(tmp_path / "st"), latest_filename="st")
    assert os.listdir(tmp_path) == []
    assert saver.save(sess, str(tmp_path / "checkpoint"), global_step=1) == str(tmp_path / "checkpoint-1")


def test_missing_parent_directory_is_a_value_error(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v])
    target = tmp_path / "no" / "such" / "m"
    with pytest.raises(ValueError, match=f"^Parent directory of {target} doesn't exist, can't save.$"):
        saver.save(sess, str(target))
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="Parent directory of .*/file/m doesn't exist, can't save."):
        saver.save(sess, str(tmp_path / "file" / "m"))
    assert os.listdir(tmp_path) == ["file"]
    # As TF: the prefix's own directory is made when the one above it exists.
    assert saver.save(sess, str(tmp_path / "new" / "m")) == str(tmp_path / "new" / "m")
    assert sorted(os.listdir(tmp_path / "new")) == ["checkpoint", "m" + DATA, "m.index", "m.meta"]


def test_sess_must_be_a_session(tmp_path, sess_v):
    _, v = sess_v
    with pytest.raises(TypeError, match="^'sess' must be a Session; None$"):
        tf.train.Saver([v]).save(None, str(tmp_path / "m"))


def test_global_step_as_variable_tensor_name_or_integer(tmp_path, sess_v):
    sess, v = sess_v
    step = tf.train.get_or_create_global_step()
    sess.run(step.initializer)
    sess.run(step.assign(42))
    saver = tf.train.Saver([v], max_to_keep=None)
    prefix = str(tmp_path / "m")
    for given, suffix in [(step, "42"), (step.value(), "42"), ("global_step:0", "42"), (np.int64(5), "5"),
                          (7, "7"), (True, "1"), (tf.constant(9), "9"), (-3, "-3")]:
        assert saver.save(sess, prefix, global_step=given) == f"{prefix}-{suffix}", given
    with pytest.raises(TypeError, match="int\\(\\) argument must be"):
        saver.save(sess, prefix, global_step="global_step")  # an op's name fetches nothing, as in TF
    with pytest.raises(TypeError, match='Argument `fetch` = 3.0 has invalid type "float"'):
        saver.save(sess, prefix, global_step=3.0)


def test_pad_step_number(tmp_path, sess_v):
    sess, v = sess_v
    saver = tf.train.Saver([v], pad_step_number=True)
    prefix = str(tmp_path / "p")
    assert saver.save(sess, prefix, global_step=12) == prefix + "-00000012"
    assert saver.save(sess, prefix, global_step=np.int64(-12)) == prefix + "--0000012"
    assert saver.save(sess, prefix, global_step=123456789) == prefix + "-123456789"
    assert tf.train.latest_checkpoint(str(tmp_path)) == prefix + "-123456789"


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
    assert (saver_def.filename_tensor_name, saver_def.max_to_keep, saver_def.sharded) == ("save/Const:0", 3, False)
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
    steps = [0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())

        def train(op, count):
            try:
                while not stop.is_set():
                    sess.run(op)
                    steps[0] += count
            except Exception as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

        def save(i):
            seen = steps[0]
            for _ in range(10_000):  # let the updates move on between two saves
                if steps[0] > seen or failures:
                    break
                time.sleep(0.001)
            return saver.save(sess, str(tmp_path / "m"), global_step=i)

        threads = [threading.Thread(target=train, args=(op, count)) for op, count in ((bump_v, 1), (set_w, 0))]
        for thread in threads:
            thread.start()
        try:
            paths = [save(i) for i in range(8)]
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


def _corrupt_byte(path, name):
    """Flip a bit inside tensor ``name``'s bytes in the data file of checkpoint ``path``."""
    with BundleReader(path) as reader:
        offset = reader.entry(name).offset
    with open(path + DATA, "r+b") as f:
        f.seek(offset + 2)
        byte = f.read(1)[0]
        f.seek(offset + 2)
        f.write(bytes([byte ^ 0x10]))


def _truncate_data(path, name):
    with BundleReader(path) as reader:
        offset = reader.entry(name).offset
    os.truncate(path + DATA, offset + 1)


_FAILURES = {
    "corrupt tensor": (_corrupt_byte, tf.errors.DataLossError, "Checksum does not match.*tensor c"),
    "truncated data": (_truncate_data, tf.errors.OutOfRangeError, "Read less bytes than requested"),
    "missing data file": (lambda path, name: os.remove(path + DATA), tf.errors.NotFoundError,
                          "data-00000-of-00001; No such file or directory"),
}


@pytest.mark.parametrize("failure", sorted(_FAILURES))
@pytest.mark.parametrize("initialized", ["all", "none", "some"])
def test_a_failing_restore_changes_no_variable(tmp_path, failure, initialized):
    names = ["a", "b", "c", "d"]
    big = 3 << 20  # c is read in pieces by the helper threads
    variables = [tf.Variable(np.full(big if n == "c" else 4, i, np.float32), name=n) for i, n in enumerate(names)]
    saver = tf.train.Saver()
    damage, error, message = _FAILURES[failure]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
    damage(path, "c")
    with tf.Session() as sess:
        chosen = {"all": variables, "none": [], "some": variables[1:3]}[initialized]
        for var in chosen:
            sess.run(var.assign(np.full(var.shape.as_list(), 9, np.float32)))
        with pytest.raises(error, match=message):
            saver.restore(sess, path)
        uninitialized = [n.decode() for n in sess.run(tf.report_uninitialized_variables())]
        assert uninitialized == [v.op.name for v in variables if v not in chosen]
        for var in chosen:
            assert (sess.run(var) == 9).all(), var.op.name


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


def test_restore_reuses_a_released_buffer_only_when_nothing_else_holds_it(tmp_path):
    variables = [tf.Variable(np.full(1000, i, np.float32), name=n) for i, n in enumerate("abc")]
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
        sess.run([var.assign(np.full(1000, 9, np.float32)) for var in variables])
        (container,) = set(sess._containers.values())
        held = container.variable("a").read()  # as an op still reading a's old value would
        address = lambda name: container.variable(name).read().__array_interface__["data"][0]
        b_old = address("b")
        saver.restore(sess, path)
        assert (held == 9).all()  # a's old buffer was left alone
        assert address("c") == b_old  # b's, released, took c's value
        assert [float(v[0]) for v in sess.run(variables)] == [0.0, 1.0, 2.0]
        saver.restore(sess, path)  # and again, every buffer now unshared
        assert [float(v[-1]) for v in sess.run(variables)] == [0.0, 1.0, 2.0]


def test_a_graph_with_cond_and_while_loop_saves_a_meta_graph_that_loads_and_runs(tmp_path):
    flag = tf.placeholder(tf.bool, [], name="flag")
    v = tf.Variable(1.5, name="v")
    chosen = tf.cond(flag, lambda: v * 2.0, lambda: v - 1.0, name="chosen")
    _, looped = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * v), [0, chosen], name="looped")
    tf.add_to_collection("outputs", looped)
    with tf.Session() as sess:
        sess.run(v.initializer)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            path = tf.train.Saver().save(sess, str(tmp_path / "m"))
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m" + DATA, "m.index", "m.meta"]
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.train.import_meta_graph(path + ".meta").restore(sess, path)
        (looped,) = tf.get_collection("outputs")
        # 1.5 ** 3 times the branch's value: 3.0 (flag) or 0.5
        assert sess.run(looped, {"flag:0": True}) == pytest.approx(3.0 * 1.5 ** 3)
        assert sess.run(looped, {"flag:0": False}) == pytest.approx(0.5 * 1.5 ** 3)


def test_a_graph_without_a_graph_def_form_still_saves_its_checkpoint(tmp_path):
    v = tf.Variable(1.0, name="v")
    # a loop changing a variable: no GraphDef form
    tf.while_loop(lambda i: i < 3, lambda i: tf.tuple([i + 1], control_inputs=[tf.assign_add(v, 1.0)])[0], [0])
    with tf.Session() as sess:
        sess.run(v.initializer)
        with pytest.warns(RuntimeWarning, match="saved without its .meta file: .*changes variable 'v' inside "
                                                "function 'while_body'"):
            path = tf.train.Saver().save(sess, str(tmp_path / "m"))
        sess.run(v.assign(5.0))
        tf.train.Saver().restore(sess, path)
        assert sess.run(v) == 1.0
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m" + DATA, "m.index"]
