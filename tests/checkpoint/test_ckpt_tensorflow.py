"""Live round trips with TensorFlow (run only where ``tensorflow`` is importable: tox -e tf)."""

import os

import numpy as np
import pytest
from ckpt_helpers import read_bytes, same_bits

from numflow.checkpoint.bundle import BundleReader, BundleWriter, write_bundle
from numflow.checkpoint.state import update_checkpoint_state

pytestmark = pytest.mark.tensorflow
tf = pytest.importorskip("tensorflow")


def _values():
    rng = np.random.default_rng(42)
    strings = np.empty((2, 2), dtype=object)
    strings[:] = [[b"", b"\x00\xff"], ["ünï".encode(), b"y" * 200]]
    special = np.array([np.nan, -0.0, np.inf, 1e-45], np.float32)
    special.view(np.uint32)[0] = 0x7FC12345
    return {
        "dense/kernel": rng.standard_normal((3, 4)).astype(np.float32),
        "special": special,
        "f64": rng.standard_normal(5),
        "f16": rng.standard_normal(3).astype(np.float16),
        "i8": rng.integers(-128, 127, 4, dtype=np.int8),
        "u8": rng.integers(0, 255, 4, dtype=np.uint8),
        "i32": rng.integers(-9, 9, (2, 2), dtype=np.int32),
        "i64": np.array([-(2**63), 5], np.int64),
        "u16": np.array([1, 65535], np.uint16),
        "u32": np.array([2**32 - 1], np.uint32),
        "u64": np.array([2**64 - 1], np.uint64),
        "flags": np.array([True, False]),
        "c64": np.array([1 - 1j], np.complex64),
        "c128": np.array([[2 + 3j]], np.complex128),
        "scalar": np.float32(0.25),
        "empty": np.zeros((0, 3), np.float32),
        "strings": strings,
        "global_step": np.int64(100),
    }


def _tf_value(value):
    value = value.numpy() if hasattr(value, "numpy") else value
    return np.asarray(value, dtype=object) if isinstance(value, bytes) else np.asarray(value)


def test_tensorflow_reads_what_numflow_writes(tmp_path):
    values = _values()
    prefix = str(tmp_path / "nf" / "model")
    with BundleWriter(prefix) as writer:
        for name in sorted(values):
            writer.add(name, values[name])
        writer.add("bf16", np.array([0x3F80, 0x7FC0], np.uint16), dtype="bfloat16")
    reader = tf.train.load_checkpoint(prefix)
    for name, value in values.items():
        assert same_bits(_tf_value(reader.get_tensor(name)), value), name
    assert reader.get_variable_to_dtype_map()["bf16"] == tf.bfloat16
    restored = tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=["special", "strings"],
                                    shape_and_slices=["", ""], dtypes=[tf.float32, tf.string])
    assert same_bits(restored[0].numpy(), values["special"])
    assert same_bits(restored[1].numpy(), values["strings"])


def test_numflow_reproduces_and_reads_tensorflow_bytes(tmp_path):
    values = _values()
    names = sorted(values)
    tf_prefix = str(tmp_path / "tf" / "model")
    tf.raw_ops.SaveV2(prefix=tf_prefix, tensor_names=names, shape_and_slices=[""] * len(names),
                      tensors=[tf.constant(values[n]) for n in names])
    reader = BundleReader(tf_prefix)
    for name, value in values.items():
        assert same_bits(reader.get_tensor(name), value), name
    nf_prefix = write_bundle(tmp_path / "nf" / "model", values)
    assert read_bytes(nf_prefix + ".index") == read_bytes(tf_prefix + ".index")
    suffix = ".data-00000-of-00001"
    assert read_bytes(nf_prefix + suffix) == read_bytes(tf_prefix + suffix)


def test_tensorflow_reads_shards_and_state_files(tmp_path):
    values = {f"v{i}": np.full(i + 1, i, np.int64) for i in range(5)}
    prefix = write_bundle(tmp_path / "model-3", values, num_shards=3)
    update_checkpoint_state(tmp_path, prefix, save_relative_paths=True)
    assert tf.train.latest_checkpoint(str(tmp_path)) == os.path.join(str(tmp_path), "model-3")
    reader = tf.train.load_checkpoint(str(tmp_path))
    for name, value in values.items():
        assert np.array_equal(reader.get_tensor(name), value)


def test_saver_restores_what_numflow_wrote(tmp_path):
    prefix = write_bundle(tmp_path / "model", {"w": np.arange(6, dtype=np.float32).reshape(2, 3),
                                               "step": np.int64(4)})
    v1 = tf.compat.v1
    with tf.Graph().as_default(), v1.Session() as sess:
        w = v1.get_variable("w", shape=(2, 3), dtype=tf.float32, use_resource=False)
        step = v1.get_variable("step", shape=(), dtype=tf.int64, use_resource=False)
        v1.train.Saver().restore(sess, prefix)
        assert sess.run(w).tolist() == [[0, 1, 2], [3, 4, 5]] and sess.run(step) == 4
