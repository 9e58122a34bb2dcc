"""The pipelines behind ``data/tf_data_transformations_golden.json``: the transformations of
``transformations.py`` and ``tf.data.experimental``, each case run by both engines as in
``pipeline_cases.py`` (TensorFlow's compat.v1 writes the golden file, numflow is tested against it).
"""

import functools
import os
import tempfile

import numpy as np
from pipeline_cases import _describe, _text, encode

CSV_FILES = {
    "a.csv": 'n,x,s,k\n1,2.5,plain,7\n"3",,"q""uo,te",8\r\n-4, 1e3 ,"multi\nline",\n5,-0.5,,9',
    "b.csv": "n,x,s,k\n6,7,x,10\n\n7,NA,NA,11\n",
    "bad.csv": 'n,x,s,k\n8,1.5,ok,1\n9,zz,bad,2\n11,3.5,x,4,5\n12,4.5,a"b,6\n13,,,\n14,5.5,end,7\n15,1,"open,3\n',
    "people_1.csv": 'name,age,score,label\nann,31,2.5,1\nbob,,3.5,0\n"c,d",40,,1\nkim,3000000000,1e40,0\n',
    "people_2.csv": "name,age,score,label\neve,22,1.0,0\nfay,50,9.5,1\ngus,7,0.25,1\n",
}


def _csv_folder():
    folder = tempfile.mkdtemp()
    for name, text in CSV_FILES.items():
        with open(os.path.join(folder, name), "w", newline="") as f:
            f.write(text)
    return folder


def _drain_to_error(tf, sess, element, limit=100):
    """The elements until the end of the sequence or an error: ``[elements, error class, message]``."""
    out = []
    try:
        for _ in range(limit):
            out.append(encode(sess.run(element)))
    except tf.errors.OpError as e:
        lines = [line for line in e.message.splitlines() if line.strip() and "[[" not in line]
        return [out, type(e).__name__, lines[-1]]
    return [out, None, None]


def _run(tf, datasets):
    """Each of ``datasets`` read by a one-shot iterator to its end or first error, with the
    elements' dtypes and shapes and the graph's ops."""
    elements = [tf.data.make_one_shot_iterator(d).get_next() for d in datasets]
    result = {f"describe{i}": {"element": _text(e), **_describe(tf, d, e)}
              for i, (d, e) in enumerate(zip(datasets, elements))}
    with tf.Session() as sess:
        for i, element in enumerate(elements):
            result[f"run{i}"] = _drain_to_error(tf, sess, element)
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


def _run_one_shot(tf, dataset):
    return _run(tf, [dataset])


def shard_unbatch(tf):
    a = tf.data.Dataset.range(11).shard(3, 1)
    b = tf.data.Dataset.from_tensor_slices(np.arange(24, dtype=np.float32).reshape(6, 4)).batch(2).unbatch()
    c = tf.data.Dataset.range(7).batch(3).apply(tf.data.experimental.unbatch())
    return _run_one_shot(tf, tf.data.Dataset.zip((a, b, c)))


def unbatch_of_a_structure(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda x: {"v": tf.fill([x, 2], x), "n": tf.range(x)})
    return _run_one_shot(tf, ds.unbatch())


def shuffle_and_repeat(tf):
    a = tf.data.Dataset.range(10).apply(tf.data.experimental.shuffle_and_repeat(4, 2, seed=3))
    b = tf.data.Dataset.range(5).apply(tf.data.experimental.shuffle_and_repeat(10, seed=1)).take(12)
    return _run_one_shot(tf, a.concatenate(b))


def map_and_batch(tf):
    a = tf.data.Dataset.range(10).apply(tf.data.experimental.map_and_batch(
        lambda x: (x, tf.cast(x, tf.float32) / 2), 4, drop_remainder=True))
    b = tf.data.Dataset.range(7).apply(tf.data.experimental.map_and_batch(lambda x: x * x, 3, num_parallel_batches=2))
    return _run_one_shot(tf, a.concatenate(b.map(lambda x: (x, tf.cast(x, tf.float32)))))


