"""The byte-level test vectors of spec/tf-checkpoint-format.md (sections 1, 4 and 9), byte for byte."""

import os

import numpy as np
import pytest
from ckpt_helpers import V1_DATA, V1_INDEX, V2_DATA, V2_INDEX, hexbytes, read_bytes

from numflow.checkpoint import table
from numflow.checkpoint.bundle import BundleReader, BundleWriter, encode_strings, write_bundle
from numflow.checkpoint.protos import BundleEntry, BundleHeader


def _v2_values():
    strings = np.empty(2, dtype=object)
    strings[:] = [b"ab", b""]
    return {
        "layer1/weights": np.array([[1, 2], [3, 4]], dtype=np.float32),
        "s": strings,
        "e": np.zeros((0, 3), dtype=np.float32),
        "global_step": np.int64(7),
    }


# -- section 1: primitives ---------------------------------------------------------------------------


def test_crc32c_check_value_and_extension():
    assert table.crc32c(b"123456789") == 0xE3069283
    assert table.crc32c(b"6789", table.crc32c(b"12345")) == 0xE3069283
    assert table.crc32c(np.frombuffer(b"123456789", np.uint8)) == 0xE3069283
    assert table.crc32c(memoryview(bytearray(b"123456789"))) == 0xE3069283


def test_native_and_binding_crc32c_agree(monkeypatch):
    data = np.random.default_rng(5).integers(0, 256, (1 << 18) + 7, dtype=np.uint8)
    native = [table.crc32c(data), table.crc32c(data[3:], 12345), table.crc32c(data[::1][100:])]
    monkeypatch.setattr(table, "_NATIVE_EXTEND", None)
    assert native == [table.crc32c(data), table.crc32c(data[3:], 12345), table.crc32c(data[100:].tobytes())]


def test_crc32c_combine():
    rng = np.random.default_rng(9)
    for size_a, size_b in [(0, 0), (0, 5), (7, 0), (1, 1), (1000, 3), (12345, 1 << 20)]:
        a, b = rng.bytes(size_a), rng.bytes(size_b)
        assert table.crc32c_combine(table.crc32c(a), table.crc32c(b), size_b) == table.crc32c(a + b)


def test_masked_crc_examples_and_inverse():
    assert table.mask_crc(0) == 0xA282EAD8
    assert table.crc32c(hexbytes("00 00 80 3F")) == 0xDD54C4AB
    assert table.mask_crc(0xDD54C4AB) == 0x2BDAA581
    for crc in (0, 1, 0xDD54C4AB, 0xFFFFFFFF, 0x80000000):
        assert table.unmask_crc(table.mask_crc(crc)) == crc


