"""Checkpoints written by TensorFlow 2.21 (tests/golden/checkpoints): read bit-exactly, rewritten byte for byte.

If a golden file is missing or was changed on purpose, regenerate it with
/opt/tfenv/bin/python tests/golden/checkpoints/make_tf_checkpoints.py
"""

import os

import numpy as np
import pytest
from ckpt_helpers import GOLDEN, REGENERATE, copy_golden, load_values, read_bytes, same_bits

from numflow.checkpoint import datatypes, table
from numflow.checkpoint.bundle import BundleReader, BundleWriter, write_bundle
from numflow.checkpoint.reader import list_variables, load_checkpoint
from numflow.checkpoint.state import get_checkpoint_state, latest_checkpoint

SAVER_FOLDERS = [("dtypes", "model"), ("step", "model-7"), ("sharded", "model"), ("tf2", "ckpt-1")]


def _golden_prefix(folder, name):
    prefix = os.path.join(GOLDEN, folder, name)
    assert os.path.exists(prefix + ".index"), f"missing golden checkpoint {prefix}; {REGENERATE}"
    return prefix


def _expected(folder, name, actual_dtype):
    value = load_values(folder)[name]
    if actual_dtype == datatypes.BFLOAT16 and datatypes.BFLOAT16 is not None:
        value = value.view(datatypes.BFLOAT16)
    return value


@pytest.mark.parametrize("folder, name", SAVER_FOLDERS)
def test_reader_reproduces_tf_values_bit_exactly(folder, name):
    reader = BundleReader(_golden_prefix(folder, name))
    expected = load_values(folder)
    for key in expected:
        actual = reader.get_tensor(key)
        want = _expected(folder, key, actual.dtype)
        assert same_bits(actual, want), f"{folder}/{name}: {key}: {actual!r} != {want!r}; {REGENERATE}"
    assert set(expected) <= set(reader.keys())


def test_dtype_and_shape_maps_match_tf():
    reader = BundleReader(_golden_prefix("dtypes", "model"))
    dtypes, shapes = reader.dtypes(), reader.shapes()
    expected_enums = {"f16": 19, "bf16": 14, "i8": 6, "u8": 4, "i64": 9, "f64": 2, "str_vec": 7, "flags": 10,
                      "c64": 8, "c128": 18, "u16": 17, "u32": 22, "u64": 23, "ünï/çödé": 3}
    for name, enum in expected_enums.items():
        assert dtypes[name].as_datatype_enum == enum
    assert shapes["scalar_f32"] == () and shapes["empty_f32"] == (0, 3) and shapes["str_2d"] == (2, 2)
    assert dtypes["scalar_f32"].name == "float32" and dtypes["c128"].name == "complex128"


@pytest.mark.parametrize("folder, name", SAVER_FOLDERS + [("many", "model")])
def test_writer_reproduces_tf_bytes(folder, name, tmp_path):
    source = os.path.join(copy_golden(folder, tmp_path / "tf"), name)
    reader = BundleReader(source)
    order = sorted(reader.keys(), key=lambda k: (reader.entry(k).shard_id, reader.entry(k).offset,
                                                 reader.entry(k).size))
    prefix = str(tmp_path / "nf" / name)
    with BundleWriter(prefix, num_shards=reader.num_shards) as writer:
        for key in order:
            entry = reader.entry(key)
            writer.add(key, reader.get_tensor(key), shard_id=entry.shard_id, dtype=entry.dtype)
    assert read_bytes(prefix + ".index") == read_bytes(source + ".index"), REGENERATE
    for shard in range(reader.num_shards):
        suffix = f".data-{shard:05d}-of-{reader.num_shards:05d}"
        assert read_bytes(prefix + suffix) == read_bytes(source + suffix), REGENERATE


