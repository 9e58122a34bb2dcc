"""The programs behind ``data/tf_sequence_golden.json``: ``SequenceExample`` parsing, tensors serialized
to ``TensorProto`` bytes and back, ``make_tensor_proto``/``make_ndarray``, ``decode_compressed`` and
``decode_json_example``. Each case takes the ``tf``
module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests) and returns what it
built and read, or the error's class and message.
"""

import numpy as np
from parsing_cases import _build_error, _run, encode


def _feature(tf, values):
    kinds = {float: ("float_list", tf.train.FloatList), int: ("int64_list", tf.train.Int64List),
             bytes: ("bytes_list", tf.train.BytesList)}
    field, cls = kinds[type(values[0])] if values else ("float_list", tf.train.FloatList)
    return tf.train.Feature(**{field: cls(value=values)})


def sequence(tf, context, lists):
    """A serialized ``SequenceExample``: ``context`` key -> values, ``lists`` key -> list of frames' values."""
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(tf, v) for k, v in context.items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(tf, f) for f in frames]) for k, frames in lists.items()}),
    ).SerializeToString(deterministic=True)


def records(tf):
    return [sequence(tf, {"id": [7], "w": [1.0, 2.0]}, {"tok": [[1, 2], [3, 4], [5, 6]], "v": [[b"a"], [b"b", b"c"]]}),
            sequence(tf, {"w": [0.5]}, {"tok": [[9, 8]], "v": [[], [b"d"], [b"e", b"f", b"g"]]}),
            sequence(tf, {"id": [3]}, {"v": [[1.0], [b"x"]], "n": [[1.0], [2.5, 3.0]]})]


def _features(tf):
    return ({"id": tf.FixedLenFeature([], tf.int64, default_value=-1), "w": tf.VarLenFeature(tf.float32),
             "m": tf.FixedLenFeature([1], tf.float32, default_value=[9.0])},
            {"tok": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True),
             "v": tf.VarLenFeature(tf.string), "q": tf.FixedLenSequenceFeature([], tf.string, allow_missing=True)})


def parse_single(tf):
    context, lists = _features(tf)
    out = []
    for record in records(tf)[:2]:
        with tf.Graph().as_default():
            out.append(_run(tf, tf.io.parse_single_sequence_example(record, context, lists)))
    with tf.Graph().as_default():
        serialized = tf.placeholder(tf.string)
        parsed = tf.parse_single_sequence_example(serialized, sequence_features={"n": tf.VarLenFeature(tf.float32)},
                                                  example_name="third", name="one")
        out.append(_run(tf, parsed, {serialized: records(tf)[2]}))
    return out


def parse_batch(tf):
    context, lists = _features(tf)
    serialized = tf.placeholder(tf.string, [None])
    return _run(tf, tf.io.parse_sequence_example(serialized, context, lists), {serialized: records(tf)[:2]})


def parse_batch_static(tf):
    return _run(tf, tf.io.parse_sequence_example(records(tf)[1:], sequence_features={
        "n": tf.FixedLenSequenceFeature([], tf.float32, allow_missing=True), "v": tf.VarLenFeature(tf.float32)},
        example_names=["b", "c"], name="batch"))


def _error_runs(tf, rows, names=None, **features):
    out = []
    for single in (True, False):
        with tf.Graph().as_default():
            if single:
                parsed = tf.io.parse_single_sequence_example(records(tf)[rows[-1]], example_name=names and names[-1],
                                                             **features)
            else:
                parsed = tf.io.parse_sequence_example([records(tf)[i] for i in rows], example_names=names, **features)
            out.append(_run(tf, parsed).get("error"))
    return out


