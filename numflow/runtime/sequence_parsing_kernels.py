"""Kernel of ``ParseSequenceExampleV2``: serialized ``tensorflow.SequenceExample`` protos into the
sparse and dense arrays of their context features and feature lists.

Spec: TensorFlow's ``example_parsing_ops.cc`` and ``util/example_proto_fast_parsing.cc``
(``FastParseSequenceExample``), whose messages are kept word for word. A vector of records is a
batch; a scalar is one record, without the batch dimension. A context feature is parsed as an
``Example``'s; a feature list gives one row per frame: a dense list's frames are padded with zeros
(``""``) to the longest record's, and its lengths say how many each record has; a sparse list's
indices are ``[record, frame, position]``.
"""

import functools

import numpy as np

from numflow.runtime.parsing_kernels import _LIST_OF, _TF_NAME, _padded, _sparse_parts
from numflow_kernels.registry import register


@functools.cache
def _sequence_example_class():
    from google.protobuf.message import DecodeError

    from numflow.protos import example_pb2

    return example_pb2.SequenceExample, DecodeError


def _typed_values(feature, dtype, where):
    """The values of ``feature`` (a ``Feature`` message) as ``dtype``; ValueError naming ``where``
    when they are of another type."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return np.zeros(0, dtype=dtype)
    if kind != _LIST_OF[dtype.name]:
        raise ValueError(f"{where}.  Data types don't match. Expected type: {_TF_NAME[dtype.name]}")
    return np.array(list(getattr(feature, kind).value), dtype=dtype)


class _SequenceRecord:
    """One record's context and feature lists, and how its errors name it."""

    def __init__(self, data, name):
        message_class, decode_error = _sequence_example_class()
        message = message_class()
        try:
            message.ParseFromString(bytes(data))
        except decode_error:
            raise ValueError(f"Invalid protocol message input, example id: {name}") from None
        self.context = message.context.feature
        self.lists = message.feature_lists.feature_list
        self.name = name

    def context_values(self, key, dtype):
        if key not in self.context:
            return None
        return _typed_values(self.context[key], dtype, f"Name: {self.name}, Context feature: {key}")

    def frames(self, key, dtype):
        """The values of each frame of feature list ``key`` (None when the record has no such list)."""
        if key not in self.lists:
            return None
        return [_typed_values(frame, dtype, f"Name: {self.name}, Feature list: {key}, Index: {i}")
                for i, frame in enumerate(self.lists[key].feature)]


def _context_dense(records, key, dtype, dims, default):
    """A dense context feature over ``records``: first the largest count, which must be the shape's
    (a default counts as present), then each record's own count, worded as TensorFlow words both."""
    expected = int(np.prod(dims, dtype=np.int64))
    found = [r.context_values(key, dtype) for r in records]
    largest = max([v.size for v in found if v is not None] + [default.size])
    if largest != expected:
        raise ValueError(f"Inconsistent max number of elements for feature {key}: expected {expected}, but found "
                         f"{largest}")
    rows = []
    for record, values in zip(records, found):
        if values is None:
            if not default.size:
                raise ValueError(f"Feature: {key} (data type: {_TF_NAME[dtype.name]}) is required but could not be "
                                 "found.")
            values = np.asarray(default, dtype=dtype)
        if values.size != expected:
            raise ValueError(f"Unexpected number of elements in example {record.name}")
        rows.append(values.reshape(dims))
    return rows


