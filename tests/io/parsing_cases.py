"""The record-parsing programs behind ``data/tf_parsing_golden.json``, written once for both engines:
each case takes the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in
the tests) and returns what it built and read: values, op names and types, static shapes and dtypes,
or the error's class and message.
"""

import pathlib

import numpy as np

DATA = pathlib.Path(__file__).parent / "data"
EXAMPLES_FILE = DATA / "examples.tfrecord"


def encode(value):
    """``value`` (a fetched structure) as JSON: arrays as ``[dtype, nested list, shape]``."""
    if isinstance(value, dict):
        return {k: encode(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if hasattr(value, "dense_shape"):
        return {"indices": encode(value.indices), "values": encode(value.values), "shape": encode(value.dense_shape)}
    array = np.asarray(value)
    if array.dtype == object or array.dtype.kind == "S":
        return ["string", [b.decode("latin-1") for b in array.ravel().tolist()], list(array.shape)]
    return [array.dtype.name, array.tolist(), list(array.shape)]


def _static(structure):
    if isinstance(structure, dict):
        return {k: _static(v) for k, v in sorted(structure.items())}
    if isinstance(structure, tuple | list):
        return [_static(v) for v in structure]
    if hasattr(structure, "dense_shape"):
        return {"indices": _static(structure.indices), "values": _static(structure.values),
                "shape": _static(structure.dense_shape)}
    return [structure.name, str(structure.shape), structure.dtype.name]


def example(tf, **features):
    """A ``tf.train.Example`` of ``features``: floats, ints or bytes lists by the first value's type."""
    kinds = {float: ("float_list", tf.train.FloatList), int: ("int64_list", tf.train.Int64List),
             bytes: ("bytes_list", tf.train.BytesList)}
    built = {}
    for key, values in features.items():
        field, cls = kinds[type(values[0])] if values else ("float_list", tf.train.FloatList)
        built[key] = tf.train.Feature(**{field: cls(value=values)})
    return tf.train.Example(features=tf.train.Features(feature=built))


def records(tf):
    """Three serialized Examples, of different lengths and one lacking features (map keys in order,
    so that both engines write the same bytes)."""
    return [example(tf, a=[1.0, 2.0], b=[3, 4, 5], c=[b"x"], s=[1, 2, 3, 4]).SerializeToString(deterministic=True),
            example(tf, a=[0.5, -1.5], b=[7], s=[9, 8]).SerializeToString(deterministic=True),
            example(tf, a=[3.0, 4.0], c=[b"yz"]).SerializeToString(deterministic=True)]


FEATURES = ("a", "b", "c", "s")


def features(tf):
    return {"a": tf.FixedLenFeature([2], tf.float32), "b": tf.VarLenFeature(tf.int64),
            "c": tf.FixedLenFeature([], tf.string, default_value="none"),
            "s": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True, default_value=-1)}


def _run(tf, fetches, feed=None):
    graph = tf.get_default_graph()
    result = {"static": _static(fetches), "ops": [f"{op.name}:{op.type}" for op in graph.get_operations()]}
    try:
        with tf.Session() as sess:
            result["value"] = encode(sess.run(fetches, feed))
    except tf.errors.OpError as e:
        result["error"] = [type(e).__name__, op_message(e)]
    return result


def op_message(error):
    """What a kernel said: TensorFlow wraps it in lines naming the node, numflow appends one."""
    lines = [line for line in error.message.splitlines() if line.strip() and "[[" not in line]
    return lines[-1]


def _build_error(tf, build):
    try:
        build()
    except (ValueError, TypeError) as e:
        return [type(e).__name__, str(e).splitlines()[0].split(" for '{{node")[0]]
    return None


def serialized_bytes(tf):
    return {"records": [r.hex() for r in records(tf)],
            "sequence": tf.train.SequenceExample(
                context=example(tf, id=[7]).features,
                feature_lists=tf.train.FeatureLists(feature_list={"w": tf.train.FeatureList(
                    feature=[tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"hi"]))])})).SerializeToString(deterministic=True).hex()}


def parse_batch(tf):
    serialized = tf.placeholder(tf.string, [None])
    return _run(tf, tf.parse_example(serialized, features(tf)), {serialized: records(tf)})


def parse_batch_static_size(tf):
    return _run(tf, tf.io.parse_example(records(tf)[:2], features(tf), name="parsed"))


