"""Fuzzing the reader: corrupted, truncated, garbage and hostile checkpoints.

Whatever the bytes, reading raises only numflow's OpError subclasses or ValueError, allocates no
more than the files could hold, and finishes quickly. Seeded loops keep every run identical.
"""

import os
import random
import time
import tracemalloc

import numpy as np
import pytest
from ckpt_helpers import V2_DATA, V2_INDEX

from numflow.checkpoint import table
from numflow.checkpoint.bundle import BundleReader, BundleWriter, write_bundle
from numflow.checkpoint.protos import BundleEntry, BundleHeader
from numflow.checkpoint.reader import load_checkpoint
from numflow.framework import errors

ALLOWED = (errors.OpError, ValueError)
CASE_LIMIT_S = 2.0


def _read_everything(prefix):
    """Open ``prefix`` and read every tensor and map; return how many tensors came back."""
    count = 0
    reader = BundleReader(prefix)
    try:
        for getter in (reader.dtypes, reader.shapes):
            try:
                getter()
            except ALLOWED:
                pass
        for name in reader.keys():
            try:
                reader.get_tensor(name)
                count += 1
            except ALLOWED:
                pass
    finally:
        reader.close()
    return count


def _check(prefix):
    start = time.perf_counter()
    try:
        _read_everything(prefix)
    except ALLOWED:
        pass
    try:
        with load_checkpoint(prefix) as reader:
            for name in reader.get_variable_to_shape_map():
                try:
                    reader.get_tensor(name)
                except ALLOWED:
                    pass
    except ALLOWED:
        pass
    elapsed = time.perf_counter() - start
    assert elapsed < CASE_LIMIT_S, f"reading {prefix} took {elapsed:.2f} s"


def _base_checkpoints(tmp_path):
    strings = np.empty(3, dtype=object)
    strings[:] = [b"alpha", b"", b"\xff" * 130]
    rich = write_bundle(tmp_path / "rich", {
        "f32": np.arange(6, dtype=np.float32).reshape(2, 3), "f16": np.ones(3, np.float16),
        "c64": np.array([1 + 1j], np.complex64), "flags": np.array([True, False]),
        "scalar": np.int64(5), "strings": strings, "empty": np.zeros((0, 2), np.int32),
        "nested/name/u8": np.arange(7, dtype=np.uint8),
    })
    with BundleWriter(tmp_path / "sharded", num_shards=2) as writer:
        writer.add("a", np.arange(3, dtype=np.float64), shard_id=0)
        writer.add("b", np.arange(4, dtype=np.int32), shard_id=1)
    v2 = str(tmp_path / "v2")
    with open(v2 + ".index", "wb") as f:
        f.write(V2_INDEX)
    with open(v2 + ".data-00000-of-00001", "wb") as f:
        f.write(V2_DATA)
    return [rich, str(tmp_path / "sharded"), v2]


def _files(prefix):
    directory, base = os.path.split(prefix)
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.startswith(base + "."))


def _mutate(rng, data):
    data = bytearray(data)
    kind = rng.randrange(6)
    if kind == 0 and data:
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1 and data:
        data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 2:
        del data[rng.randrange(len(data) + 1):]
    elif kind == 3 and data:
        pos = rng.randrange(len(data))
        del data[pos:pos + rng.randint(1, 8)]
    elif kind == 4:
        pos = rng.randrange(len(data) + 1)
        data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    else:
        data[:] = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
        if rng.random() < 0.5:
            data += table.MAGIC
    return bytes(data)


def test_random_corruptions_raise_only_op_errors(tmp_path):
    rng = random.Random(20240601)
    bases = _base_checkpoints(tmp_path)
    originals = {path: open(path, "rb").read() for base in bases for path in _files(base)}
    for prefix in bases:
        assert _read_everything(prefix) == len(BundleReader(prefix).keys())
    for _ in range(250):
        prefix = rng.choice(bases)
        path = rng.choice(_files(prefix))
        with open(path, "wb") as f:
            f.write(_mutate(rng, originals[path]))
        _check(prefix)
        with open(path, "wb") as f:
            f.write(originals[path])