def parallel_interleave(tf):
    # Empty, short and long datasets, so that workers end and hand over at several places in the cycle.
    def make(x):
        return tf.data.Dataset.range(x * 10, x * 10 + (x * 3) % 5)

    a = tf.data.Dataset.range(1, 9).apply(
        tf.data.experimental.parallel_interleave(make, cycle_length=3, block_length=2))
    b = tf.data.Dataset.range(1, 7).apply(tf.data.experimental.parallel_interleave(make, cycle_length=2,
                                                                                    prefetch_input_elements=1))
    return _run_one_shot(tf, a.concatenate(b))


def list_files(tf):
    folder = tempfile.mkdtemp()
    for name in ("c.txt", "a.txt", "f.txt", "d.txt", "b.txt", "g.txt", "e.csv"):
        with open(os.path.join(folder, name), "w") as f:
            f.write(name)
    base = lambda path: tf.strings.regex_replace(path, ".*/", "")  # noqa: E731
    ordered = tf.data.Dataset.list_files(os.path.join(folder, "*.txt"), shuffle=False).map(base)
    shuffled = tf.data.Dataset.list_files(os.path.join(folder, "*.txt"), seed=4).repeat(2).map(base)
    several = tf.data.Dataset.list_files([os.path.join(folder, "*.csv"), os.path.join(folder, "[ab]*")],
                                         seed=9).map(base)
    result = _run_one_shot(tf, ordered.concatenate(shuffled).concatenate(several))
    # The list's own ops (the message of its assertion: string ops) are left out.
    result["ops"] = [op for op in result["ops"] if "Dataset" in op or "Iterator" in op]
    pattern = tf.placeholder(tf.string, [], name="pattern")
    iterator = tf.data.make_initializable_iterator(tf.data.Dataset.list_files(pattern))
    with tf.Session() as sess:
        try:
            sess.run(iterator.initializer, {pattern: os.path.join(folder, "*.none")})
            result["none"] = None
        except tf.errors.InvalidArgumentError as e:
            result["none"] = [line for line in e.message.splitlines() if "No files matched" in line][0].replace(
                folder, "DIR")
    return result


def csv_dataset(tf):
    folder = _csv_folder()
    path = functools.partial(os.path.join, folder)
    defaults = [tf.int32, tf.constant([-1.0]), tf.constant(["?"]), tf.constant([0], tf.int64)]
    return _run(tf, [
        tf.data.experimental.CsvDataset([path("a.csv"), path("b.csv")], defaults, header=True),
        tf.data.experimental.CsvDataset(path("a.csv"), [tf.constant(["-"]), [0]], header=True, select_cols=[2, 3]),
        tf.data.experimental.CsvDataset(path("b.csv"), [tf.int64, tf.float64, "?", tf.int32], na_value="NA",
                                        header=True),
        tf.data.experimental.CsvDataset(path("a.csv"), [tf.string] * 4, use_quote_delim=False, field_delim=";"),
        tf.data.experimental.CsvDataset(path("bad.csv"), [tf.int32, tf.float32, tf.string, tf.int32],
                                        header=True),
        tf.data.experimental.CsvDataset(path("bad.csv"), [tf.int32, [0.0], ["?"], [0]], header=True).apply(
            tf.data.experimental.ignore_errors()),
    ])


def ignore_errors(tf):
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 0.0, 4.0, -1.0, 5.0])
    checked = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inverse")).ignore_errors()
    filtered = ds.filter(lambda x: tf.debugging.check_numerics(x, "x") > 1.0).map(
        lambda x: tf.debugging.check_numerics(tf.math.log(x - 4.0), "log")).ignore_errors()
    return _run(tf, [checked, filtered])


def make_csv_dataset(tf):
    folder = _csv_folder()
    pattern = os.path.join(folder, "people_*.csv")
    make = tf.data.experimental.make_csv_dataset
    return _run(tf, [
        make(pattern, 3, label_name="label", num_epochs=2, shuffle_seed=5, shuffle_buffer_size=4),
        make(pattern, 2, select_columns=["score", "name"], num_epochs=1, shuffle=False,
             column_defaults=[tf.string, tf.constant([-1.0], tf.float64)]),
        make([os.path.join(folder, "people_2.csv")], 2, column_names=["who", "years", "points", "y"], header=True,
             num_parallel_reads=2, shuffle_seed=7).take(3),
        make(pattern, 4, label_name="name", select_columns=[0, 1], num_epochs=1, shuffle=False,
             num_rows_for_inference=2),
    ])