@pytest.mark.parametrize("value, encoded", [
    (0, "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"),
    (2**63 - 1, "ffffffffffffffff7f"), (-1, "ffffffffffffffffff01"),
])
def test_varint(value, encoded):
    assert table.encode_varint(value).hex() == encoded
    decoded, pos = table.decode_varint(bytes.fromhex(encoded), 0, len(encoded) // 2)
    assert decoded == value & (2**64 - 1) and pos == len(encoded) // 2


def test_empty_block_and_metaindex_bytes():
    assert table.BlockBuilder(16).finish() == hexbytes("00000000 01000000")
    assert V1_INDEX[37:50] == hexbytes("00000000 01000000 00 C0 F2 A1 B0")


# -- V1 ----------------------------------------------------------------------------------------------


def test_v1_written_byte_for_byte(tmp_path):
    prefix = write_bundle(tmp_path / "model", {"v": np.float32(1.0)})
    assert read_bytes(prefix + ".index") == V1_INDEX
    assert read_bytes(prefix + ".data-00000-of-00001") == V1_DATA


def test_v1_decoded_as_the_spec_says():
    metaindex, index = table.read_footer(V1_INDEX)
    assert metaindex == (37, 8) and index == (50, 14)
    assert table.read_index(V1_INDEX) == [(b"w", (0, 32))]
    entries = table.read_table(V1_INDEX)
    assert entries[0] == (b"", hexbytes("08011a020801"))
    entry = BundleEntry.decode(entries[1][1])
    assert (entries[1][0], entry.dtype, entry.shape, entry.size, entry.crc32c) == (b"v", 1, (), 4, 0x2BDAA581)


def test_v1_read_back(tmp_path):
    (tmp_path / "model.index").write_bytes(V1_INDEX)
    (tmp_path / "model.data-00000-of-00001").write_bytes(V1_DATA)
    value = BundleReader(tmp_path / "model").get_tensor("v")
    assert value.shape == () and value.dtype == np.float32 and value == 1.0


# -- V2 ----------------------------------------------------------------------------------------------


def test_v2_written_byte_for_byte(tmp_path):
    prefix = write_bundle(tmp_path / "model", _v2_values())
    assert read_bytes(prefix + ".data-00000-of-00001") == V2_DATA
    assert read_bytes(prefix + ".index") == V2_INDEX
    assert table.read_footer(V2_INDEX) == ((125, 8), (138, 14))
    assert table.read_index(V2_INDEX)[-1][0] == b"t"


def test_v2_read_back(tmp_path):
    (tmp_path / "model.index").write_bytes(V2_INDEX)
    (tmp_path / "model.data-00000-of-00001").write_bytes(V2_DATA)
    reader = BundleReader(tmp_path / "model")
    assert reader.keys() == ["e", "global_step", "layer1/weights", "s"]
    for name, expected in _v2_values().items():
        actual = reader.get_tensor(name)
        assert actual.shape == expected.shape and actual.dtype == expected.dtype
        assert actual.tolist() == expected.tolist()


def test_v2_string_encoding():
    payload, crc = encode_strings([b"ab", b""])
    assert payload == hexbytes("02 00 78 27 0b 34 61 62")
    assert table.mask_crc(crc) == 0x4DB08891
    assert table.mask_crc(table.crc32c(hexbytes("02000000 00000000"))) == 0x340B2778
    payload, _ = encode_strings([b"scalar string"])
    assert payload[:5] == hexbytes("0d 61 1b 57 09") and len(payload) == 18
    payload, crc = encode_strings([])
    assert payload == hexbytes("D8 EA 82 A2") and table.mask_crc(crc) == 0x640CC1F6


def test_empty_tensor_entry_bytes():
    empty = [v for k, v in table.read_table(V2_INDEX) if k == b"e"][0]
    assert empty.endswith(hexbytes("35 D8 EA 82 A2"))
    assert BundleEntry(dtype=1, shape=(0, 3), crc32c=table.mask_crc(0)).encode() == empty


# -- V3 ----------------------------------------------------------------------------------------------


def test_v3_two_shard_header_and_entry(tmp_path):
    prefix = str(tmp_path / "model")
    with BundleWriter(prefix, num_shards=2) as writer:
        writer.add("a", np.array([1.0, 2.0], np.float32), shard_id=0)
        writer.add("b", np.arange(4, dtype=np.int64), shard_id=1)
    entries = dict(table.read_table(read_bytes(prefix + ".index")))
    assert entries[b""] == hexbytes("08 02 1a 02 08 01") == BundleHeader(num_shards=2).encode()
    b_crc = table.mask_crc(table.crc32c(np.arange(4, dtype="<i8").tobytes()))
    assert b_crc == 0xDF02FFB4
    assert entries[b"b"] == hexbytes("08 09 12 04 12 02 08 04 18 01 28 20 35 b4 ff 02 df")
    assert os.path.getsize(prefix + ".data-00000-of-00002") == 8
    assert os.path.getsize(prefix + ".data-00001-of-00002") == 32
    reader = BundleReader(prefix)
    assert reader.num_shards == 2
    assert reader.get_tensor("b").tolist() == [0, 1, 2, 3]
    assert reader.get_tensor("a").tolist() == [1.0, 2.0]


# -- section 2.4: separators -------------------------------------------------------------------------


@pytest.mark.parametrize("start, limit, expected", [
    (b"6126abc/w", b"6128abc/w", b"6127"),
    (b"c19e", b"c1a3", b"c1:"),
    (b"abc", b"abcd", b"abc"),
    (b"ab\xff", b"ac", b"ab\xff"),
    (b"a1", b"a2", b"a1"),
])
def test_shortest_separator(start, limit, expected):
    assert table.shortest_separator(start, limit) == expected


@pytest.mark.parametrize("key, expected", [(b"v", b"w"), (b"u8", b"v"), (b"\xff\xffa", b"\xff\xffb"),
                                           (b"\xff\xff", b"\xff\xff"), (b"", b"")])
def test_short_successor(key, expected):
    assert table.short_successor(key) == expected
