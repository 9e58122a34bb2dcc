"""Every reader check of spec section 8: the error class and TF's message text."""

import os
import re

import numpy as np
import pytest
from ckpt_helpers import V1_DATA, V1_INDEX, V2_DATA, V2_INDEX, flip_byte, hexbytes, patch_bytes, truncate

from numflow.checkpoint import table
from numflow.checkpoint.bundle import BundleReader, CheckpointVersionError, write_bundle
from numflow.checkpoint.protos import BundleEntry, BundleHeader
from numflow.checkpoint.reader import load_checkpoint
from numflow.framework import errors


def _v1(tmp_path):
    prefix = str(tmp_path / "model")
    with open(prefix + ".index", "wb") as f:
        f.write(V1_INDEX)
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(V1_DATA)
    return prefix


def _v2(tmp_path):
    prefix = str(tmp_path / "model")
    with open(prefix + ".index", "wb") as f:
        f.write(V2_INDEX)
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(V2_DATA)
    return prefix


def _raw_bundle(tmp_path, entries, data=b"", header=None):
    """A bundle from hand-made entries: (key, BundleEntry or raw value bytes) pairs."""
    prefix = str(tmp_path / "raw")
    header = header if header is not None else BundleHeader().encode()
    items = [(b"", header)] + sorted(
        (k.encode() if isinstance(k, str) else k, v.encode() if isinstance(v, BundleEntry) else v)
        for k, v in entries)
    with open(prefix + ".index", "wb") as f:
        f.write(table.build_table(items))
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(data)
    return prefix


def _corrupt_text(prefix, detail):
    return re.escape(f"Unable to read file ({prefix}.index). Perhaps the file is corrupt or was produced by a "
                     f"newer version of TensorFlow with format changes ({detail}): ")


# -- the index ---------------------------------------------------------------------------------------


