"""The protobuf messages of a tensor bundle index, encoded and decoded by hand (spec section 3).

Encoding follows proto3 exactly as TF emits it: fields in number order, zero scalars omitted, the
entry's ``shape`` always present. Decoding is permissive in protobuf's way: unknown fields, and known
fields with an unexpected wire type, are skipped; repeated occurrences of a message field merge.
Malformed bytes raise :class:`ProtoError`.
"""

from dataclasses import dataclass, field

from numflow.checkpoint.table import decode_fixed32, decode_varint, encode_fixed32, encode_varint

_VARINT, _FIXED64, _LEN, _FIXED32 = 0, 1, 2, 5
LITTLE_ENDIAN, BIG_ENDIAN = 0, 1


class ProtoError(ValueError):
    """Bytes that do not parse as the expected message."""


def _int64(value):
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def _int32(value):
    value &= (1 << 32) - 1
    return value - (1 << 32) if value >= 1 << 31 else value


def _tag(number, wire_type):
    return _TAGS.get((number, wire_type)) or encode_varint(number << 3 | wire_type)


_TAGS = {(n, w): encode_varint(n << 3 | w) for n in range(1, 16) for w in (0, 1, 2, 5)}


def _len_field(number, payload):
    return _tag(number, _LEN) + encode_varint(len(payload)) + payload


def _varint_field(number, value):
    return _tag(number, _VARINT) + encode_varint(value) if value else b""


def iter_fields(buf):
    """The (field number, wire type, value) triples of a serialized message, in order.

    Varint and fixed values are ints, length-delimited values are bytes.

    Raises
    ------
    ProtoError
        For truncated fields, overlong varints, field number 0 and group wire types.
    """
    fields = []
    pos, end = 0, len(buf)
    try:
        while pos < end:
            key = buf[pos]
            if key < 0x80:
                pos += 1
            else:
                key, pos = decode_varint(buf, pos, end)
            number, wire_type = key >> 3, key & 7
            if number == 0:
                raise ProtoError("field number 0")
            if wire_type == _VARINT:
                if pos < end and buf[pos] < 0x80:
                    value, pos = buf[pos], pos + 1
                else:
                    value, pos = decode_varint(buf, pos, end)
            elif wire_type == _LEN:
                length, pos = decode_varint(buf, pos, end)
                if pos + length > end:
                    raise ProtoError("truncated length-delimited field")
                value, pos = bytes(buf[pos:pos + length]), pos + length
            elif wire_type == _FIXED32:
                if pos + 4 > end:
                    raise ProtoError("truncated fixed32")
                value, pos = decode_fixed32(buf, pos), pos + 4
            elif wire_type == _FIXED64:
                if pos + 8 > end:
                    raise ProtoError("truncated fixed64")
                value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
            else:
                raise ProtoError(f"unsupported wire type {wire_type}")
            fields.append((number, wire_type, value))
    except ValueError as exc:
        raise ProtoError(str(exc)) from None
    return fields


def _packed_varints(buf):
    values, pos = [], 0
    try:
        while pos < len(buf):
            value, pos = decode_varint(buf, pos, len(buf))
            values.append(value)
    except ValueError as exc:
        raise ProtoError(str(exc)) from None
    return values


# ---------------------------------------------------------------------------------------------------
# BundleHeaderProto and VersionDef


@dataclass
class BundleHeader:
    """``tensorflow.BundleHeaderProto`` with its ``VersionDef`` flattened in."""

    num_shards: int = 1
    endianness: int = LITTLE_ENDIAN
    producer: int = 1
    min_consumer: int = 0
    bad_consumers: tuple = ()

    def encode(self):
        version = _varint_field(1, self.producer) + _varint_field(2, self.min_consumer)
        if self.bad_consumers:
            version += _len_field(3, b"".join(encode_varint(v) for v in self.bad_consumers))
        return (_varint_field(1, self.num_shards) + _varint_field(2, self.endianness)
                + _len_field(3, version))

    @classmethod
    def decode(cls, buf):
        header = cls(num_shards=0, producer=0)
        bad = []
        for number, wire, value in iter_fields(buf):
            if number == 1 and wire == _VARINT:
                header.num_shards = _int32(value)
            elif number == 2 and wire == _VARINT:
                header.endianness = _int32(value)
            elif number == 3 and wire == _LEN:
                for vnum, vwire, vvalue in iter_fields(value):
                    if vnum == 1 and vwire == _VARINT:
                        header.producer = _int32(vvalue)
                    elif vnum == 2 and vwire == _VARINT:
                        header.min_consumer = _int32(vvalue)
                    elif vnum == 3 and vwire == _VARINT:
                        bad.append(_int32(vvalue))
                    elif vnum == 3 and vwire == _LEN:
                        bad.extend(_int32(v) for v in _packed_varints(vvalue))
        header.bad_consumers = tuple(bad)
        return header