def parse_single(tf):
    return [_run(tf, tf.parse_single_example(r, features(tf))) for r in records(tf)]


def parse_single_dense_only(tf):
    return _run(tf, tf.parse_single_example(records(tf)[0], {"a": tf.FixedLenFeature([2], tf.float32)}))


def parse_single_of_unknown_rank(tf):
    """A serialized record of unknown rank is checked when run: a scalar parses, a vector fails."""
    serialized = tf.placeholder(tf.string)
    parsed = tf.parse_single_example(serialized, {"a": tf.FixedLenFeature([2], tf.float32)})
    return [_run(tf, parsed, {serialized: records(tf)[0]}), _run(tf, parsed, {serialized: records(tf)[:1]})]


def parse_single_named(tf):
    return _run(tf, tf.io.parse_single_example(records(tf)[0], {"b": tf.VarLenFeature(tf.int64)}, name="one"))


def parse_empty_batch(tf):
    serialized = tf.placeholder(tf.string, [None])
    return _run(tf, tf.parse_example(serialized, features(tf)), {serialized: np.zeros([0], dtype=object)})


def _error_runs(tf, feature, rows=(0, 1)):
    out = []
    with tf.Graph().as_default():
        batch = tf.placeholder(tf.string, [None])
        out.append(_run(tf, tf.parse_example(batch, feature), {batch: [records(tf)[i] for i in rows]})["error"])
    with tf.Graph().as_default():
        one = tf.placeholder(tf.string, [])
        out.append(_run(tf, tf.parse_single_example(one, feature), {one: records(tf)[rows[-1]]})["error"])
    return out


def run_errors(tf):
    return {
        "missing": _error_runs(tf, {"z": tf.FixedLenFeature([2], tf.float32)}),
        "missing_in_second": _error_runs(tf, {"c": tf.FixedLenFeature([], tf.string)}, rows=(0, 1)),
        "wrong_type": _error_runs(tf, {"a": tf.FixedLenFeature([2], tf.int64)}),
        "wrong_type_string": _error_runs(tf, {"a": tf.FixedLenFeature([2], tf.string)}),
        "wrong_count": _error_runs(tf, {"b": tf.FixedLenFeature([2], tf.int64)}, rows=(0,)),
        "varlen_wrong_type": _error_runs(tf, {"b": tf.VarLenFeature(tf.float32)}),
        "sequence_stride": _error_runs(tf, {"b": tf.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)},
                                       rows=(0,)),
        "garbage": _garbage(tf),
    }


def _garbage(tf):
    with tf.Graph().as_default():
        batch = tf.placeholder(tf.string, [None])
        return _run(tf, tf.parse_example(batch, {"a": tf.VarLenFeature(tf.float32)}),
                    {batch: [records(tf)[0], b"garbage"]})["error"]


def build_errors(tf):
    batch = tf.placeholder(tf.string, [None])
    fixed, varlen = tf.FixedLenFeature, tf.VarLenFeature
    return {
        "empty": _build_error(tf, lambda: tf.parse_example(batch, {})),
        "none_single": _build_error(tf, lambda: tf.parse_single_example(batch[0], None)),
        "empty_single": _build_error(tf, lambda: tf.parse_single_example(batch[0], {})),
        "sequence_not_missing": _build_error(
            tf, lambda: tf.parse_example(batch, {"a": tf.FixedLenSequenceFeature([], tf.int64)})),
        "first_dim_unknown": _build_error(tf, lambda: tf.parse_example(batch, {"a": fixed([None], tf.int64)})),
        "partly_known": _build_error(tf, lambda: tf.parse_example(batch, {"a": fixed([2, None], tf.int64)})),
        "single_of_vector": _build_error(tf, lambda: tf.parse_single_example(batch, {"a": varlen(tf.int64)})),
        "int32": _build_error(tf, lambda: tf.parse_example(batch, {"a": varlen(tf.int32)})),
        "not_a_feature": _build_error(tf, lambda: tf.parse_example(batch, {"a": 3})),
        "bad_default": _build_error(
            tf, lambda: tf.parse_example(batch, {"a": fixed([2], tf.float32, default_value=[1.0, 2.0, 3.0])})),
    }


