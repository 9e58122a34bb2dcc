"""Kernel of ``ParseExampleV2``: serialized ``tensorflow.Example`` protos into sparse and dense arrays.

Spec: TensorFlow's ``example_parsing_ops.cc`` and ``util/example_proto_fast_parsing.cc``. A vector
of records is a batch (messages name the record, ``Name: <unknown>, Key: k, Index: i.``); a scalar is
one record, parsed by TensorFlow's single-example path, whose messages differ and are kept here word
for word. Dense features take their default when missing (an error when the default is empty);
sequence features (first dimension unknown) are padded with the default to the longest record.

The records are decoded with protobuf from the schema in ``numflow.protos``, so this kernel lives on
the runtime's side of the line (``numflow_kernels`` imports nothing from ``numflow``), registered for
the CPU as any kernel is; the schema loads on a parse's first run.
"""

import functools

import numpy as np

from numflow_kernels.registry import register

# The attrs' dtypes are numpy's (``object`` for strings), as every kernel receives them.
_LIST_OF = {"float32": "float_list", "int64": "int64_list", "object": "bytes_list"}
_TYPE_OF_LIST = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}
_TF_NAME = {"float32": "float", "int64": "int64", "object": "string"}


@functools.cache
def _example_class():
    """protobuf's ``Example`` class and the error it raises for bytes that are no Example."""
    from google.protobuf.message import DecodeError

    from numflow.protos import example_pb2

    return example_pb2.Example, DecodeError


def _shape_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


class _Record:
    """One record's features, and how its errors name it."""

    def __init__(self, data, index, name, batched):
        example_class, decode_error = _example_class()
        example = example_class()
        try:
            example.ParseFromString(bytes(data))
        except decode_error:
            shown = bytes(data).decode("latin-1")
            raise ValueError(f"Could not parse example input, value: '{shown}'") from None
        self.features = example.features.feature
        self.batched = batched
        self.where = f"Name: {name}, Key: {{key}}, Index: {index}.  " if batched else "Key: {key}.  "

    def values(self, key, dtype, sparse=False):
        """The values of feature ``key`` (None when absent); ValueError when they are of another type
        (worded as TensorFlow words it for a ``sparse`` feature or a dense one)."""
        if key not in self.features:
            return None
        feature = self.features[key]
        kind = feature.WhichOneof("kind")
        if kind is None:
            return np.zeros(0, dtype=dtype)
        if kind != _LIST_OF[dtype.name]:
            found, expected = _TYPE_OF_LIST[kind], _TF_NAME[dtype.name]
            raise ValueError(self.where.format(key=key) + (
                f"Data types don't match. Expected type: {expected}, Actual type: {found}" if sparse
                else f"Data types don't match. Data type: {found} but expected type: {expected}"))
        return np.array(list(getattr(feature, kind).value), dtype=dtype)


def _fixed(record, key, dtype, dims, default):
    values = record.values(key, dtype)
    if values is None:
        if default.size == 0:
            prefix = record.where.split("Key:")[0] if record.batched else ""
            raise ValueError(f"{prefix}Feature: {key} (data type: {_TF_NAME[dtype.name]}) is required but could "
                             "not be found.")
        return np.asarray(default, dtype=dtype).reshape(dims)
    if values.size != int(np.prod(dims, dtype=np.int64)):
        if record.batched:
            raise ValueError(record.where.format(key=key) + f"Number of {_TF_NAME[dtype.name]} values != expected.  "
                             f"Values size: {values.size} but output shape: {_shape_text(dims)}")
        raise ValueError(record.where.format(key=key) + "Can't parse serialized Example: Some "
                         f"{_LIST_OF[dtype.name]} slice was not parsed.")
    return values.reshape(dims)


def _sequence(record, key, dtype, dims):
    """A sequence feature's values as ``[rows] + dims[1:]`` (no rows when absent)."""
    values = record.values(key, dtype)
    stride = int(np.prod(dims[1:], dtype=np.int64))
    if values is None:
        values = np.zeros(0, dtype=dtype)
    if stride == 0 or values.size % stride:
        if record.batched:
            raise ValueError(record.where.format(key=key) + f"Number of {_TF_NAME[dtype.name]} values is not a "
                             f"multiple of stride length. Saw {values.size} values but output shape is: "
                             f"{_shape_text([None, *dims[1:]])}")
        raise ValueError(f"Error while parsing feature with key {key}: number of elements should be divisible by "
                         f"{stride}, found {values.size} instead")
    return values.reshape([values.size // max(stride, 1), *dims[1:]])


def _padded(rows, dims, dtype, padding):
    longest = max((len(r) for r in rows), default=0)
    out = np.empty([len(rows), longest, *dims[1:]], dtype=dtype)
    out[...] = np.asarray(padding, dtype=out.dtype).reshape(())
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


@register("ParseExampleV2")
def parse_example_v2(ctx, serialized, names, sparse_keys, dense_keys, ragged_keys, *dense_defaults):
    a = ctx.attrs
    batched = np.ndim(serialized) == 1
    data = np.asarray(serialized, dtype=object).reshape(-1)
    names = np.asarray(names, dtype=object).reshape(-1)
    shown = [names[i].decode("utf-8", "replace") if i < names.size else "<unknown>" for i in range(data.size)]
    dense = [[] for _ in dense_keys]
    sparse = [[] for _ in sparse_keys]
    for i, record_bytes in enumerate(data):
        record = _Record(record_bytes, i, shown[i], batched)
        for j, key in enumerate(np.asarray(dense_keys).tolist()):
            dims = list(a["dense_shapes"][j])
            dtype = a["Tdense"][j]
            dense[j].append(_sequence(record, key.decode(), dtype, dims) if dims and dims[0] is None
                            else _fixed(record, key.decode(), dtype, dims, np.asarray(dense_defaults[j])))
        for j, key in enumerate(np.asarray(sparse_keys).tolist()):
            values = record.values(key.decode(), a["sparse_types"][j], sparse=True)
            sparse[j].append(np.zeros(0, a["sparse_types"][j]) if values is None else values)
    outputs = [_sparse_parts(rows, a["sparse_types"][j], batched) for j, rows in enumerate(sparse)]
    dense_out = []
    for j, rows in enumerate(dense):
        shape, dtype = list(a["dense_shapes"][j]), a["Tdense"][j]
        if shape and shape[0] is None:
            batch = _padded(rows, shape, dtype, dense_defaults[j])
        else:
            batch = np.stack(rows) if rows else np.zeros([0, *shape], dtype=dtype)
        dense_out.append(batch if batched else batch[0])
    results = (*[o[0] for o in outputs], *[o[1] for o in outputs], *[o[2] for o in outputs], *dense_out)
    return results[0] if len(results) == 1 else results  # the registry's form for an op of one output


def _sparse_parts(rows, dtype, batched):
    """One VarLenFeature's indices, values and dense shape over the records ``rows``."""
    lengths = [len(r) for r in rows]
    values = np.concatenate(rows) if rows else np.zeros(0, dtype)
    positions = np.concatenate([np.arange(n) for n in lengths]) if rows else np.zeros(0, np.int64)
    if not batched:
        return positions.astype(np.int64).reshape(-1, 1), values, np.array([lengths[0]], dtype=np.int64)
    owners = np.repeat(np.arange(len(rows)), lengths)
    indices = np.stack([owners, positions], axis=1).astype(np.int64).reshape(-1, 2)
    return indices, values.astype(dtype), np.array([len(rows), max(lengths, default=0)], np.int64)
