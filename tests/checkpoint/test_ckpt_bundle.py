"""BundleWriter and BundleReader round trips: every dtype, scalars, empty tensors, strings, layouts,
shards, big-endian bundles, reading into preallocated arrays."""

import os
import threading

import numpy as np
import pytest
from ckpt_helpers import patch_bytes, read_bytes, same_bits

from numflow.checkpoint import bundle, datatypes, table
from numflow.checkpoint.bundle import BundleReader, BundleWriter, write_bundle
from numflow.checkpoint.protos import BundleHeader
from numflow.framework import dtypes, errors

FIXED = {
    "float32": np.array([1.5, -0.0, np.inf, np.nan, 1e-45], np.float32),
    "float64": np.array([[np.pi, -1e-310]], np.float64),
    "float16": np.array([1.0, -65504.0, 6e-8], np.float16),
    "int8": np.array([-128, 127], np.int8),
    "int16": np.array([-32768, 7], np.int16),
    "int32": np.arange(12, dtype=np.int32).reshape(2, 3, 2),
    "int64": np.array([-(2**63), 2**63 - 1], np.int64),
    "uint8": np.array([0, 255], np.uint8),
    "uint16": np.array([65535], np.uint16),
    "uint32": np.array([2**32 - 1], np.uint32),
    "uint64": np.array([2**64 - 1], np.uint64),
    "bool": np.array([[True, False], [False, True]]),
    "complex64": np.array([1 + 2j, -3.5j], np.complex64),
    "complex128": np.array([np.nan + 1j], np.complex128),
}
ENUMS = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6, "complex64": 8,
         "int64": 9, "bool": 10, "uint16": 17, "complex128": 18, "float16": 19, "uint32": 22, "uint64": 23}


def _strings(*items, shape=None):
    arr = np.empty(len(items), dtype=object)
    arr[:] = list(items)
    return arr.reshape(shape) if shape else arr


@pytest.mark.parametrize("big_endian", [False, True])
def test_every_fixed_width_dtype_round_trips_bit_exactly(tmp_path, big_endian):
    prefix = str(tmp_path / "m")
    with BundleWriter(prefix, big_endian=big_endian) as writer:
        for name, value in FIXED.items():
            writer.add(name, value)
    reader = BundleReader(prefix)
    assert reader.endianness == int(big_endian)
    for name, value in FIXED.items():
        actual = reader.get_tensor(name)
        assert actual.dtype == value.dtype and actual.dtype.isnative and same_bits(actual, value), name
        assert reader.entry(name).dtype == ENUMS[name]
        assert reader.dtypes()[name].as_datatype_enum == ENUMS[name]
    if big_endian:
        data = read_bytes(prefix + ".data-00000-of-00001")
        offset = reader.entry("int32").offset
        assert data[offset:offset + 8] == bytes.fromhex("00000000 00000001")


def test_framework_dtypes_are_used_where_they_exist(tmp_path):
    prefix = write_bundle(tmp_path / "m", FIXED)
    found = BundleReader(prefix).dtypes()
    assert found["float32"] is dtypes.float32 and found["bool"] is dtypes.bool
    assert found["float16"] is dtypes.float16 and found["uint64"] is dtypes.uint64
    assert found["complex64"].as_datatype_enum == 8 and found["complex64"].as_numpy_dtype is np.complex64


def test_scalars_keep_shape_empty(tmp_path):
    values = {"f": np.float32(2.5), "i": np.array(3), "b": True, "py_float": 0.5, "s": b"scalar string",
              "u": "ünïcode"}
    reader = BundleReader(write_bundle(tmp_path / "m", values))
    for name in values:
        assert reader.shapes()[name] == () and reader.get_tensor(name).shape == ()
    assert reader.get_tensor("f") == np.float32(2.5)
    assert reader.get_tensor("py_float").dtype == np.float64
    assert reader.get_tensor("s")[()] == b"scalar string"
    assert reader.get_tensor("u")[()] == "ünïcode".encode()
    assert reader.entry("f").encode().startswith(bytes.fromhex("08 01 12 00"))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (4, 0), (2, 0, 5)])
def test_empty_tensors(tmp_path, shape):
    values = {"a": np.ones(3, np.float32), "empty": np.zeros(shape, np.int64), "z": np.ones(2, np.int8),
              "empty_str": np.empty(shape, dtype=object)}
    prefix = write_bundle(tmp_path / "m", values)
    reader = BundleReader(prefix)
    entry = reader.entry("empty")
    assert entry.size == 0 and entry.offset == 12 and entry.crc32c == table.mask_crc(0)
    assert reader.get_tensor("empty").shape == shape and reader.get_tensor("empty").dtype == np.int64
    assert reader.get_tensor("empty_str").shape == shape and reader.entry("empty_str").size == 4
    assert reader.get_tensor("z").tolist() == [1, 1]


