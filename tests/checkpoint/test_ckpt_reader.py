"""tf.train's reading API: load_checkpoint, CheckpointReader, list_variables, load_variable."""

import os
import re

import numpy as np
import pytest

from numflow.checkpoint.bundle import write_bundle
from numflow.checkpoint.reader import (
    CheckpointNotFoundError,
    CheckpointReader,
    list_variables,
    load_checkpoint,
    load_variable,
)
from numflow.checkpoint.state import update_checkpoint_state
from numflow.framework import dtypes, errors


def _checkpoint(tmp_path, name="model-1"):
    strings = np.empty(2, dtype=object)
    strings[:] = [b"x", b"yz"]
    return write_bundle(tmp_path / name, {"a": np.float32(1.5), "s": b"hello", "sv": strings, "i": np.int64(3),
                                          "w/kernel": np.ones((2, 3), np.float32)})


def test_values_like_tf(tmp_path):
    reader = load_checkpoint(_checkpoint(tmp_path))
    assert isinstance(reader, CheckpointReader)
    a = reader.get_tensor("a")
    assert type(a) is np.float32 and a == 1.5
    assert reader.get_tensor("s") == b"hello" and type(reader.get_tensor("s")) is bytes
    assert type(reader.get_tensor("i")) is np.int64
    sv = reader.get_tensor("sv")
    assert sv.dtype == object and sv.tolist() == [b"x", b"yz"]
    assert reader.get_tensor("w/kernel").shape == (2, 3)
    assert reader.has_tensor("a") and not reader.has_tensor("b")


def test_maps_and_debug_string(tmp_path):
    reader = load_checkpoint(_checkpoint(tmp_path))
    assert reader.get_variable_to_shape_map() == {"a": [], "i": [], "s": [], "sv": [2], "w/kernel": [2, 3]}
    dtype_map = reader.get_variable_to_dtype_map()
    assert dtype_map == {"a": dtypes.float32, "i": dtypes.int64, "s": dtypes.string, "sv": dtypes.string,
                         "w/kernel": dtypes.float32}
    assert reader.debug_string() == (b"a (DT_FLOAT) []\ni (DT_INT64) []\ns (DT_STRING) []\n"
                                     b"sv (DT_STRING) [2]\nw/kernel (DT_FLOAT) [2,3]\n")


def test_directory_resolves_through_the_state_file(tmp_path):
    _checkpoint(tmp_path, "model-1")
    newest = write_bundle(tmp_path / "model-2", {"a": np.float32(2.5)})
    update_checkpoint_state(tmp_path, "model-2", ["model-1", "model-2"])
    assert load_checkpoint(tmp_path).prefix == os.path.join(str(tmp_path), "model-2") == newest
    assert load_variable(tmp_path, "a:0") == 2.5
    assert list_variables(tmp_path) == [("a", [])]
    assert list_variables(tmp_path / "model-1") == [("a", []), ("i", []), ("s", []), ("sv", [2]),
                                                    ("w/kernel", [2, 3])]


def test_missing_checkpoints(tmp_path):
    text = f"Couldn't find 'checkpoint' file or checkpoints in given directory {tmp_path}"
    for exc_type in (CheckpointNotFoundError, errors.NotFoundError, ValueError):
        with pytest.raises(exc_type, match="^" + re.escape(text) + "$"):
            load_checkpoint(tmp_path)
    prefix = str(tmp_path / "model-9")
    with pytest.raises(errors.NotFoundError, match="^" + re.escape(
            f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {prefix}") + "$"):
        load_variable(prefix, "a")
    with pytest.raises(errors.NotFoundError, match="^Key zzz not found in checkpoint$"):
        load_variable(_checkpoint(tmp_path), "zzz")


def test_preallocated_restore_through_the_bundle(tmp_path):
    reader = load_checkpoint(_checkpoint(tmp_path))
    out = np.zeros((2, 3), np.float32)
    assert reader.bundle.get_tensor("w/kernel", out=out) is out and out.sum() == 6