# ---------------------------------------------------------------------------------------------------
# BundleEntryProto, TensorShapeProto, TensorSliceProto


@dataclass
class BundleEntry:
    """``tensorflow.BundleEntryProto``.

    ``crc32c`` is the stored (masked) value; ``slices`` holds one tuple per partition, each a tuple of
    (start, length) per dimension with length None for "the whole dimension".
    """

    dtype: int = 0
    shape: tuple = ()
    shard_id: int = 0
    offset: int = 0
    size: int = 0
    crc32c: int = 0
    slices: tuple = ()
    unknown_rank: bool = False
    dim_names: tuple = field(default=(), repr=False)

    def encode(self):
        shape = b"".join(_len_field(2, _varint_field(1, dim)) for dim in self.shape) if self.shape else b""
        out = _varint_field(1, self.dtype) + _len_field(2, shape)
        out += _varint_field(3, self.shard_id) + _varint_field(4, self.offset) + _varint_field(5, self.size)
        if self.crc32c:
            out += _tag(6, _FIXED32) + encode_fixed32(self.crc32c)
        for extents in self.slices:
            payload = b""
            for start, length in extents:
                ext = _varint_field(1, start)
                if length is not None:
                    ext += _tag(2, _VARINT) + encode_varint(length)
                payload += _len_field(1, ext)
            out += _len_field(7, payload)
        return out

    @classmethod
    def decode(cls, buf):
        entry = cls()
        dims, names, slices = [], [], []
        for number, wire, value in iter_fields(buf):
            if number == 1 and wire == _VARINT:
                entry.dtype = _int32(value)
            elif number == 2 and wire == _LEN:
                for snum, swire, svalue in iter_fields(value):
                    if snum == 2 and swire == _LEN:
                        size, name = 0, ""
                        for dnum, dwire, dvalue in iter_fields(svalue):
                            if dnum == 1 and dwire == _VARINT:
                                size = _int64(dvalue)
                            elif dnum == 2 and dwire == _LEN:
                                name = dvalue.decode("utf-8", "replace")
                        dims.append(size)
                        names.append(name)
                    elif snum == 3 and swire == _VARINT:
                        entry.unknown_rank = bool(svalue)
            elif number == 3 and wire == _VARINT:
                entry.shard_id = _int32(value)
            elif number == 4 and wire == _VARINT:
                entry.offset = _int64(value)
            elif number == 5 and wire == _VARINT:
                entry.size = _int64(value)
            elif number == 6 and wire == _FIXED32:
                entry.crc32c = value
            elif number == 7 and wire == _LEN:
                slices.append(_decode_slice(value))
        entry.shape, entry.dim_names, entry.slices = tuple(dims), tuple(names), tuple(slices)
        return entry

    def shape_debug_string(self):
        """The shape as protobuf's ShortDebugString prints it, for error messages."""
        parts = [f"dim {{ size: {dim} }}" for dim in self.shape]
        if self.unknown_rank:
            parts.append("unknown_rank: true")
        return " ".join(parts)


def _decode_slice(buf):
    extents = []
    for number, wire, value in iter_fields(buf):
        if number == 1 and wire == _LEN:
            start, length = 0, None
            for enum, ewire, evalue in iter_fields(value):
                if enum == 1 and ewire == _VARINT:
                    start = _int64(evalue)
                elif enum == 2 and ewire == _VARINT:
                    length = _int64(evalue)
            extents.append((start, length))
    return tuple(extents)