def window(tf):
    ds = tf.data.Dataset.range(11)
    d = tf.data.Dataset.from_tensor_slices(({"a": np.arange(5)}, np.arange(10.0).reshape(5, 2)))
    windows = tf.data.Dataset.range(7).window(3, 2)
    return _run(tf, [
        ds.window(3, 2, 2).flat_map(lambda w: w.batch(3)),
        ds.window(4, 5, 1, drop_remainder=True).flat_map(lambda w: w.batch(4)),
        ds.window(2, 4).flat_map(lambda w: w.map(lambda x: x * 10)),
        d.window(2).flat_map(lambda x, y: tf.data.Dataset.zip((x["a"].batch(2), y.padded_batch(3, [2])))),
        windows.flat_map(lambda w: tf.data.Dataset.from_tensors(w.reduce(np.int64(0), lambda s, x: s * 10 + x))),
    ]) | {"window_spec": [_text(tf.data.get_output_types(windows)), _text(tf.data.get_output_shapes(windows))]}


def reduce_and_single_element(tf):
    mean = tf.data.Dataset.range(1, 5).map(lambda x: tf.cast(x, tf.float32)).reduce(
        (0.0, np.int64(0)), lambda s, x: (s[0] + x, s[1] + 1))
    grown = tf.data.Dataset.range(1, 4).reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, [x] * x], 0))
    keyed = tf.data.Dataset.range(3).reduce({"max": np.int64(-1), "seen": tf.constant([0, 0, 0], tf.int64)},
                                            lambda s, x: {"max": tf.maximum(s["max"], x),
                                                          "seen": s["seen"] + tf.one_hot(x, 3, dtype=tf.int64)})
    single = tf.data.experimental.get_single_element(tf.data.Dataset.range(3, 4).map(lambda x: (x, {"k": x * 2})))
    batched = tf.data.Dataset.range(5).batch(5).get_single_element()
    empty = tf.data.Dataset.range(0).get_single_element()
    several = tf.data.experimental.get_single_element(tf.data.Dataset.range(2))
    result = {"shapes": _text(tf.nest.map_structure(lambda t: t.shape, [mean, grown, keyed, single, batched]))}
    with tf.Session() as sess:
        result["values"] = encode(sess.run([mean, grown, keyed, single, batched]))
        for i, tensor in enumerate((empty, several)):
            try:
                sess.run(tensor)
            except tf.errors.InvalidArgumentError as e:
                result[f"error{i}"] = [line for line in e.message.splitlines() if line.strip() and "[[" not in line][-1]
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


def sample_and_choose(tf):
    a, b, c = tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 103), tf.data.Dataset.range(200, 210)
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(6.0), np.arange(6))), tf.data.Dataset.from_tensors(
        (np.float64(-1.0), np.int64(-1))).repeat(4)
    choices = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 1, 1, 0], np.int64))
    return _run(tf, [
        tf.data.experimental.sample_from_datasets([a, b, c], seed=3),
        tf.data.experimental.sample_from_datasets([a, b], weights=[0.2, 0.8], seed=7),
        tf.data.Dataset.sample_from_datasets([a, b, c], weights=[0.5, 0.0, 0.5], seed=1, stop_on_empty_dataset=True),
        tf.data.Dataset.sample_from_datasets(list(pairs), weights=tf.constant([0.3, 0.7], tf.float64), seed=11),
        tf.data.experimental.choose_from_datasets([a, b], choices),
        tf.data.Dataset.choose_from_datasets([a, b], choices),
        tf.data.experimental.choose_from_datasets([a, b], tf.data.Dataset.from_tensor_slices(tf.constant([0, 2],
                                                                                                          tf.int64))),
        tf.data.experimental.sample_from_datasets([a, b], seed=2, weights=tf.data.Dataset.from_tensor_slices(
            np.array([[0.9, 0.1], [0.1, 0.9], [0.5, 0.5]] * 4, np.float32))),
        tf.data.Dataset.random(seed=4).take(5),
        tf.data.experimental.RandomDataset(seed=5).batch(3).take(2),
    ])