def run_errors(tf):
    fixed, sequence_feature, varlen = tf.FixedLenFeature, tf.io.FixedLenSequenceFeature, tf.VarLenFeature
    return {
        "context_missing": _error_runs(tf, [0, 1], context_features={"id": fixed([], tf.int64)}),
        "context_count": _error_runs(tf, [0], context_features={"w": fixed([3], tf.float32)}),
        "context_count_in_one": _error_runs(tf, [0, 1], ["a", "b"], context_features={"w": fixed([2], tf.float32)}),
        "context_count_defaulted": _error_runs(tf, [1, 0, 2], context_features={
            "w": fixed([2], tf.float32, default_value=[0.0, 0.0])}),
        "context_missing_in_one": _error_runs(tf, [0, 2, 1], context_features={"id": fixed([], tf.int64)}),
        "context_type": _error_runs(tf, [0, 1], ["a", "b"], context_features={"w": fixed([2], tf.int64)}),
        "context_sparse_type": _error_runs(tf, [0], context_features={"id": varlen(tf.float32)}),
        "list_missing": _error_runs(tf, [0, 2], ["a", "c"], sequence_features={"tok": sequence_feature([2], tf.int64)}),
        "list_stride": _error_runs(tf, [0], sequence_features={"tok": sequence_feature([4], tf.int64)}),
        "list_type": _error_runs(tf, [0, 2], ["a", "c"], sequence_features={"v": varlen(tf.float32)}),
        "list_dense_type": _error_runs(tf, [1], sequence_features={"tok": sequence_feature([2], tf.float32)}),
        "garbage": _garbage(tf),
    }


def _garbage(tf):
    out, lists = [], {"v": tf.VarLenFeature(tf.string)}
    with tf.Graph().as_default():
        parsed = tf.io.parse_sequence_example([records(tf)[0], b"\xff\xffjunk"], sequence_features=lists)
        out.append(_run(tf, parsed)["error"])
    with tf.Graph().as_default():
        parsed = tf.io.parse_single_sequence_example(b"\xff\xffjunk", example_name="bad", sequence_features=lists)
        out.append(_run(tf, parsed)["error"])
    return out


def build_errors(tf):
    fixed, sequence_feature = tf.FixedLenFeature, tf.io.FixedLenSequenceFeature
    return {
        "none_batch": _build_error(tf, lambda: tf.io.parse_sequence_example(["x"])),
        "none_single": _build_error(tf, lambda: tf.io.parse_single_sequence_example("x", {}, {})),
        "list_default": _build_error(tf, lambda: tf.io.parse_sequence_example(
            ["x"], sequence_features={"t": sequence_feature([2], tf.int64, default_value=3)})),
        "sequence_in_context": _build_error(tf, lambda: tf.io.parse_single_sequence_example(
            "x", context_features={"t": sequence_feature([2], tf.int64)})),
        "fixed_in_lists": _build_error(tf, lambda: tf.io.parse_single_sequence_example(
            "x", sequence_features={"t": fixed([2], tf.int64)})),
        "single_of_vector": _build_error(tf, lambda: tf.io.parse_single_sequence_example(
            ["x"], sequence_features={"t": tf.VarLenFeature(tf.int64)})),
        "batch_of_matrix": _build_error(tf, lambda: tf.io.parse_sequence_example(
            [["x"]], sequence_features={"t": tf.VarLenFeature(tf.int64)})),
    }


def _tensors(tf):
    return [tf.constant([[1.5, -2.0], [3.0, 4.25]]), tf.constant(3), tf.constant(["a", "bc", ""]),
            tf.constant([True, False]), tf.constant([2**40, -1], tf.int64), tf.zeros([2, 0], tf.float64),
            tf.constant(7, tf.uint8), tf.constant([0.5, 1.5], tf.float16)]


def serialize_tensor(tf):
    tensors = _tensors(tf)
    serialized = [tf.io.serialize_tensor(t) for t in tensors[:4]] + [tf.serialize_tensor(t, name="s")
                                                                     for t in tensors[4:]]
    parsed = [tf.io.parse_tensor(s, t.dtype) for s, t in zip(serialized, tensors)]
    parsed.append(tf.parse_tensor(tf.io.serialize_tensor(tensors[0]), tf.float32, name="back"))
    return _run(tf, [serialized, parsed])