def _list_dense(record, key, dtype, dims, missing_ok):
    frames = record.frames(key, dtype)
    if frames is None:
        if not missing_ok:
            raise ValueError(f"Name: {record.name}, Feature list '{key}' is required but could not be found.  Did "
                             "you mean to include it in feature_list_dense_missing_assumed_empty or "
                             "feature_list_dense_defaults?")
        frames = []
    values = np.concatenate(frames) if frames else np.zeros(0, dtype)
    stride = int(np.prod(dims, dtype=np.int64))
    if stride == 0 or values.size % stride:
        shape = ",".join(["?", *map(str, dims)])
        raise ValueError(f"Feature list '{key}' has an unexpected number of values.  Total values size: "
                         f"{values.size} is not consistent with output shape: [{shape}]")
    return values.reshape([values.size // stride, *dims])


def _list_sparse(rows, dtype, batched):
    """A sparse feature list's indices, values and dense shape over ``rows`` (each a record's list of
    frames): a frame is one more index dimension than ``_sparse_parts`` gives."""
    frame_parts = [_sparse_parts(frames, dtype, True) for frames in rows]
    lengths = [len(frames) for frames in rows]
    widest = max((int(p[2][1]) for p in frame_parts), default=0)
    if not batched:
        indices, values, shape = frame_parts[0]
        return indices, values, np.array([lengths[0], widest], np.int64)
    indices = [np.concatenate([np.full((len(p[0]), 1), i, np.int64), p[0]], axis=1) for i, p in enumerate(frame_parts)]
    indices = np.concatenate(indices) if indices else np.zeros([0, 3], np.int64)
    values = np.concatenate([p[1] for p in frame_parts]) if frame_parts else np.zeros(0, dtype)
    return indices.reshape(-1, 3), values.astype(dtype), np.array([len(rows), max(lengths, default=0), widest],
                                                                  np.int64)


@register("ParseSequenceExampleV2")
def parse_sequence_example_v2(ctx, serialized, debug_name, context_sparse_keys, context_dense_keys,
                              context_ragged_keys, list_sparse_keys, list_dense_keys, list_ragged_keys,
                              missing_assumed_empty, *context_defaults):
    a = ctx.attrs
    batched = np.ndim(serialized) == 1
    data = np.asarray(serialized, dtype=object).reshape(-1)
    names = np.asarray(debug_name, dtype=object).reshape(-1)
    records = [_SequenceRecord(d, names[i].decode("utf-8", "replace") if i < names.size else "<unknown>")
               for i, d in enumerate(data)]
    keys = [[k.decode() for k in np.asarray(ks, dtype=object).reshape(-1)]
            for ks in (context_sparse_keys, context_dense_keys, list_sparse_keys, list_dense_keys)]
    context_sparse = []
    for key, dtype in zip(keys[0], a["context_sparse_types"]):
        rows = [r.context_values(key, dtype) for r in records]
        context_sparse.append(_sparse_parts([np.zeros(0, dtype) if v is None else v for v in rows], dtype, batched))
    context_dense = []
    for j, (key, dtype) in enumerate(zip(keys[1], a["Tcontext_dense"])):
        dims = list(a["context_dense_shapes"][j])
        rows = _context_dense(records, key, dtype, dims, np.asarray(context_defaults[j]))
        batch = np.stack(rows) if rows else np.zeros([0, *dims], dtype=dtype)
        context_dense.append(batch if batched else batch[0])
    list_sparse = []
    for key, dtype in zip(keys[2], a["feature_list_sparse_types"]):
        rows = [r.frames(key, dtype) or [] for r in records]
        list_sparse.append(_list_sparse(rows, dtype, batched))
    list_dense, lengths = [], []
    missing_ok = np.asarray(missing_assumed_empty, dtype=bool).reshape(-1)
    for j, (key, dtype) in enumerate(zip(keys[3], a["feature_list_dense_types"])):
        dims = list(a["feature_list_dense_shapes"][j])
        rows = [_list_dense(r, key, dtype, dims, missing_ok[j]) for r in records]
        batch = _padded(rows, [None, *dims], dtype, b"" if dtype.kind == "O" else 0)
        counts = np.array([len(r) for r in rows], np.int64)
        list_dense.append(batch if batched else batch[0])
        lengths.append(counts if batched else counts[0])
    results = (*[p[0] for p in context_sparse], *[p[1] for p in context_sparse], *[p[2] for p in context_sparse],
               *context_dense, *[p[0] for p in list_sparse], *[p[1] for p in list_sparse],
               *[p[2] for p in list_sparse], *list_dense, *lengths)
    return results[0] if len(results) == 1 else results