def test_strings(tmp_path):
    values = {
        "vec": _strings(b"ab", b"", b"\x00\xff\x00", "ünï".encode(), b"x" * 300),
        "mat": _strings(b"a", b"bc", b"", b"def", shape=(2, 2)),
        "from_str": np.array(["héllo", "wörld"]),
        "from_list": [b"one", b"two"],
        "from_fixed_bytes": np.array([b"abc", b"d"]),
        "long": _strings(b"\x80" * 70000),
    }
    reader = BundleReader(write_bundle(tmp_path / "m", values))
    assert reader.get_tensor("vec").tolist() == [b"ab", b"", b"\x00\xff\x00", "ünï".encode(), b"x" * 300]
    assert reader.get_tensor("mat").tolist() == [[b"a", b"bc"], [b"", b"def"]]
    assert reader.get_tensor("from_str").tolist() == ["héllo".encode(), "wörld".encode()]
    assert reader.get_tensor("from_list").tolist() == [b"one", b"two"]
    assert reader.get_tensor("from_fixed_bytes").tolist() == [b"abc", b"d"]
    assert reader.get_tensor("long")[0] == b"\x80" * 70000
    assert all(reader.dtypes()[n].as_datatype_enum == 7 for n in values)


def test_bfloat16(tmp_path):
    floats = np.array([1.0, -2.0, np.inf, 3.14159, 1.00390625, 1.01171875, np.nan], np.float32)
    prefix = str(tmp_path / "m")
    with BundleWriter(prefix) as writer:
        writer.add("from_float", floats, dtype="bfloat16")
        writer.add("raw_bits", np.array([0x3F80, 0xC000], np.uint16), dtype=datatypes.DT_BFLOAT16)
    reader = BundleReader(prefix)
    bits = reader.get_tensor("from_float").view(np.uint16)
    # round to nearest even: 1.00390625 is a tie that rounds down, 1.01171875 one that rounds up
    assert bits.tolist() == [0x3F80, 0xC000, 0x7F80, 0x4049, 0x3F80, 0x3F82, 0x7FC0]
    assert reader.get_tensor("raw_bits").view(np.uint16).tolist() == [0x3F80, 0xC000]
    assert reader.dtypes()["raw_bits"].name == "bfloat16"
    assert reader.entry("raw_bits").dtype == 14


def test_layouts_and_byte_orders_are_normalized(tmp_path):
    base = np.arange(24, dtype=np.float64).reshape(4, 6)
    values = {"transposed": base.T, "strided": base[::2, 1::2], "fortran": np.asfortranarray(base),
              "big": base.astype(">f8"), "scalar_view": base[1, 2:3].reshape(())}
    reader = BundleReader(write_bundle(tmp_path / "m", values))
    for name, value in values.items():
        actual = reader.get_tensor(name)
        assert actual.shape == value.shape and np.array_equal(actual, value), name
        assert actual.dtype == np.float64 and actual.flags.c_contiguous


def test_data_order_is_add_order_and_index_is_sorted(tmp_path):
    prefix = str(tmp_path / "m")
    with BundleWriter(prefix) as writer:
        writer.add("z", np.int32(1))
        writer.add("a", np.int32(2))
    assert read_bytes(prefix + ".data-00000-of-00001") == bytes.fromhex("01000000 02000000")
    reader = BundleReader(prefix)
    assert reader.keys() == ["a", "z"] and reader.entry("a").offset == 4


def test_write_bundle_sorts_keys_bytewise_and_creates_directories(tmp_path):
    values = [("b", np.int8(1)), ("B", np.int8(2)), ("é", np.int8(3)), ("a/b", np.int8(4))]
    prefix = write_bundle(tmp_path / "deep" / "dir" / "m", values)
    assert read_bytes(prefix + ".data-00000-of-00001") == bytes([2, 4, 1, 3])
    assert BundleReader(prefix).keys() == ["B", "a/b", "b", "é"]


def test_non_utf8_names_round_trip(tmp_path):
    reader = BundleReader(write_bundle(tmp_path / "m", {b"raw\xffname": np.int8(5)}))
    [name] = reader.keys()
    assert reader.get_tensor(name) == 5 and reader.get_tensor(b"raw\xffname") == 5


def test_sharded_round_trip(tmp_path):
    values = {f"v{i}": np.full(i + 1, i, np.int32) for i in range(7)}
    prefix = write_bundle(tmp_path / "m", values, num_shards=3)
    assert sorted(os.listdir(tmp_path)) == ["m.data-00000-of-00003", "m.data-00001-of-00003",
                                            "m.data-00002-of-00003", "m.index"]
    reader = BundleReader(prefix)
    assert reader.num_shards == 3 and {reader.entry(n).shard_id for n in values} == {0, 1, 2}
    for name, value in values.items():
        assert np.array_equal(reader.get_tensor(name), value)


