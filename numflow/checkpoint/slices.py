"""Slices of partitioned variables in a tensor bundle, as TensorFlow's ``BundleWriter::AddSlice`` keeps them.

A partitioned variable is one index entry under its full name: its dtype, its full shape, no bytes,
and a ``slices`` list (a TensorSliceProto per part). Each part's bytes are an ordinary entry under
a key that sorts before every name: ``checkpoint::EncodeTensorNameSlice``, TF's OrderedCode of
``0``, the name, the rank, then each dimension's start and length (-1 for "all of it").

A slice is given as a *spec*, the string a Saver passes in ``shape_and_slices``: the full shape,
then ``start,length`` per dimension (``-`` for all of it), e.g. ``"8 3 4,4:0,3"``.

>>> parse_spec("8 3 4,4:-")
([8, 3], ((4, 4), (0, None)))
>>> slice_key("pv", ((0, 4), (0, 3)))
b'\\x00pv\\x00\\x01\\x01\\x02\\x80\\x84\\x80\\x83'
"""

import math

import numpy as np


def parse_spec(spec):
    """``(full_shape, extents)`` of a ``shape_and_slices`` spec; extents are ``(start, length or None)``.

    Raises
    ------
    ValueError
        The spec is not a full shape followed by one extent per dimension inside it.
    """
    text = spec.decode() if isinstance(spec, bytes) else spec
    parts = text.split(" ")
    try:
        full_shape = [int(d) for d in parts[:-1]]
        extents = []
        for piece in parts[-1].split(":"):
            if piece == "-":
                extents.append((0, None))
            else:
                start, length = (int(x) for x in piece.split(","))
                extents.append((start, length))
    except ValueError:
        raise ValueError(f"Invalid shape_and_slice spec: '{text}'") from None
    if len(extents) != len(full_shape) or any(
            start < 0 or (length is not None and (length < 0 or start + length > dim))
            for (start, length), dim in zip(extents, full_shape)):
        raise ValueError(f"Invalid shape_and_slice spec: '{text}': the slice does not fit the shape "
                         f"{full_shape}")
    return full_shape, tuple(extents)


def index(extents, full_shape):
    """The numpy index of ``extents`` in an array of ``full_shape``."""
    return tuple(slice(start, dim if length is None else start + length)
                 for (start, length), dim in zip(extents, full_shape))


def _num_increasing(value):
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big") if value else b""
    return bytes([len(raw)]) + raw


# OrderedCode's header bits of a signed number of 1..10 bytes (its first two bytes).
_HEADER = [(0, 0), (0x80, 0), (0xC0, 0), (0xE0, 0), (0xF0, 0), (0xF8, 0), (0xFC, 0), (0xFE, 0), (0xFF, 0),
           (0xFF, 0x80), (0xFF, 0xC0)]


def _signed_increasing(value):
    magnitude = ~value if value < 0 else value
    length = min(magnitude.bit_length() // 7 + 1, 10)
    raw = bytearray(value.to_bytes(10, "big", signed=True)[10 - length:])
    raw[0] ^= _HEADER[length][0]
    if length > 1:
        raw[1] ^= _HEADER[length][1]
    return bytes(raw)


def slice_key(name, extents):
    """The index key of slice ``extents`` of tensor ``name`` (TF's ``EncodeTensorNameSlice``)."""
    encoded = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else bytes(name)
    escaped = b"".join(b"\x00\xff" if c == 0 else b"\xff\x00" if c == 0xFF else bytes([c]) for c in encoded)
    out = [_num_increasing(0), escaped, b"\x00\x01", _num_increasing(len(extents))]
    for start, length in extents:
        out.append(_signed_increasing(start))
        out.append(_signed_increasing(-1 if length is None else length))
    return b"".join(out)


def shape_of(extents, full_shape):
    """The shape of the part ``extents`` cut from ``full_shape``."""
    return tuple(dim - start if length is None else length for (start, length), dim in zip(extents, full_shape))


def covers(slices, full_shape):
    """Whether ``slices`` (which a checkpoint never lets overlap) hold every element of ``full_shape``."""
    return sum(math.prod(shape_of(s, full_shape)) for s in slices) == math.prod(full_shape)


def assemble(name, full_shape, dtype, slices, read_slice, out=None):
    """The full tensor ``name`` from its ``slices``, each read by ``read_slice(extents)``."""
    result = np.empty(full_shape, dtype) if out is None else out
    for extents in slices:
        result[index(extents, full_shape)] = read_slice(extents)
    return result


def add_value(writer, key, spec, value, shard_id=0):
    """Add ``value`` to BundleWriter ``writer`` under ``key``: whole, or as the slice ``spec`` of tensor ``key``."""
    if spec:
        full_shape, extents = parse_spec(spec)
        writer.add_slice(key, full_shape, extents, value, shard_id=shard_id)
    else:
        writer.add(key, value, shard_id=shard_id)


def read_value(reader, key, spec):
    """The value of ``key`` in BundleReader ``reader``: whole, or the slice ``spec`` of it.

    Raises
    ------
    ValueError
        The spec's full shape is not the stored one (TensorFlow's message).
    """
    value = reader.get_tensor(key)
    if not spec:
        return value
    full_shape, extents = parse_spec(spec)
    if tuple(full_shape) != tuple(value.shape):
        raise ValueError(f"tensor_name = {key}; shape in shape_and_slice spec [{','.join(map(str, full_shape))}] "
                         f"does not match the shape stored in checkpoint: [{','.join(map(str, value.shape))}]")
    return np.ascontiguousarray(value[index(extents, full_shape)])