def parse_tensor_errors(tf):
    out = []
    for build in (lambda: tf.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0])), tf.int32),
                  lambda: tf.parse_tensor(tf.io.serialize_tensor(tf.constant(["a"])), tf.float64),
                  lambda: tf.parse_tensor(b"\xffgarbage", tf.int32),
                  lambda: tf.parse_tensor([tf.io.serialize_tensor(tf.constant(1))], tf.int32)):
        with tf.Graph().as_default():
            out.append(_run(tf, build()).get("error"))
    return out


def make_tensor_proto(tf):
    protos = [tf.make_tensor_proto([1, 2, 3]), tf.make_tensor_proto(1.5, shape=[2, 2]),
              tf.make_tensor_proto(["a"], shape=[2]), tf.make_tensor_proto(np.arange(6.0).reshape(2, 3)),
              tf.make_tensor_proto([1, 2], shape=[3]), tf.make_tensor_proto([1, 2, 3], allow_broadcast=True, shape=[3]),
              tf.make_tensor_proto(5, dtype=tf.int64), tf.make_tensor_proto([[True], [False]]),
              tf.make_tensor_proto(np.float32(2.5)), tf.make_tensor_proto([1.0, 2.0], tf.float64, shape=[2, 1]),
              tf.make_tensor_proto(7, shape=[0, 3]), tf.make_tensor_proto(b"xy"),
              tf.make_tensor_proto(np.array([1, 2], np.uint16)), tf.make_tensor_proto([0.5, 1.0], tf.float16)]
    arrays = [tf.make_ndarray(p) for p in protos]
    errors = []
    for build in (lambda: tf.make_tensor_proto([1, 2, 3], shape=[2]),
                  lambda: tf.make_tensor_proto([1, 2], shape=[3], verify_shape=True),
                  lambda: tf.make_tensor_proto([1, 2], shape=[3], allow_broadcast=True),
                  lambda: tf.make_tensor_proto(tf.constant(1)),
                  lambda: tf.make_tensor_proto(["a"], tf.int32)):
        try:
            build()
            errors.append(None)
        except (TypeError, ValueError) as e:
            errors.append([type(e).__name__, str(e)])
    return {"protos": [p.SerializeToString(deterministic=True).hex() for p in protos], "arrays": encode(arrays),
            "errors": errors}


def decode_compressed(tf):
    import gzip
    import zlib

    raw = [b"hello hello hello", b"", bytes(range(256)) * 3]
    out = [_run(tf, [tf.decode_compressed([zlib.compress(r) for r in raw], "ZLIB"),
                     tf.io.decode_compressed([[gzip.compress(r, mtime=0) for r in raw]], compression_type="GZIP",
                                             name="gz"),
                     tf.decode_compressed(raw), tf.decode_compressed([zlib.compress(raw[2])[:-30]], "ZLIB")])]
    for data, kind in (([b"garbage"], "ZLIB"), ([b"garbage"], "GZIP"), ([b"x"], "LZ")):
        with tf.Graph().as_default():
            out.append(_run(tf, tf.decode_compressed(data, kind)).get("error"))
    return out


def decode_json_example(tf):
    texts = ['{"features": {"feature": {"a": {"floatList": {"value": [1.5, 2]}}, "b": {"bytesList": {"value": '
             '["aGk="]}}, "c": {"int64List": {"value": ["7", -3]}}}}}', "{}"]
    decoded = tf.io.decode_json_example(tf.constant([texts]), name="json")
    parsed = tf.parse_example(tf.reshape(decoded, [-1])[:1], {"a": tf.FixedLenFeature([2], tf.float32),
                                                            "b": tf.VarLenFeature(tf.string),
                                                            "c": tf.FixedLenFeature([2], tf.int64)})
    out = _run(tf, parsed)
    out["decoded"] = [str(decoded.shape), decoded.name]
    errors = []
    for text in ("{bad", '{"nope": 1}'):
        with tf.Graph().as_default():
            errors.append(_run(tf, tf.decode_json_example([text])).get("error", [None])[0])
    return [out, errors]


CASES = {f.__name__: f for f in (parse_single, parse_batch, parse_batch_static, run_errors, build_errors,
                                 serialize_tensor, parse_tensor_errors, make_tensor_proto, decode_compressed,
                                 decode_json_example)}