def group_by_window_and_buckets(tf):
    a = tf.data.Dataset.range(13)
    d = tf.data.Dataset.range(1, 12).map(lambda x: (tf.fill([x % 7 + 1], x), x))
    scale = tf.constant(100, tf.int64, name="scale")
    return _run(tf, [
        a.group_by_window(lambda x: x % 3, lambda k, w: w.batch(10), window_size=4),
        a.apply(tf.data.experimental.group_by_window(
            lambda x: x % 4 * 7 - 5, lambda k, w: w.map(lambda x: x + scale * k).batch(5),
            window_size_func=lambda k: k % 3 + 2)),
        d.bucket_by_sequence_length(lambda v, x: tf.shape(v)[0], [3, 5], [2, 3, 2]),
        d.apply(tf.data.experimental.bucket_by_sequence_length(
            lambda v, x: tf.size(v), [3, 8], [3, 2, 2], pad_to_bucket_boundary=True,
            padding_values=(np.int64(-1), np.int64(0)))),
        d.bucket_by_sequence_length(lambda v, x: tf.size(v), [4], [2, 3], drop_remainder=True,
                                    padded_shapes=([9], [])),
        d.map(lambda v, x: {"v": v, "n": x}).bucket_by_sequence_length(lambda e: tf.size(e["v"]), [5], [4, 1],
                                                                       no_padding=True),
    ])


def scan_take_while_unique(tf):
    a = tf.data.Dataset.range(10)
    offset = tf.constant(3, tf.int64, name="offset")
    return _run(tf, [
        a.take_while(lambda x: x < 4),
        a.apply(tf.data.experimental.take_while(lambda x: x * x < 30 + offset)),
        tf.data.Dataset.from_tensor_slices([3, 1, 3, 2, 1, 5]).unique(),
        tf.data.Dataset.from_tensor_slices(["a", "b", "a", "c"]).apply(tf.data.experimental.unique()),
        a.scan(np.int64(0), lambda s, x: (s + x, s * 10)),
        a.apply(tf.data.experimental.scan((np.int64(1), 0.5), lambda s, x: ((s[0] * 2, s[1] + 1.0),
                                                                              {"p": s[0] + x, "h": s[1]}))),
        a.take(4).scan(tf.zeros([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), tf.reduce_sum(s))),
        tf.data.Dataset.range(3).apply(tf.data.experimental.enumerate_dataset(5)),
        tf.data.experimental.Counter(3, 2).take(3),
        tf.data.Dataset.counter(-1, -3, tf.int32).take(3),
    ])


def cardinality(tf):
    a = tf.data.Dataset.range(10)
    datasets = [a, a.repeat(), a.filter(lambda x: x > 2), a.batch(3), a.batch(3, drop_remainder=True),
                a.take(4).skip(1), a.shard(3, 1), a.repeat(2).map(lambda x: x * 2), a.repeat().take(7),
                tf.data.Dataset.zip((a, a.repeat())), a.concatenate(a.take(2)), a.skip(-1), a.take(0).repeat(),
                tf.data.Dataset.from_tensors(1).shuffle(4).prefetch(1).cache()]
    counts = [tf.data.experimental.cardinality(d) for d in datasets[:-1]] + [datasets[-1].cardinality()]
    with tf.Session() as sess:
        values = sess.run(counts)
    ops = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return {"counts": [int(v) for v in values], "ops": ops,
            "constants": [tf.data.experimental.INFINITE_CARDINALITY, tf.data.experimental.UNKNOWN_CARDINALITY,
                          tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY]}


CASES = {f.__name__: f for f in (
    shard_unbatch, unbatch_of_a_structure, shuffle_and_repeat, map_and_batch, parallel_interleave, list_files,
    csv_dataset, ignore_errors, make_csv_dataset, window, reduce_and_single_element, sample_and_choose,
    group_by_window_and_buckets, scan_take_while_unique, cardinality,
)}