def test_every_single_byte_flip_of_an_index_is_detected(tmp_path):
    prefix = str(tmp_path / "v2")
    with open(prefix + ".data-00000-of-00001", "wb") as f:
        f.write(V2_DATA)
    metaindex = range(125, 125 + 8 + 5)  # never read, by TF either
    for offset in range(len(V2_INDEX) - 48):
        if offset in metaindex:
            continue
        data = bytearray(V2_INDEX)
        data[offset] ^= 0x10
        with open(prefix + ".index", "wb") as f:
            f.write(bytes(data))
        with pytest.raises(ALLOWED):
            BundleReader(prefix)


def test_every_data_byte_flip_is_detected(tmp_path):
    prefix = str(tmp_path / "v2")
    with open(prefix + ".index", "wb") as f:
        f.write(V2_INDEX)
    for offset in range(len(V2_DATA)):
        data = bytearray(V2_DATA)
        data[offset] ^= 0x04
        with open(prefix + ".data-00000-of-00001", "wb") as f:
            f.write(bytes(data))
        reader = BundleReader(prefix)
        failures = 0
        for name in reader.keys():
            try:
                reader.get_tensor(name)
            except (errors.DataLossError, errors.OutOfRangeError):
                failures += 1
        assert failures == 1, f"flip at data byte {offset} went unnoticed"


def _random_entry(rng):
    big = [0, 1, 3, 7, 255, 1 << 20, 1 << 31, 1 << 40, 1 << 62, (1 << 63) - 1, -1, -(1 << 40)]
    rank = 300 if rng.random() < 0.03 else rng.randrange(4)
    return BundleEntry(
        dtype=rng.choice([1, 2, 3, 7, 7, 9, 10, 14, 18, 19, 20, 21, 0, 99, -5]),
        shape=tuple(rng.choice(big) if rng.random() < 0.3 else rng.randrange(5) for _ in range(rank)),
        shard_id=rng.choice([0, 0, 0, 1, 5, -1, 1 << 30]),
        offset=rng.choice([0, 0, 4, 60, 1 << 40, -8, (1 << 63) - 1]),
        size=rng.choice([0, 1, 4, 8, 16, 64, 1 << 33, (1 << 63) - 1, -4]),
        crc32c=rng.randrange(1 << 32),
        slices=(((0, 2),),) if rng.random() < 0.05 else (),
        unknown_rank=rng.random() < 0.05,
    )


def test_hostile_entries_fail_cleanly_without_big_allocations(tmp_path):
    rng = random.Random(7)
    tracemalloc.start()
    try:
        for case in range(80):
            prefix = str(tmp_path / f"h{case}")
            header = BundleHeader(num_shards=rng.choice([1, 1, 2, 0, -3, 1 << 30]),
                                  endianness=rng.choice([0, 1, 7]))
            entries = sorted((f"t{i}".encode(), _random_entry(rng).encode()) for i in range(rng.randint(1, 6)))
            with open(prefix + ".index", "wb") as f:
                f.write(table.build_table([(b"", header.encode())] + entries))
            with open(prefix + ".data-00000-of-00001", "wb") as f:
                f.write(bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
            tracemalloc.reset_peak()
            _check(prefix)
            _, peak = tracemalloc.get_traced_memory()
            assert peak < 4 << 20, f"case {case} allocated {peak} bytes for a {80}-byte data file"
    finally:
        tracemalloc.stop()


def test_directories_and_odd_paths(tmp_path):
    (tmp_path / "d.index").mkdir()
    with pytest.raises(ALLOWED):
        BundleReader(tmp_path / "d")
    with pytest.raises(ALLOWED):
        load_checkpoint(tmp_path / "nowhere" / "m")
    (tmp_path / "checkpoint").write_text('model_checkpoint_path: "gone"\n')
    with pytest.raises(ALLOWED):
        load_checkpoint(tmp_path)
    (tmp_path / "checkpoint").write_bytes(b"\xff\xfe garbage {{{")
    with pytest.raises(ALLOWED):
        load_checkpoint(tmp_path)
