"""Live round trips between numflow's Saver and TensorFlow's (tf.compat.v1.train.Saver), both ways.

Run where ``tensorflow`` is importable, for example with the TF virtual environment's pytest
(numflow's dependencies installed there too) or through tox::

    /opt/tfenv/bin/python -m pytest -m tensorflow tests/train/test_saver_tf.py
    tox -e tf -- tests/train/test_saver_tf.py

Values are compared bit for bit (NaN payloads, -0.0, subnormals included). TF's graphs run in a
``tf.Graph`` context, so the rest of the process keeps TF's eager mode. The behaviour checks at the
end run one scenario with each library's Saver (numflow's API mirrors ``tf.compat.v1``'s) and
compare what each leaves on disk and in ``last_checkpoints``.
"""

import os
import types

import numpy as np
import pytest

import numflow as nf
from numflow.train import saver as nf_saver_module

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


def _f32_special():
    values = np.array([1.5, -0.0, np.inf, -np.inf, 1e-45, np.nan], np.float32)
    values.view(np.uint32)[5] = 0x7FC12345  # a NaN with a payload
    return values


def _values():
    """name -> (value, numflow dtype name): every dtype both Savers handle, scalars, empties, slashes."""
    rng = np.random.default_rng(7)
    f16 = np.array([1.0, -0.0, 6e-8, -65504.0, np.inf, np.nan], np.float16)
    f16.view(np.uint16)[5] = 0x7E01
    f64 = np.array([[np.pi, -2.5e-310], [1e300, -0.0]])
    f64.view(np.uint64)[0, 0] ^= 1  # the last mantissa bit
    return {
        "layer1/weights": rng.standard_normal((3, 4)).astype(np.float32),
        "layer1/bias": np.zeros(4, np.float32),
        "a/b/c/special_f32": _f32_special(),
        "f16": f16,
        "f64": f64,
        "flags": np.array([True, False, True]),
        "i8": np.array([-128, 0, 127], np.int8),
        "u8": np.array([0, 200, 255], np.uint8),
        "i16": np.array([-32768, 32767], np.int16),
        "i32": np.array([[-(2**31), 2**31 - 1, 5]], np.int32),
        "i64": np.array([-(2**63), 2**63 - 1], np.int64),
        "scalar_f32": np.float32(3.25),
        "scalar_i64": np.int64(-7),
        "scalar_bool": np.bool_(True),
        "empty_f32": np.zeros((0, 3), np.float32),
        "empty_i64": np.zeros((4, 0), np.int64),
        "strings": np.array([b"ab", b"", "ünï".encode(), b"\x00\xff"], dtype=object),
    }


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object or b.dtype == object:
        return a.shape == b.shape and [bytes(x) for x in a.flat] == [bytes(x) for x in b.flat]
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _filler(value):
    """A value of the same dtype and shape that differs from ``value`` (what a variable starts with)."""
    value = np.asarray(value)
    if value.dtype == object:
        return np.array([b"?"] * value.size, dtype=object).reshape(value.shape)
    return np.ones_like(value) if value.dtype != bool else ~value


# -- numflow writes, TensorFlow restores -----------------------------------------------------------


def _numflow_saves(directory, values, steps=(1, 2, 3)):
    """Save ``values`` with numflow's Saver(max_to_keep=2) at each step; return the prefixes."""
    with nf.Graph().as_default():
        variables = {name: nf.Variable(value, name=name) for name, value in values.items()}
        step = nf.train.get_or_create_global_step()
        saver = nf.train.Saver(max_to_keep=2)
        with nf.Session() as sess:
            sess.run(nf.global_variables_initializer())
            prefixes = []
            for value in steps:
                sess.run(step.assign(value))
                prefixes.append(saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=step))
            assert saver.last_checkpoints == prefixes[-2:]
            assert all(_same_bits(sess.run(variables[name]), value) for name, value in values.items())
    return prefixes


@pytest.mark.parametrize("use_resource", [False, True], ids=["ref", "resource"])
def test_tensorflow_restores_what_numflow_saved(tmp_path, use_resource):
    values = _values()
    prefixes = _numflow_saves(str(tmp_path), values)
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["checkpoint"] + [os.path.basename(p) + ext for p in prefixes[1:]
                          for ext in (".index", ".data-00000-of-00001", ".meta")])
    state = v1.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == prefixes[-1]
    assert list(state.all_model_checkpoint_paths) == prefixes[1:]
    latest = v1.train.latest_checkpoint(str(tmp_path))
    assert latest == prefixes[-1]
    with tf.Graph().as_default(), v1.Session() as sess:
        variables = {name: v1.Variable(_filler(value), name=name, use_resource=use_resource)
                     for name, value in values.items()}
        step = v1.train.get_or_create_global_step()
        v1.train.Saver().restore(sess, latest)
        for name, value in values.items():
            assert _same_bits(sess.run(variables[name]), value), name
        assert sess.run(step) == 3


