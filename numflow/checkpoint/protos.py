"""The protobuf messages of a tensor bundle index (spec section 3), as small Python records.

The wire format is protobuf's own (``numflow.protos.tensor_bundle_pb2``, imported on first use so
that ``import numflow`` loads no protobuf). Encoding gives TF's bytes: fields in number order, zero
scalars omitted, the entry's ``shape`` and the header's ``version`` always present. Decoding is
protobuf's: unknown fields, and known fields with an unexpected wire type, are skipped; repeated
occurrences of a message field merge. Malformed bytes raise :class:`ProtoError`.
"""

from dataclasses import dataclass, field

LITTLE_ENDIAN, BIG_ENDIAN = 0, 1


class ProtoError(ValueError):
    """Bytes that do not parse as the expected message."""


def _parse(message_class, buf):
    from google.protobuf.message import DecodeError

    try:
        return message_class.FromString(bytes(buf))
    except DecodeError as exc:
        raise ProtoError(str(exc) or f"malformed {message_class.DESCRIPTOR.name}") from None


def _bundle_pb2():
    from numflow.protos import tensor_bundle_pb2

    return tensor_bundle_pb2


def is_v1_header(buf):
    """Whether ``buf``, the value under a checkpoint table's empty key, is a V1 ``SavedTensorSlices``."""
    from numflow.protos import saved_tensor_slice_pb2

    try:
        return _parse(saved_tensor_slice_pb2.SavedTensorSlices, buf).HasField("meta")
    except ProtoError:
        return False


@dataclass
class BundleHeader:
    """``tensorflow.BundleHeaderProto`` with its ``VersionDef`` flattened in."""

    num_shards: int = 1
    endianness: int = LITTLE_ENDIAN
    producer: int = 1
    min_consumer: int = 0
    bad_consumers: tuple = ()

    def encode(self):
        msg = _bundle_pb2().BundleHeaderProto(num_shards=self.num_shards, endianness=self.endianness)
        msg.version.SetInParent()
        msg.version.producer = self.producer
        msg.version.min_consumer = self.min_consumer
        msg.version.bad_consumers.extend(self.bad_consumers)
        return msg.SerializeToString()

    @classmethod
    def decode(cls, buf):
        msg = _parse(_bundle_pb2().BundleHeaderProto, buf)
        version = msg.version
        return cls(num_shards=msg.num_shards, endianness=msg.endianness, producer=version.producer,
                   min_consumer=version.min_consumer, bad_consumers=tuple(version.bad_consumers))


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
        msg = _bundle_pb2().BundleEntryProto(dtype=self.dtype, shard_id=self.shard_id, offset=self.offset,
                                             size=self.size, crc32c=self.crc32c)
        msg.shape.SetInParent()
        for dim in self.shape:
            msg.shape.dim.add(size=dim)
        for extents in self.slices:
            slice_msg = msg.slices.add()
            for start, length in extents:
                extent = slice_msg.extent.add(start=start)
                if length is not None:
                    extent.length = length
        return msg.SerializeToString()

    @classmethod
    def decode(cls, buf):
        msg = _parse(_bundle_pb2().BundleEntryProto, buf)
        slices = tuple(tuple((e.start, e.length if e.HasField("length") else None) for e in s.extent)
                       for s in msg.slices)
        return cls(dtype=msg.dtype, shape=tuple(d.size for d in msg.shape.dim), shard_id=msg.shard_id,
                   offset=msg.offset, size=msg.size, crc32c=msg.crc32c, slices=slices,
                   unknown_rank=msg.shape.unknown_rank, dim_names=tuple(d.name for d in msg.shape.dim))

    def shape_debug_string(self):
        """The shape as protobuf's ShortDebugString prints it, for error messages."""
        parts = [f"dim {{ size: {dim} }}" for dim in self.shape]
        if self.unknown_rank:
            parts.append("unknown_rank: true")
        return " ".join(parts)
