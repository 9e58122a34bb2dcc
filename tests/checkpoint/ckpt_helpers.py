"""Helpers shared by the checkpoint tests: golden-file paths, expected values, byte surgery."""

import gzip
import os
import shutil

import numpy as np

GOLDEN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden", "checkpoints")
REGENERATE = "regenerate with: /opt/tfenv/bin/python tests/golden/checkpoints/make_tf_checkpoints.py"


def hexbytes(text):
    """Bytes from a hex dump such as the spec's (whitespace and newlines ignored)."""
    return bytes.fromhex("".join(text.split()))


# Spec section 9: V1 is one float32 scalar v = 1.0; V2 is layer1/weights, s, e and global_step.
V1_INDEX = hexbytes("""
00 00 06 08 01 1a 02 08 01 00 01 0b 76 08 01 12 00 28 04 35 81 a5 da 2b 00 00 00 00 01 00 00 00
00 95 ce d3 f3 00 00 00 00 01 00 00 00 00 c0 f2 a1 b0 00 01 02 77 00 20 00 00 00 00 01 00 00 00
00 3e 1e a4 62 25 08 32 0e 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 00 00 00 00 00 00 00 00 57 fb 80 8b 24 75 47 db
""")
V1_DATA = hexbytes("00 00 80 3f")

V2_DATA = hexbytes("""
07 00 00 00 00 00 00 00 00 00 80 3f 00 00 00 40 00 00 40 40 00 00 80 40 02 00 78 27 0b 34 61 62
""")
V2_INDEX = hexbytes("""
00 00 06 08 01 1a 02 08 01 00 01 0f 65 08 01 12 06 12 00 12 02 08 03 35 d8 ea 82 a2 00 0b 0b 67
6c 6f 62 61 6c 5f 73 74 65 70 08 09 12 00 28 08 35 bb d7 9f 11 00 0e 15 6c 61 79 65 72 31 2f 77
65 69 67 68 74 73 08 01 12 08 12 02 08 02 12 02 08 02 20 08 28 10 35 4c 28 98 74 00 01 11 73 08
07 12 04 12 02 08 02 20 18 28 08 35 91 88 b0 4d 00 00 00 00 01 00 00 00 00 66 b0 d5 18 00 00 00
00 01 00 00 00 00 c0 f2 a1 b0 00 01 02 74 00 78 00 00 00 00 01 00 00 00 00 5b 63 03 cc 7d 08 8a
01 0e 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
00 00 00 00 00 57 fb 80 8b 24 75 47 db
""")


def load_values(folder):
    """The values TF was given for a golden checkpoint (see make_tf_checkpoints.save_values)."""
    with np.load(os.path.join(GOLDEN, folder, "values.npz")) as npz:
        raw = {name: npz[name] for name in npz.files}
    values = {}
    for name, arr in raw.items():
        if name.endswith("::lengths"):
            continue
        lengths = raw.get(name + "::lengths")
        if lengths is None:
            values[name] = arr
            continue
        data, pos = arr.tobytes(), 0
        out = np.empty(lengths.shape, dtype=object)
        flat = out.reshape(-1)
        for i, length in enumerate(lengths.reshape(-1)):
            flat[i] = data[pos:pos + int(length)]
            pos += int(length)
        values[name] = out
    return values


def copy_golden(folder, dest):
    """Copy a golden checkpoint folder to ``dest`` (a tmp path), un-gzipping ``*.gz`` files."""
    src = os.path.join(GOLDEN, folder)
    os.makedirs(dest, exist_ok=True)
    for filename in os.listdir(src):
        path = os.path.join(src, filename)
        if filename.endswith(".gz"):
            with gzip.open(path, "rb") as f_in, open(os.path.join(dest, filename[:-3]), "wb") as f_out:
                shutil.copyfileobj(f_in, f_out)
        else:
            shutil.copy(path, os.path.join(dest, filename))
    return str(dest)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def patch_bytes(path, offset, data):
    """Overwrite bytes of a file in place."""
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def flip_byte(path, offset, mask=0x01):
    """XOR one byte of a file with ``mask``."""
    data = bytearray(read_bytes(path))
    data[offset] ^= mask
    with open(path, "wb") as f:
        f.write(bytes(data))


def truncate(path, size):
    with open(path, "r+b") as f:
        f.truncate(size)


def same_bits(actual, expected):
    """Bit-for-bit equality, NaN payloads and -0.0 included; object arrays element by element."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return False
    if expected.dtype == object:
        return actual.dtype == object and all(
            type(a) is bytes and a == b for a, b in zip(actual.reshape(-1), expected.reshape(-1), strict=True))
    if actual.dtype.itemsize != expected.dtype.itemsize:
        return False
    return actual.tobytes() == expected.tobytes()