def test_tensorflow_reads_numflow_checkpoints_with_its_reader(tmp_path):
    values = _values()
    prefix = _numflow_saves(str(tmp_path), values, steps=(5,))[-1]
    reader = tf.train.load_checkpoint(prefix)
    shapes = reader.get_variable_to_shape_map()
    assert sorted(shapes) == sorted([*values, "global_step"])
    for name, value in values.items():
        got = reader.get_tensor(name)
        assert _same_bits(got, value), name
        assert shapes[name] == list(np.shape(value))
    assert reader.get_tensor("global_step") == 5


# -- TensorFlow writes, numflow restores -----------------------------------------------------------


def _tensorflow_saves(directory, values, steps=(10, 20, 30), relative=False):
    with tf.Graph().as_default(), v1.Session() as sess:
        for name, value in values.items():
            v1.Variable(value, name=name, use_resource=False)
        step = v1.train.get_or_create_global_step()
        saver = v1.train.Saver(max_to_keep=2, save_relative_paths=relative)
        sess.run(v1.global_variables_initializer())
        prefixes = []
        for value in steps:
            sess.run(step.assign(value))
            prefixes.append(saver.save(sess, os.path.join(directory, "model.ckpt"), global_step=step,
                                       write_meta_graph=False))
    return prefixes


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
def test_numflow_restores_what_tensorflow_saved(tmp_path, relative):
    values = _values()
    prefixes = _tensorflow_saves(str(tmp_path), values, relative=relative)
    state = nf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == prefixes[-1]
    assert state.all_model_checkpoint_paths == prefixes[1:]
    latest = nf.train.latest_checkpoint(str(tmp_path))
    assert latest == prefixes[-1]
    with nf.Graph().as_default():
        variables = {name: nf.Variable(_filler(value), name=name) for name, value in values.items()}
        step = nf.train.get_or_create_global_step()
        saver = nf.train.Saver(max_to_keep=2)
        with nf.Session() as sess:
            saver.restore(sess, latest)  # no initializer run: restoring initializes
            for name, value in values.items():
                assert _same_bits(sess.run(variables[name]), value), name
            assert sess.run(step) == 30
            # numflow continues the run: its state file and retention carry on from TF's.
            saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
            sess.run(step.assign(40))
            saver.save(sess, os.path.join(str(tmp_path), "model.ckpt"), global_step=step)
    assert v1.train.latest_checkpoint(str(tmp_path)) == os.path.join(str(tmp_path), "model.ckpt-40")
    remaining = sorted(name for name in os.listdir(tmp_path) if name.endswith(".index"))
    assert remaining == ["model.ckpt-30.index", "model.ckpt-40.index"]


def test_renamed_variables_both_ways(tmp_path):
    """The guide's dict var_list: saved as "params", restored into a variable named otherwise."""
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.Graph().as_default(), v1.Session() as sess:
        w = v1.Variable(weights, name="weights", use_resource=False)
        sess.run(w.initializer)
        tf_prefix = v1.train.Saver({"params": w}).save(sess, str(tmp_path / "tf"), write_meta_graph=False)
    with nf.Graph().as_default():
        mine = nf.Variable(np.zeros((2, 3), np.float32), name="other_name")
        with nf.Session() as sess:
            nf.train.Saver({"params": mine}).restore(sess, tf_prefix)
            assert _same_bits(sess.run(mine), weights)
            nf_prefix = nf.train.Saver({"renamed/again": mine}).save(sess, str(tmp_path / "nf"))
    with tf.Graph().as_default(), v1.Session() as sess:
        back = v1.Variable(np.zeros((2, 3), np.float32), name="x", use_resource=False)
        v1.train.Saver({"renamed/again": back}).restore(sess, nf_prefix)
        assert _same_bits(sess.run(back), weights)


# -- the same scenario with each library's Saver ---------------------------------------------------


@pytest.fixture
def tf1_variables():
    """TF 1.x's default: ref variables (so a global step fetched by tensor name is its value)."""
    enabled = v1.resource_variables_enabled()
    v1.disable_resource_variables()
    yield
    if enabled:
        v1.enable_resource_variables()


def _library(name):
    if name == "numflow":
        return nf, nf_saver_module, nf.Graph
    from tensorflow.python.training import saver as tf_saver_module

    return v1, tf_saver_module, tf.Graph