def test_write_bundle_from_the_npz_values_reproduces_the_saver(tmp_path):
    values = load_values("dtypes")
    values["bf16"] = (values["bf16"], "bfloat16")
    prefix = str(tmp_path / "model")
    with BundleWriter(prefix) as writer:
        for key in sorted(values, key=lambda k: k.encode()):
            value, dtype = values[key] if isinstance(values[key], tuple) else (values[key], None)
            writer.add(key, value, dtype=dtype)
    source = _golden_prefix("dtypes", "model")
    assert read_bytes(prefix + ".index") == read_bytes(source + ".index"), REGENERATE
    assert read_bytes(prefix + ".data-00000-of-00001") == read_bytes(source + ".data-00000-of-00001")
    step = load_values("step")
    prefix = write_bundle(tmp_path / "model-7", {"global_step": step["global_step"],
                                                 "dense/kernel": step["dense/kernel"]})
    assert read_bytes(prefix + ".index") == read_bytes(_golden_prefix("step", "model-7") + ".index")


def test_many_keys_index_has_several_blocks_with_shortened_separators(tmp_path):
    prefix = os.path.join(copy_golden("many", tmp_path), "model")
    index = table.read_index(read_bytes(prefix + ".index"))
    assert [key for key, _ in index] == [b"layer2569/moving_mean", b"layer5113/l", b"m"]
    reader = BundleReader(prefix)
    assert len(reader.keys()) == 24000
    assert reader.get_tensor("layer5999/moving_mean") == 0.0


def test_state_files_written_by_tf():
    step_dir = os.path.join(GOLDEN, "step")
    state = get_checkpoint_state(step_dir)
    assert state.model_checkpoint_path == os.path.join(step_dir, "model-7")
    assert state.all_model_checkpoint_paths == [os.path.join(step_dir, "model-6"),
                                                os.path.join(step_dir, "model-7")]
    assert latest_checkpoint(step_dir) == os.path.join(step_dir, "model-7")
    assert load_checkpoint(step_dir).get_tensor("global_step") == 7
    tf2 = get_checkpoint_state(os.path.join(GOLDEN, "tf2"))
    assert len(tf2.all_model_checkpoint_timestamps) == 1 and tf2.last_preserved_timestamp > 1.5e9


def test_partitioned_variable_is_listed_and_read_whole():
    prefix = _golden_prefix("partitioned", "model")
    reader = BundleReader(prefix)
    assert reader.keys() == ["plain", "pv"]
    assert reader.shapes()["pv"] == (8, 3)
    assert len(reader.entry("pv").slices) == 2
    assert reader.get_tensor("plain") == 2.0
    np.testing.assert_array_equal(reader.get_tensor("pv"), np.arange(24, dtype=np.float32).reshape(8, 3))
    assert list_variables(prefix) == [("plain", []), ("pv", [8, 3])]
    part_key = bytes.fromhex("00 70 76 00 01 01 02 80 84 80 83")
    assert part_key in reader._values


def test_tf2_object_graph_is_an_ordinary_string_entry():
    reader = BundleReader(_golden_prefix("tf2", "ckpt-1"))
    graph = reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    assert graph.shape == () and isinstance(graph[()], bytes) and len(graph[()]) > 10
    assert np.array_equal(reader.get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE"), [1.0, 2.0])


def _complex_variables(tf, values):
    tf.Variable(values["spectrum"], name="spectrum")
    tf.get_variable("filters/taps", initializer=values["filters/taps"])
    return tf.Variable(values["scalar"], name="scalar")


def test_saver_writes_and_restores_complex_variables_as_tf(tmp_path):
    import numflow as tf

    values = load_values("complex")
    golden = _golden_prefix("complex", "model")
    with tf.Graph().as_default(), tf.Session() as sess:
        _complex_variables(tf, values)
        sess.run(tf.global_variables_initializer())
        prefix = tf.train.Saver().save(sess, str(tmp_path / "model"), write_meta_graph=False, write_state=False)
    for suffix in (".index", ".data-00000-of-00001"):
        assert read_bytes(prefix + suffix) == read_bytes(golden + suffix), f"{suffix}; {REGENERATE}"
    zeros = {name: np.zeros_like(value) for name, value in values.items()}
    with tf.Graph().as_default(), tf.Session() as sess:
        scalar = _complex_variables(tf, zeros)
        tf.train.Saver().restore(sess, golden)
        restored = dict(zip(["spectrum", "filters/taps", "scalar"], sess.run(tf.global_variables())))
        assert scalar.dtype == tf.complex64._as_ref
    for name, value in values.items():
        assert restored[name].dtype == value.dtype and same_bits(restored[name], value), name