def test_missing_index(tmp_path):
    prefix = str(tmp_path / "nothing")
    with pytest.raises(errors.NotFoundError) as info:
        load_checkpoint(prefix)
    assert str(info.value) == ("Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                               f"files for {prefix}")
    with pytest.raises(errors.NotFoundError, match=re.escape(f"{prefix}.index; No such file or directory")):
        BundleReader(prefix)


@pytest.mark.parametrize("size", [0, 1, 47])
def test_index_shorter_than_a_footer(tmp_path, size):
    prefix = _v1(tmp_path)
    truncate(prefix + ".index", size)
    with pytest.raises(errors.DataLossError, match="^file is too short to be an sstable$"):
        BundleReader(prefix)
    with pytest.raises(errors.DataLossError, match="file is too short to be an sstable"):
        load_checkpoint(prefix)


@pytest.mark.parametrize("how", ["truncated", "magic"])
def test_index_truncated_or_bad_magic(tmp_path, how):
    prefix = _v1(tmp_path)
    if how == "truncated":
        truncate(prefix + ".index", 100)
    else:
        flip_byte(prefix + ".index", len(V1_INDEX) - 1)
    with pytest.raises(errors.DataLossError, match=r"^not an sstable \(bad magic number\)$"):
        BundleReader(prefix)


@pytest.mark.parametrize("offset", [0, 5, 12, 20, 31, 32, 33])
def test_byte_flipped_inside_the_data_block(tmp_path, offset):
    prefix = _v1(tmp_path)
    flip_byte(prefix + ".index", offset)
    message = _corrupt_text(prefix, "failed to seek to header entry") + "block checksum mismatch$"
    with pytest.raises(errors.DataLossError, match=message):
        BundleReader(prefix)


def test_byte_flipped_inside_the_index_block(tmp_path):
    prefix = _v1(tmp_path)
    flip_byte(prefix + ".index", 52)  # TF's Table::Open reads the index block: its text, unwrapped
    with pytest.raises(errors.DataLossError, match="^block checksum mismatch$"):
        BundleReader(prefix)


def test_bad_block_type(tmp_path):
    prefix = _v1(tmp_path)
    data = bytearray(V1_INDEX)
    data[32] = 2
    data[33:37] = table.encode_fixed32(table.mask_crc(table.crc32c(bytes(data[0:33]))))
    with open(prefix + ".index", "wb") as f:
        f.write(bytes(data))
    with pytest.raises(errors.DataLossError, match=_corrupt_text(prefix, "failed to seek to header entry")
                       + "bad block type$"):
        BundleReader(prefix)


def test_snappy_block_is_refused_clearly(tmp_path):
    prefix = _v1(tmp_path)
    data = bytearray(V1_INDEX)
    data[32] = 1
    data[33:37] = table.encode_fixed32(table.mask_crc(table.crc32c(bytes(data[0:33]))))
    with open(prefix + ".index", "wb") as f:
        f.write(bytes(data))
    with pytest.raises(errors.UnimplementedError, match="Snappy"):
        BundleReader(prefix)


def test_block_past_the_end_of_the_file(tmp_path):
    prefix = _v1(tmp_path)
    patch_bytes(prefix + ".index", len(V1_INDEX) - 46, hexbytes("32 7f"))  # index handle size 127
    with pytest.raises(errors.DataLossError, match="^truncated block read$"):
        BundleReader(prefix)


def test_bad_block_handle_and_contents():
    footer = hexbytes("ff ff ff ff ff ff ff ff ff ff ff") + bytes(29) + table.MAGIC
    with pytest.raises(errors.DataLossError, match="^bad block handle$"):
        table.read_footer(footer)
    with pytest.raises(errors.DataLossError, match="^bad block contents$"):
        table.parse_block(b"\x00\x00")
    with pytest.raises(errors.DataLossError, match="^bad block contents$"):
        table.parse_block(table.encode_fixed32(9))
    with pytest.raises(errors.DataLossError, match="^bad entry in block$"):
        table.parse_block(hexbytes("05 01 00 61") + table.encode_fixed32(0) + table.encode_fixed32(1))


def test_header_that_does_not_parse(tmp_path):
    prefix = _raw_bundle(tmp_path, [], header=hexbytes("0a 05 01"))
    with pytest.raises(errors.DataLossError, match=_corrupt_text(prefix, "unable to parse header")
                       + "Entry for key  not parseable.$"):
        BundleReader(prefix)


def test_index_without_header_entry(tmp_path):
    prefix = str(tmp_path / "m")
    with open(prefix + ".index", "wb") as f:
        f.write(table.build_table([]))
    with pytest.raises(errors.DataLossError, match=r"\(failed to seek to header entry\)$"):
        BundleReader(prefix)


# -- versions ----------------------------------------------------------------------------------------


def test_min_consumer_above_current(tmp_path):
    prefix = _raw_bundle(tmp_path, [], header=BundleHeader(min_consumer=2).encode())
    text = ("Checkpoint min consumer version 2 above current version 1 for TensorFlow 2.21.0.  "
            "Please upgrade TensorFlow.")
    for exc_type in (ValueError, errors.InvalidArgumentError, CheckpointVersionError):
        with pytest.raises(exc_type, match=f"^{re.escape(text)}$"):
            load_checkpoint(prefix)


@pytest.mark.parametrize("packed", [True, False])
def test_bad_consumers(tmp_path, packed):
    if packed:
        header = BundleHeader(bad_consumers=(0, 1)).encode()
    else:
        header = hexbytes("08 01 1a 06 08 01 18 00 18 01")
    prefix = _raw_bundle(tmp_path, [], header=header)
    text = "Checkpoint disallows consumer version 1.  Please upgrade TensorFlow: this version is likely buggy."
    with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
        BundleReader(prefix)


def test_producer_versions(tmp_path):
    for producer in (0, 99):  # no upper bound, as in TF
        BundleReader(_raw_bundle(tmp_path, [], header=BundleHeader(producer=producer).encode()))
    with pytest.raises(errors.InvalidArgumentError, match="producer version -1 below min producer 0"):
        BundleReader(_raw_bundle(tmp_path, [], header=BundleHeader(producer=-1).encode()))


# -- entries -----------------------------------------------------------------------------------------


def test_key_absent_with_near_names(tmp_path):
    reader = BundleReader(_v2(tmp_path))
    with pytest.raises(errors.NotFoundError, match="^Key zzz not found in checkpoint$"):
        reader.get_tensor("zzz")
    with pytest.raises(errors.NotFoundError, match="^Key layer1/weight not found in checkpoint. "
                       "Did you mean 'layer1/weights'"):
        reader.get_tensor("layer1/weight")
    with pytest.raises(errors.NotFoundError, match="^Key zzz not found in checkpoint$"):
        load_checkpoint(reader.prefix).get_tensor("zzz")
    assert not reader.has_tensor("") and not reader.has_tensor("zzz")


def test_entry_not_parseable(tmp_path):
    reader = BundleReader(_raw_bundle(tmp_path, [("bad", hexbytes("08"))]))
    assert reader.keys() == ["bad"]
    with pytest.raises(errors.DataLossError, match=r"^Entry for key bad not parseable\.$"):
        reader.get_tensor("bad")
    with pytest.raises(errors.DataLossError, match="not parseable"):
        reader.dtypes()


@pytest.mark.parametrize("shape, text", [
    ((2, -1), "dim { size: 2 } dim { size: -1 }"),
    ((1 << 40, 1 << 40), "dim { size: 1099511627776 } dim { size: 1099511627776 }"),
    ((1,) * 255, None),
])
def test_invalid_tensor_shape(tmp_path, shape, text):
    reader = BundleReader(_raw_bundle(tmp_path, [("v", BundleEntry(dtype=1, shape=shape, size=4))], b"1234"))
    pattern = "^Invalid tensor shape: v " + (re.escape(text) + "$" if text else "")
    with pytest.raises(errors.DataLossError, match=pattern):
        reader.get_tensor("v")
    with pytest.raises(errors.DataLossError, match=pattern):
        reader.shapes()


def test_size_is_not_elements_times_itemsize(tmp_path):
    entries = [("v", BundleEntry(dtype=1, shape=(3,), size=8)),
               ("s", BundleEntry(dtype=7, shape=(5,), size=3))]
    reader = BundleReader(_raw_bundle(tmp_path, entries, bytes(16)))
    with pytest.raises(errors.DataLossError,
                       match=r"^Invalid size in bundle entry: key v; stored size 8; expected size 12$"):
        reader.get_tensor("v")
    with pytest.raises(errors.DataLossError,
                       match=r"^Invalid size in bundle entry: key s; stored size 3; expected size is at least 5$"):
        reader.get_tensor("s")


def test_shard_out_of_range_and_negative_offset(tmp_path):
    entries = [("a", BundleEntry(dtype=1, shape=(), shard_id=3, size=4)),
               ("b", BundleEntry(dtype=1, shape=(), offset=-4, size=4))]
    reader = BundleReader(_raw_bundle(tmp_path, entries, bytes(16)))
    with pytest.raises(errors.DataLossError, match="Invalid shard_id in bundle entry: key a; shard_id 3"):
        reader.get_tensor("a")
    with pytest.raises(errors.DataLossError, match="Invalid offset or size in bundle entry: key b"):
        reader.get_tensor("b")


def test_unsupported_dtype(tmp_path):
    reader = BundleReader(_raw_bundle(tmp_path, [("r", BundleEntry(dtype=20, shape=(), size=4))], bytes(4)))
    with pytest.raises(errors.UnimplementedError, match="^Data type not supported: tensor r has dtype resource"):
        reader.get_tensor("r")
    assert reader.dtypes()["r"].as_datatype_enum == 20


# -- the data files ----------------------------------------------------------------------------------


def test_tensor_byte_flipped(tmp_path):
    prefix = _v1(tmp_path)
    patch_bytes(prefix + ".data-00000-of-00001", 1, b"\x01")
    text = (f"TensorBundle at {prefix} shard 0 (4 bytes): Checksum does not match: stored 3713320107 vs. "
            "calculated on the restored bytes 2014664405")
    with pytest.raises(errors.DataLossError, match="^" + re.escape(text)) as info:
        BundleReader(prefix).get_tensor("v")
    assert "tensor v" in str(info.value) and "model.data-00000-of-00001" in str(info.value)
    with pytest.raises(errors.DataLossError, match=re.escape(text)):
        load_checkpoint(prefix).get_tensor("v")


def test_string_length_varint_corrupted(tmp_path):
    prefix = _v2(tmp_path)
    patch_bytes(prefix + ".data-00000-of-00001", 24, b"\x01")  # s's first length: 2 -> 1
    expected = table.crc32c(hexbytes("02000000 00000000"))
    actual = table.crc32c(hexbytes("01000000 00000000"))
    text = f"The length checksum does not match: expected {expected:08d} but actual is {actual:08d}"
    with pytest.raises(errors.DataLossError, match="^" + re.escape(text)):
        BundleReader(prefix).get_tensor("s")


def test_string_element_bytes_corrupted(tmp_path):
    prefix = _v2(tmp_path)
    patch_bytes(prefix + ".data-00000-of-00001", 31, b"X")
    with pytest.raises(errors.DataLossError, match=r"^TensorBundle at .* shard 0 \(8 bytes\): Checksum does not"):
        BundleReader(prefix).get_tensor("s")


@pytest.mark.parametrize("size", [0, 2])
def test_data_file_truncated(tmp_path, size):
    prefix = _v1(tmp_path)
    truncate(prefix + ".data-00000-of-00001", size)
    with pytest.raises(errors.OutOfRangeError, match="^Read less bytes than requested"):
        BundleReader(prefix).get_tensor("v")


def test_data_file_missing(tmp_path):
    prefix = _v1(tmp_path)
    os.remove(prefix + ".data-00000-of-00001")
    reader = BundleReader(prefix)  # shards open lazily, as in TF
    assert reader.keys() == ["v"]
    text = f"{prefix}.data-00000-of-00001; No such file or directory"
    with pytest.raises(errors.NotFoundError, match="^" + re.escape(text) + "$"):
        reader.get_tensor("v")


def test_huge_declared_size_fails_before_allocating(tmp_path):
    entries = [("big", BundleEntry(dtype=2, shape=(1 << 40,), size=8 << 40)),
               ("strs", BundleEntry(dtype=7, shape=(1 << 40,), size=1 << 40))]
    reader = BundleReader(_raw_bundle(tmp_path, entries, bytes(64)))
    for name in ("big", "strs"):
        with pytest.raises(errors.OutOfRangeError, match="^Read less bytes than requested"):
            reader.get_tensor(name)


# -- restoring into existing arrays (the Saver's checks) ---------------------------------------------


def test_out_with_other_dtype(tmp_path):
    reader = BundleReader(_v1(tmp_path))
    text = "tensor_name = v; expected dtype int32 does not equal original dtype float"
    with pytest.raises(errors.InvalidArgumentError, match="^" + re.escape(text) + "$"):
        reader.get_tensor("v", out=np.zeros((), np.int32))


def test_out_with_other_shape_or_layout(tmp_path):
    prefix = write_bundle(tmp_path / "m", {"w": np.ones((2, 2), np.float32)})
    reader = BundleReader(prefix)
    with pytest.raises(errors.InvalidArgumentError, match=r"tensor_name = w; shape of the out array \[4\] "
                       r"does not match the shape stored in checkpoint: \[2,2\]"):
        reader.get_tensor("w", out=np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        reader.get_tensor("w", out=np.zeros((2, 2), np.float32, order="F"))
    with pytest.raises(ValueError, match="writeable"):
        frozen = np.zeros((2, 2), np.float32)
        frozen.flags.writeable = False
        reader.get_tensor("w", out=frozen)