def _retention_scenario(name, directory, monkeypatch):
    """keep_checkpoint_every_n_hours, a prefix saved twice, max_to_keep=None, recover, set_last."""
    lib, module, graph = _library(name)
    now = [1_000_000.0]
    monkeypatch.setattr(module, "time", types.SimpleNamespace(time=lambda: now[0]))
    log = []

    def files(sub):
        return sorted(f[:-6] for f in os.listdir(os.path.join(directory, sub)) if f.endswith(".index"))

    with graph().as_default(), lib.Session() as sess:
        v = lib.Variable([1.0], name="v")
        sess.run(v.initializer)
        for sub in ("hours", "twice", "none", "recover"):
            os.makedirs(os.path.join(directory, sub))
        saver = lib.train.Saver([v], max_to_keep=2, keep_checkpoint_every_n_hours=0.5)
        for step in (0, 1, 2, 1, 3, 4, 5, 6, 7, 8):
            now[0] += 500.0
            saver.save(sess, os.path.join(directory, "hours", "m"), global_step=step, write_meta_graph=False)
            log.append(("hours", step, files("hours"), [os.path.basename(p) for p in saver.last_checkpoints]))
        unbounded = lib.train.Saver([v], max_to_keep=None)
        for step in range(3):
            unbounded.save(sess, os.path.join(directory, "none", "m"), global_step=step, write_meta_graph=False)
        log.append(("none", files("none"), unbounded.last_checkpoints,
                    open(os.path.join(directory, "none", "checkpoint")).read().replace(directory, "")))
        writer = lib.train.Saver([v], max_to_keep=3)
        paths = [writer.save(sess, os.path.join(directory, "recover", "m"), global_step=i, write_meta_graph=False,
                             write_state=False) for i in range(4)]
        recovered = lib.train.Saver([v], max_to_keep=2)
        recovered.recover_last_checkpoints(paths + [os.path.join(directory, "recover", "gone")])
        log.append(("recovered", [os.path.basename(p) for p in recovered.last_checkpoints]))
        for step in (4, 5, 6):
            recovered.save(sess, os.path.join(directory, "recover", "m"), global_step=step, write_meta_graph=False)
            log.append(("recover", step, files("recover"), [os.path.basename(p) for p in recovered.last_checkpoints]))
        kept = lib.train.Saver([v], max_to_keep=1)
        kept.set_last_checkpoints([paths[-1]])
        kept.save(sess, os.path.join(directory, "recover", "m"), global_step=7, write_meta_graph=False)
        log.append(("set_last", files("recover"), [os.path.basename(p) for p in kept.last_checkpoints]))
    return log


def test_retention_matches_tensorflow(tmp_path, monkeypatch, tf1_variables):
    ours = _retention_scenario("numflow", str(tmp_path / "nf"), monkeypatch)
    theirs = _retention_scenario("tensorflow", str(tmp_path / "tf"), monkeypatch)
    assert ours == theirs


def _error_text(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class and text are what is compared
        return type(exc).__name__, str(exc)
    return None


def _argument_scenario(name, directory):
    lib, _, graph = _library(name)
    results = []
    with graph().as_default(), lib.Session() as sess:
        v = lib.Variable([1.0, 2.0], name="v")
        sess.run(v.initializer)
        step = lib.train.get_or_create_global_step()
        sess.run(step.initializer)
        sess.run(step.assign(42))
        for var_list in ([v, v], {"a": v, "b": v}, [], {1: v}):
            results.append(_error_text(lambda var_list=var_list: lib.train.Saver(var_list)))
        saver = lib.train.Saver([v], max_to_keep=None, pad_step_number=True)
        prefix = os.path.join(directory, "m")
        for given in (step, "global_step:0", 7, np.int64(-12), True):
            results.append(os.path.basename(saver.save(sess, prefix, global_step=given, write_meta_graph=False)))
        calls = [
            lambda: saver.save(None, prefix),
            lambda: saver.save(sess, prefix, latest_filename="a/b"),
            lambda: saver.save(sess, os.path.join(directory, "checkpoint")),
            lambda: saver.save(sess, os.path.join(directory, "no", "m"), write_meta_graph=False),
            lambda: saver.restore(sess, None),
            lambda: saver.restore(sess, os.path.join(directory, "nothing")),
        ]
        for call in calls:
            error = _error_text(call)
            results.append(error and (error[0], error[1].replace(directory, "DIR")))
        empty = lib.train.Saver([], allow_empty=True)
        results.append((empty.save(sess, prefix, write_meta_graph=False), empty.restore(sess, None)))
    return results


def test_arguments_and_errors_match_tensorflow(tmp_path, tf1_variables):
    os.makedirs(tmp_path / "nf")
    os.makedirs(tmp_path / "tf")
    ours = _argument_scenario("numflow", str(tmp_path / "nf"))
    theirs = _argument_scenario("tensorflow", str(tmp_path / "tf"))
    assert ours == theirs


@pytest.mark.parametrize("tf_parts", [3, 2, 0])
def test_tensorflow_restores_numflows_partitioned_variable_into_any_partitioning(tmp_path, tf_parts):
    full = np.arange(21, dtype=np.float32).reshape(7, 3)
    with nf.Graph().as_default(), nf.Session() as sess:
        embedding = nf.get_variable("embedding", [7, 3], partitioner=nf.fixed_size_partitioner(3))
        sess.run(nf.global_variables_initializer())
        sess.run(embedding.assign(full))
        prefix = nf.train.Saver().save(sess, str(tmp_path / "model"), write_meta_graph=False)
    with tf.Graph().as_default(), v1.Session() as sess:
        partitioner = v1.fixed_size_partitioner(tf_parts) if tf_parts else None
        embedding = v1.get_variable("embedding", [7, 3], partitioner=partitioner)
        v1.train.Saver().restore(sess, prefix)
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(embedding)), full)
