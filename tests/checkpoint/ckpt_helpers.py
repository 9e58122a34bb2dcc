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
