"""Checkpoint <-> .safetensors conversion (skipped when the safetensors package is missing)."""

import os

import numpy as np
import pytest
from ckpt_helpers import same_bits

from numflow.checkpoint.bundle import BundleReader, write_bundle

safetensors_numpy = pytest.importorskip("safetensors.numpy")
from numflow.checkpoint.safetensors import export_safetensors, import_safetensors  # noqa: E402

VALUES = {
    "dense/kernel": np.arange(6, dtype=np.float32).reshape(2, 3),
    "f16": np.array([1.0, np.inf], np.float16),
    "f64": np.array([np.pi]),
    "i8": np.array([-1, 2], np.int8),
    "u64": np.array([2**64 - 1], np.uint64),
    "flags": np.array([True, False]),
    "c64": np.array([1 + 2j], np.complex64),
    "scalar": np.int64(7),
    "empty": np.zeros((0, 4), np.float32),
}


def test_export_then_import_round_trips(tmp_path):
    prefix = write_bundle(tmp_path / "model", VALUES)
    path = str(tmp_path / "model.safetensors")
    assert export_safetensors(prefix, path, metadata={"source": "numflow"}) == []
    loaded = safetensors_numpy.load_file(path)
    assert set(loaded) == set(VALUES)
    for name, value in VALUES.items():
        assert same_bits(loaded[name], value), name
    back = import_safetensors(path, tmp_path / "back" / "model")
    reader = BundleReader(back)
    for name, value in VALUES.items():
        actual = reader.get_tensor(name)
        assert actual.dtype == value.dtype and same_bits(actual, value), name
    assert sorted(os.listdir(tmp_path / "back")) == ["model.data-00000-of-00001", "model.index"]


def test_types_safetensors_cannot_hold(tmp_path):
    strings = np.empty(1, dtype=object)
    strings[0] = b"text"
    prefix = write_bundle(tmp_path / "model", {"w": np.ones(2, np.float32), "s": strings,
                                               "c128": np.array([1j])})
    path = str(tmp_path / "out.safetensors")
    with pytest.raises(ValueError, match="Tensor c128 has dtype complex128"):
        export_safetensors(prefix, path)
    assert not os.path.exists(path)
    assert export_safetensors(prefix, path, skip_unsupported=True) == ["c128", "s"]
    assert list(safetensors_numpy.load_file(path)) == ["w"]
    assert [f for f in os.listdir(tmp_path) if ".tmp" in f] == []
