"""Slices of partitioned variables in bundles: specs, TF's slice keys, and the checks on reading."""

import pathlib

import numpy as np
import pytest

from numflow.checkpoint import slices
from numflow.checkpoint.bundle import BundleWriter
from numflow.checkpoint.bundle_reader import BundleReader
from numflow.framework import errors

GOLDEN = pathlib.Path(__file__).parent.parent / "golden" / "partitioned"


def test_specs_parse_as_tensorflow_writes_them():
    assert slices.parse_spec("7 3 5,2:0,3") == ([7, 3], ((5, 2), (0, 3)))
    assert slices.parse_spec(b"4 2 -:1,1") == ([4, 2], ((0, None), (1, 1)))
    assert slices.shape_of(((0, None), (1, 1)), [4, 2]) == (4, 1)


@pytest.mark.parametrize("spec", ["7 3 5,3:0,3", "7 3 0,3", "7 x 0,3:0,3", "7 3 -1,2:0,3"])
def test_bad_specs_are_refused_naming_the_spec(spec):
    with pytest.raises(ValueError, match="Invalid shape_and_slice spec"):
        slices.parse_spec(spec)


def test_slice_keys_are_tensorflows():
    """The keys TF wrote for ``wide`` (two-byte numbers 75) and ``embedding`` (one-byte numbers)."""
    written = {k for k in BundleReader(GOLDEN / "model")._values if k.startswith(b"\x00")}
    ours = {slices.slice_key("wide", ((0, 75), (0, 1))), slices.slice_key("wide", ((75, 75), (0, 1)))}
    ours |= {slices.slice_key("embedding", ((start, length), (0, 3))) for start, length in ((0, 3), (3, 2), (5, 2))}
    assert ours == written


def test_names_with_zero_and_ff_bytes_are_escaped_and_numbers_keep_their_order():
    key = slices.slice_key(b"a\x00\xffb", ((0, None),))
    assert key.startswith(b"\x00a\x00\xff\xff\x00b\x00\x01\x01\x01")
    numbers = [-(2**40), -70, -1, 0, 1, 63, 64, 8191, 8192, 2**40, 2**62]
    encoded = [slices.slice_key("t", ((n, 1),)) for n in numbers]
    assert encoded == sorted(encoded) and len(set(encoded)) == len(numbers)


def test_a_slice_missing_from_the_bundle_is_data_loss(tmp_path):
    with BundleWriter(tmp_path / "m") as writer:
        writer.add_slice("t", [4, 2], ((0, 2), (0, 2)), np.ones((2, 2), np.float32))
    with pytest.raises(errors.DataLossError, match="The slices of t .* do not cover its shape"):
        BundleReader(tmp_path / "m").get_tensor("t")


def test_a_slice_of_another_dtype_or_shape_is_refused(tmp_path):
    writer = BundleWriter(tmp_path / "m")
    writer.add_slice("t", [4, 2], ((0, 2), (0, 2)), np.ones((2, 2), np.float32))
    with pytest.raises(errors.InvalidArgumentError, match="does not match the tensor of that name"):
        writer.add_slice("t", [4, 2], ((2, 2), (0, 2)), np.ones((2, 2), np.float64))
    with pytest.raises(errors.InvalidArgumentError, match="has shape \\[2, 2\\], but its value has shape \\[1, 2\\]"):
        writer.add_slice("t", [4, 2], ((2, 2), (0, 2)), np.ones((1, 2), np.float32))
    writer.abort()


def test_a_slice_is_read_from_a_whole_tensor_and_checked_against_its_shape(tmp_path):
    full = np.arange(8.0).reshape(4, 2)
    with BundleWriter(tmp_path / "m") as writer:
        writer.add("t", full)
    reader = BundleReader(tmp_path / "m")
    np.testing.assert_array_equal(slices.read_value(reader, "t", "4 2 1,2:-"), full[1:3])
    with pytest.raises(ValueError, match=r"shape in shape_and_slice spec \[5,2\] does not match the shape stored "
                                         r"in checkpoint: \[4,2\]"):
        slices.read_value(reader, "t", "5 2 1,2:-")