def dataset_map(tf):
    """The TFRecord file TensorFlow wrote, parsed record by record inside ``Dataset.map`` and batched."""
    def parse(record):
        parsed = tf.parse_single_example(record, features(tf))
        return parsed["a"], parsed["c"], tf.sparse.to_dense(parsed["b"])

    dataset = tf.data.TFRecordDataset(str(EXAMPLES_FILE)).map(parse)
    element = tf.data.make_one_shot_iterator(dataset).get_next()
    out = {"static": _static(element), "values": []}
    with tf.Session() as sess:
        try:
            while True:
                out["values"].append(encode(sess.run(element)))
        except tf.errors.OutOfRangeError:
            pass
    return out


def _errors(tf, builds):
    """Each build's error when built or run, or its value when it runs."""
    out = []
    for build in builds:
        with tf.Graph().as_default():
            try:
                result = _run(tf, build())
                out.append(result.get("error") or result["value"])
            except (ValueError, TypeError) as e:
                out.append([type(e).__name__, str(e).splitlines()[0].split(" for '{{node")[0]])
    return out


def decode_raw(tf):
    return [_run(tf, [tf.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\xff\xff"]), tf.int16),
                      tf.io.decode_raw(tf.constant(b"\x00\x01"), tf.uint16, little_endian=False),
                      tf.decode_raw([b"\x00\x00\x80\x3f"], tf.float32, name="floats")]),
            _errors(tf, [lambda: tf.decode_raw(tf.constant([b"\x01\x00\x02", b"\x03\x00\x04\x00"]), tf.int16),
                         lambda: tf.decode_raw(tf.constant([b"\x01\x00\x02"]), tf.int16),
                         lambda: tf.decode_raw(tf.constant([b"\x01"]), tf.string)])]


def decode_csv(tf):
    lines = tf.placeholder(tf.string, [None])
    feed = {lines: ["1,2.5,a", '3,,"b,""c"""', "-4,1e3,"]}
    plain = _run(tf, tf.decode_csv(lines, [[0], [1.0], ["z"]]), feed)
    with tf.Graph().as_default():
        chosen = _run(tf, tf.io.decode_csv(["1;x;2", "NA;y;3"], [[7], tf.constant([], tf.int64)], field_delim=";",
                                           na_value="NA", select_cols=[0, 2], name="picked"))
    return [plain, chosen, _errors(tf, [
        lambda: tf.decode_csv(["1,2"], [[0], [1.0], ["z"]]),
        lambda: tf.decode_csv(["x,2"], [[0], [1.0]]),
        lambda: tf.decode_csv(["1,"], [[0], tf.constant([], tf.float32)]),
        lambda: tf.decode_csv(['"a,1'], [[""], [0]]),
        lambda: tf.decode_csv(["1"], [[0]], select_cols=[1, 0]),
        lambda: tf.decode_csv(["1"], [[0], [0]], select_cols=[0]),
        lambda: tf.decode_csv(["1"], [[0, 1]]),
        lambda: tf.decode_csv(["1,2"], [[0], [1.5]], field_delim=" ", use_quote_delim=False),
        lambda: tf.decode_csv(["1_000,2"], [[0], [1.5]]),
        lambda: tf.decode_csv(["3000000000,2"], [[0], [1.5]]),
        lambda: tf.decode_csv(["3000000000,2.5e1,-0.125"], [tf.constant([0], tf.int64), [1.5], [0.0]])])]


def string_split(tf):
    return [_run(tf, [tf.string_split(tf.constant(["a b  c", "", "d"])),
                      tf.string_split(["a,b;c", "x"], sep=",;"),
                      tf.string_split(["a  b"], skip_empty=False),
                      tf.string_split(["ab", "c"], delimiter=""),
                      tf.strings.split(tf.constant(["a,b,,c", "d"]), sep=","),
                      tf.strings.split([" a  b ", "c"]),
                      tf.strings.split(["a,b,c"], sep=",", maxsplit=1)]),
            _errors(tf, [lambda: tf.string_split(tf.constant([["a"]]))])]


CASES = {f.__name__: f for f in (serialized_bytes, parse_batch, parse_batch_static_size, parse_single,
                                 parse_single_dense_only, parse_single_of_unknown_rank, parse_single_named,
                                 parse_empty_batch, run_errors, build_errors, dataset_map, decode_raw, decode_csv,
                                 string_split)}