def test_unused_shards_still_get_empty_data_files(tmp_path):
    with BundleWriter(tmp_path / "m", num_shards=2) as writer:
        writer.add("only", np.int8(1), shard_id=1)
    assert os.path.getsize(tmp_path / "m.data-00000-of-00002") == 0
    with BundleWriter(tmp_path / "empty"):
        pass
    reader = BundleReader(tmp_path / "empty")
    assert reader.keys() == [] and len(reader) == 0


def test_get_tensor_into_preallocated_arrays(tmp_path):
    values = {"w": np.random.default_rng(0).random((3, 5), dtype=np.float32), "s": _strings(b"a", b"bc"),
              "scalar": np.int64(9)}
    reader = BundleReader(write_bundle(tmp_path / "m", values))
    for name, value in values.items():
        out = np.empty_like(value) if value.dtype != object else np.empty(value.shape, object)
        result = reader.get_tensor(name, out=out)
        assert result is out and same_bits(out, value)


def test_large_tensor_uses_parallel_reads_and_checks_every_chunk(tmp_path):
    big = np.random.default_rng(1).integers(0, 2**31, size=(5 << 20) + 123, dtype=np.int32)
    prefix = write_bundle(tmp_path / "m", {"big": big, "small": np.int8(1)})
    out = np.empty_like(big)
    assert BundleReader(prefix).get_tensor("big", out=out) is out and np.array_equal(out, big)
    patch_bytes(prefix + ".data-00000-of-00001", 9 << 20, b"\xaa")
    with pytest.raises(errors.DataLossError, match=r"\(20972012 bytes\): Checksum does not match"):
        BundleReader(prefix).get_tensor("big")


def test_the_disk_is_asked_to_write_every_byte_once_as_the_data_is_written(tmp_path, monkeypatch):
    ranges = []
    real = bundle.start_writeback

    def start_writeback(fd, offset, size):
        ranges.append((offset, size, os.fstat(fd).st_size))
        real(fd, offset, size)

    monkeypatch.setattr(bundle, "start_writeback", start_writeback)
    big = np.random.default_rng(2).random(5 << 20, dtype=np.float32)  # 20 MiB: crcs on helper threads
    small = np.arange(700_000, dtype=np.float32)  # 2.7 MiB: checksummed inline, in 256 KiB pieces
    prefix = write_bundle(tmp_path / "m", {"a": small, "b": big, "c": small})
    assert [offset for offset, _, _ in ranges] == [0] + [o + n for o, n, _ in ranges[:-1]]  # no gap, no overlap
    assert all(size >= 8 << 20 and offset + size <= file_size for offset, size, file_size in ranges)
    data_size = os.path.getsize(prefix + ".data-00000-of-00001")
    assert data_size - (ranges[-1][0] + ranges[-1][1]) < 8 << 20  # the rest is left to the final sync
    reader = BundleReader(prefix)
    assert np.array_equal(reader.get_tensor("b"), big) and np.array_equal(reader.get_tensor("c"), small)


def test_concurrent_reads_share_one_reader(tmp_path):
    values = {f"t{i}": np.full((64, 64), i, np.float64) for i in range(16)}
    reader = BundleReader(write_bundle(tmp_path / "m", values))
    failures = []

    def work(offset):
        for i in range(32):
            name = f"t{(i + offset) % 16}"
            if not np.all(reader.get_tensor(name) == int(name[1:])):
                failures.append(name)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_stored_bool_bytes_other_than_one_read_as_true(tmp_path):
    prefix = write_bundle(tmp_path / "m", {"flags": np.array([True, False, True])})
    data = bytes([7, 0, 1])
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(data)
    entries = [(b"", BundleHeader().encode())]
    reader = BundleReader(prefix)
    entry = reader.entry("flags")
    entry.crc32c = table.mask_crc(table.crc32c(data))
    entries.append((b"flags", entry.encode()))
    with open(prefix + ".index", "wb") as f:
        f.write(table.build_table(entries))
    flags = BundleReader(prefix).get_tensor("flags")
    assert flags.tolist() == [True, False, True] and flags.view(np.uint8).tolist() == [1, 0, 1]


def test_reader_context_and_container_protocol(tmp_path):
    prefix = write_bundle(tmp_path / "m", {"a": 1, "b": 2})
    with BundleReader(prefix) as reader:
        assert "a" in reader and "c" not in reader and list(reader) == ["a", "b"] and len(reader) == 2
        assert reader.get_tensor("a") == 1
    assert reader.get_tensor("b") == 2  # reopens the data file after close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_large_reads_work_in_a_forked_child(tmp_path):
    prefix = write_bundle(tmp_path / "m", {"big": np.ones(5 << 20, np.float32)})
    assert BundleReader(prefix).get_tensor("big").sum() == 5 << 20  # starts the parent's read threads
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        import signal

        signal.alarm(30)
        ok = BundleReader(prefix).get_tensor("big").sum() == 5 << 20
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
