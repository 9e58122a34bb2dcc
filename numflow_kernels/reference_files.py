"""Kernels of the whole-file ops ``ReadFile``, ``WriteFile`` and ``MatchingFiles``, of the
base64 ops ``EncodeBase64`` and ``DecodeBase64``, and of ``DecodeCompressed`` (zlib and gzip streams,
as TensorFlow's ``decode_compressed_op.cc`` reads them: a stream cut short gives what it holds).

A path with a scheme (``s3://bucket/x``, ``memory://x``) goes through fsspec, imported only then; a
plain path through the operating system. Errors are ``OSError`` with the path, which the runtime
maps by errno (a missing file: ``NotFoundError``), as TensorFlow names the path in its message.
"""

import base64
import errno
import glob
import os
import re
import zlib

import numpy as np

from numflow_kernels.errors import DataLoss
from numflow_kernels.reference_math import kernel

_WEB_SAFE = re.compile(rb"[A-Za-z0-9_-]*")


def _path(value):
    return bytes(value).decode("utf-8", "surrogateescape")


def _filesystem(path):
    """fsspec's filesystem for a URL; None for a local path."""
    if "://" not in path or path.startswith("file://"):
        return None
    import fsspec

    return fsspec.core.url_to_fs(path)[0]


def _local(path):
    return path[len("file://"):] if path.startswith("file://") else path


def _not_found(path):
    """TensorFlow's words for a missing file, with the errno that makes it a NotFoundError."""
    error = FileNotFoundError(f"{path}; No such file or directory")
    error.errno = errno.ENOENT
    return error


@kernel("ReadFile")
def read_file(ctx, filename):
    path = _path(np.asarray(filename, dtype=object).item())
    fs = _filesystem(path)
    try:
        if fs is None:
            with open(_local(path), "rb") as f:
                return np.array(f.read(), dtype=object)
        return np.array(fs.cat_file(path), dtype=object)
    except FileNotFoundError:
        raise _not_found(path) from None


@kernel("WriteFile")
def write_file(ctx, filename, contents):
    path = _path(np.asarray(filename, dtype=object).item())
    data = bytes(np.asarray(contents, dtype=object).item())
    fs = _filesystem(path)
    if fs is None:
        path = _local(path)
        directory = os.path.dirname(path)
        if directory:
            os.makedirs(directory, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    else:
        fs.pipe_file(path, data)
    return ()


@kernel("MatchingFiles")
def matching_files(ctx, pattern):
    matches = set()
    for value in np.asarray(pattern, dtype=object).reshape(-1):
        path = _path(value)
        fs = _filesystem(path)
        if fs is None:
            matches.update(glob.glob(_local(path), include_hidden=True))
        else:
            protocol = path.split("://", 1)[0]
            matches.update(f"{protocol}://{p}" for p in fs.glob(path))
    return np.array([m.encode("utf-8", "surrogateescape") for m in sorted(matches)], dtype=object)


@kernel("EncodeBase64")
def encode_base64(ctx, x):
    pad = ctx.attrs["pad"]
    encoded = [base64.urlsafe_b64encode(bytes(s)) for s in np.asarray(x, dtype=object).reshape(-1)]
    if not pad:
        encoded = [s.rstrip(b"=") for s in encoded]
    return np.array(encoded, dtype=object).reshape(np.shape(x))


def _decode_one(text):
    text = bytes(text).rstrip(b"=")
    if len(text) % 4 == 1:
        raise ValueError("Base64 string length cannot be 1 modulo 4.")
    if not _WEB_SAFE.fullmatch(text):
        raise ValueError("Invalid character found in base64.")
    return base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))


@kernel("DecodeBase64")
def decode_base64(ctx, x):
    decoded = [_decode_one(s) for s in np.asarray(x, dtype=object).reshape(-1)]
    return np.array(decoded, dtype=object).reshape(np.shape(x))


_WINDOW_BITS = {b"ZLIB": 15, b"GZIP": 31}  # zlib's window bits for a zlib header, and for a gzip one


@kernel("DecodeCompressed")
def decode_compressed(ctx, x):
    kind = ctx.attrs["compression_type"].encode()
    if kind == b"ZSTD":
        raise NotImplementedError("ZSTD decompression is not available in numflow")
    if kind not in (b"", b"NONE", *_WINDOW_BITS):
        raise ValueError("Only ZLIB, ZSTD, GZIP or NONE are supported compressions")
    flat = np.asarray(x, dtype=object).reshape(-1)
    if kind in (b"", b"NONE"):
        return np.asarray(x, dtype=object).copy()
    out = np.empty(flat.size, dtype=object)
    for i, data in enumerate(flat):
        try:
            out[i] = zlib.decompressobj(_WINDOW_BITS[kind]).decompress(bytes(data))
        except zlib.error as e:
            code, _, reason = str(e).partition(" while decompressing data: ")
            raise DataLoss(f"inflate() failed with error {code.removeprefix('Error ')}: {reason}") from None
    return out.reshape(np.shape(x))
