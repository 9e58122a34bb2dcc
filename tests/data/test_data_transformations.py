"""The transformations of ``numflow.data.transformations`` and ``tf.data.experimental`` beyond their
golden pipelines (``transformation_cases.py``): bad arguments with TensorFlow's error classes and
messages, and their GraphDef forms, read back."""

import numpy as np
import pytest
from pipeline_cases import encode

import numflow as tf


def _drain(sess, element):
    out = []
    try:
        while True:
            out.append(encode(sess.run(element)))
    except tf.errors.OutOfRangeError:
        return out


def _through_a_graph_def(build):
    """The elements of each iterator element ``build()`` makes, read in a session, then again in a
    graph imported from the first one's GraphDef: ``(first reads, second reads, GraphDef)``."""
    with tf.Graph().as_default():
        elements = build()
        with tf.Session() as sess:
            want = [_drain(sess, e) for e in elements]
        graph_def = tf.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            got = [_drain(sess, tf.nest.map_structure(lambda t: t.name, e)) for e in elements]
    return want, got, graph_def


def _initializer_error(dataset, feed):
    iterator = tf.data.make_initializable_iterator(dataset)
    with tf.Session() as sess:
        sess.run(iterator.initializer, feed)
        sess.run(iterator.get_next())


@pytest.mark.parametrize("shards, index, message", [
    (0, 0, r"Number of shards must be greater than zero \(currently num_shards = 0\)."),
    (2, 3, r"Index must be between 0 and 1 \(currently index = 3\)."),
    (2, -1, r"Index must be between 0 and 1 \(currently index = -1\).")])
def test_shard_refuses_bad_shards(shards, index, message):
    n, i = tf.placeholder(tf.int64, []), tf.placeholder(tf.int64, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _initializer_error(tf.data.Dataset.range(4).shard(n, i), {n: shards, i: index})


def test_unbatch_checks_the_leading_dimensions():
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        tf.data.Dataset.range(3).unbatch()
    with pytest.raises(ValueError, match="matching leading dimension. Encountered both 3 and 2."):
        tf.data.Dataset.from_tensors((np.zeros(3), np.zeros(2))).unbatch()
    x, y = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input element must have the same batch size in each "
                                                             "component. Component 0 had size 3 but component 1 had "
                                                             "size, 2."):
        _initializer_error(tf.data.Dataset.from_tensors((x, y)).unbatch(), {x: [1, 2, 3], y: [1, 2]})


@pytest.mark.parametrize("cycle, block, message", [(0, 1, "`cycle_length` must be > 0"),
                                                   (1, 0, "`block_length` must be > 0")])
def test_parallel_interleave_refuses_a_cycle_or_block_not_above_zero(cycle, block, message):
    c, b = tf.placeholder(tf.int64, []), tf.placeholder(tf.int64, [])
    ds = tf.data.Dataset.range(3).apply(tf.data.experimental.parallel_interleave(
        tf.data.Dataset.from_tensors, c, b, buffer_output_elements=2, prefetch_input_elements=2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _initializer_error(ds, {c: cycle, b: block})


@pytest.mark.parametrize("size, calls, message", [(0, 1, "batch_size must be greater than zero."),
                                                  (2, 0, "num_parallel_calls must be greater than zero."),
                                                  (2, -2, "num_parallel_calls must be greater than zero.")])
def test_map_and_batch_refuses_bad_sizes(size, calls, message):
    s, c = tf.placeholder(tf.int64, []), tf.placeholder(tf.int64, [])
    ds = tf.data.Dataset.range(3).apply(tf.data.experimental.map_and_batch(lambda x: x, s, num_parallel_calls=c))
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _initializer_error(ds, {s: size, c: calls})
    with pytest.raises(ValueError, match="allows only one of `num_parallel_batches` and `num_parallel_calls`"):
        tf.data.experimental.map_and_batch(lambda x: x, 2, num_parallel_batches=1, num_parallel_calls=2)


def _regrouped(tf):
    offset = tf.constant(100, tf.int64, name="offset")
    sharded = tf.data.Dataset.range(10).shard(3, 2).batch(2).unbatch()
    fused = tf.data.Dataset.range(6).apply(tf.data.experimental.shuffle_and_repeat(4, 2, seed=1)).apply(
        tf.data.experimental.map_and_batch(lambda x: x + offset, 5))
    interleaved = tf.data.Dataset.range(1, 5).apply(tf.data.experimental.parallel_interleave(
        lambda x: tf.data.Dataset.range(x).map(lambda y: y + offset * x), cycle_length=2, block_length=2))
    return [tf.data.make_one_shot_iterator(ds).get_next() for ds in (sharded, fused, interleaved)]


def test_regrouping_ops_go_into_a_graph_def_and_read_back_the_same():
    want, got, graph_def = _through_a_graph_def(lambda: _regrouped(tf))
    nodes = {n.name: n for n in graph_def.node}
    assert nodes["MapAndBatchDataset"].attr["f"].func.name.startswith("__inference_tf_data_experimental_map_and_batch")
    assert list(nodes["MapAndBatchDataset"].input) == ["ShuffleAndRepeatDataset", "offset", "batch_size_1",
                                                       "num_parallel_calls", "drop_remainder_1"]
    assert nodes["LegacyParallelInterleaveDatasetV2"].attr["deterministic"].s == b"true"
    assert got == want and [len(w) for w in want] == [3, 3, 10]


@pytest.mark.parametrize("kwargs, message", [
    ({"field_delim": ";;"}, "field_delim should be only 1 char"),
    ({"select_cols": [1, 0]}, "select_cols should be strictly increasing indices"),
    ({"select_cols": [0]}, "select_cols should match output size"),
    ({"select_cols": [-1, 0]}, "select_cols should be non-negative indices"),
    ({"compression_type": "LZ4"}, "Unsupported compression_type: LZ4."),
])
def test_csv_dataset_refuses_bad_arguments_when_made(tmp_path, kwargs, message):
    path = tmp_path / "a.csv"
    path.write_text("1,2\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _initializer_error(tf.data.experimental.CsvDataset(str(path), [tf.int32, tf.int32], **kwargs), None)


def test_make_csv_dataset_checks_its_files_and_columns(tmp_path):
    (tmp_path / "a.csv").write_text("x,y\n1,2\n")
    (tmp_path / "b.csv").write_text("x,z\n1,2\n")
    make = tf.data.experimental.make_csv_dataset
    with pytest.raises(ValueError, match="No files match `file_pattern`"):
        make(str(tmp_path / "*.none"), 2)
    with pytest.raises(ValueError, match="All input CSV files should have the same column names in the header row"):
        make(str(tmp_path / "*.csv"), 2)
    with pytest.raises(ValueError, match="Expected `column_names` or `header` arguments. Neither is provided."):
        make(str(tmp_path / "a.csv"), 2, header=False)
    with pytest.raises(ValueError, match="`label_name` provided must be one of the columns"):
        make(str(tmp_path / "a.csv"), 2, label_name="w")
    with pytest.raises(ValueError, match="contains duplicate column names: {'x'}"):
        make(str(tmp_path / "a.csv"), 2, column_names=["x", "x"])
    with pytest.raises(ValueError, match="Column w specified in `select_columns` must be of one of the columns"):
        make(str(tmp_path / "a.csv"), 2, select_columns=["w"])


def test_csv_and_ignore_errors_go_into_a_graph_def_and_read_back_the_same(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text('n,s\n1,"a,b"\nx,c\n3,\n')

    def build():
        ds = tf.data.experimental.CsvDataset(str(path), [tf.int64, tf.constant(["?"])], header=True).ignore_errors()
        return [tf.data.make_one_shot_iterator(ds).get_next()]

    want, got, graph_def = _through_a_graph_def(build)
    assert [n.op for n in graph_def.node if "Dataset" in n.op] == ["CSVDatasetV2", "IgnoreErrorsDataset"]
    assert got == want == [[[["int64", 1], ["string", ["a,b"], []]], [["int64", 3], ["string", ["?"], []]]]]


@pytest.mark.parametrize("position, message", [(0, "Window size must be greater than zero."),
                                               (1, "Window shift must be greater than zero."),
                                               (2, "Window stride must be greater than zero.")])
def test_window_refuses_sizes_not_above_zero(position, message):
    zero = tf.placeholder(tf.int64, [])
    args = [1, 1, 1]
    args[position] = zero
    ds = tf.data.Dataset.range(3).window(*args).flat_map(lambda w: w)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _initializer_error(ds, {zero: 0})


def test_reduce_keeps_the_states_structure_and_dtypes():
    ds = tf.data.Dataset.range(3)
    with pytest.raises(TypeError, match="The element types for the new state must match the initial state. "
                                        "Expected <dtype: 'int64'> but got <dtype: 'float32'>."):
        ds.reduce(np.int64(0), lambda s, x: tf.cast(s + x, tf.float32))
    with pytest.raises(TypeError, match="must match the initial state"):
        ds.reduce((np.int64(0), np.int64(0)), lambda s, x: s[0] + x)


def test_windows_reductions_and_single_elements_go_into_a_graph_def_and_read_back_the_same():
    with tf.Graph().as_default():
        offset = tf.constant(100, tf.int64, name="offset")
        windows = tf.data.Dataset.range(11).window(3, 2, 2).flat_map(lambda w: w.batch(3).map(lambda b: b + offset))
        sums = tf.data.Dataset.range(7).window(3, 2).flat_map(
            lambda w: tf.data.Dataset.from_tensors(w.reduce(np.int64(0), lambda s, x: s * 10 + x)))
        state = tf.data.Dataset.range(1, 4).reduce((np.int64(0), tf.zeros([0], tf.int64)),
                                                   lambda s, x: (s[0] + x + offset, tf.concat([s[1], [x]], 0)))
        single = tf.data.Dataset.range(3, 4).get_single_element()
        elements = [tf.data.make_one_shot_iterator(d).get_next() for d in (windows, sums)]
        fetches = [*elements, *state, single]
        with tf.Session() as sess:
            want = [encode(sess.run(fetches)) for _ in range(3)]
        graph_def = tf.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            got = [encode(sess.run([t.name for t in fetches])) for _ in range(3)]
    assert got == want
    assert want[2] == [["int64", [104, 106, 108]], ["int64", 456], ["int64", 306], ["int64", [1, 2, 3]], ["int64", 3]]


def test_sample_and_choose_check_their_datasets_and_weights():
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(3)
    with pytest.raises(ValueError, match="Invalid `datasets`. `datasets` should not be empty."):
        tf.data.experimental.sample_from_datasets([])
    with pytest.raises(ValueError, match=r"`weights` should have the same length as `datasets` but got "
                                         r"`len\(weights\)=1` vs. `len\(datasets\)=2`."):
        tf.data.experimental.sample_from_datasets([a, b], weights=[1.0])
    with pytest.raises(TypeError, match="`weights` type must be either `tf.float32` or `tf.float64`"):
        tf.data.experimental.sample_from_datasets([a, b], weights=tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Elements of `choice_dataset` must be scalar `tf.int64` tensors"):
        tf.data.experimental.choose_from_datasets([a, b], tf.data.Dataset.range(2).map(tf.to_int32))
    with pytest.raises(TypeError, match="`datasets` must have compatible element specs"):
        tf.data.experimental.choose_from_datasets([a, tf.data.Dataset.from_tensors(1.0)], tf.data.Dataset.range(2))


def test_sampled_datasets_go_into_a_graph_def_and_read_back_the_same():
    def build():
        a, b = tf.data.Dataset.range(0, 5), tf.data.Dataset.range(100, 103)
        sampled = tf.data.experimental.sample_from_datasets([a, b], weights=[0.4, 0.6], seed=7)
        chosen = tf.data.Dataset.choose_from_datasets([a, b], tf.data.Dataset.range(4).map(lambda x: x % 2))
        return [tf.data.make_one_shot_iterator(d).get_next() for d in (sampled, chosen)]

    want, got, graph_def = _through_a_graph_def(build)
    functions = {f.signature.name: f for f in graph_def.library.function}
    assert any("StatelessMultinomial" in [n.op for n in f.node_def] for f in functions.values())
    assert got == want and [len(w) for w in want] == [8, 4]


def test_group_by_window_checks_its_functions():
    a = tf.data.Dataset.range(5)
    with pytest.raises(ValueError, match="Either the `window_size` argument or the `window_size_func` argument"):
        a.group_by_window(lambda x: x, lambda k, w: w)
    with pytest.raises(ValueError, match="Either the `window_size` argument or the `window_size_func` argument"):
        a.group_by_window(lambda x: x, lambda k, w: w, 2, lambda k: k)
    with pytest.raises(ValueError, match=r"Invalid `key_func`. `key_func` must return a single `tf.int64` scalar "
                                         r"tensor but its return type is TensorSpec\(shape=\(2,\)"):
        a.group_by_window(lambda x: tf.stack([x, x]), lambda k, w: w, 2)
    with pytest.raises(TypeError, match="Invalid `reduce_func`. `reduce_func` must return a single `tf.data.Dataset` "
                                        "object but its return type is TensorSpec"):
        a.group_by_window(lambda x: x, lambda k, w: k, 2)
    with pytest.raises(ValueError, match=r"`len\(bucket_batch_sizes\)` must equal `len\(bucket_boundaries\) \+ 1`"):
        a.bucket_by_sequence_length(lambda x: x, [3], [1, 2, 3])
    size = tf.placeholder(tf.int64, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater than zero, but got 0."):
        _initializer_error(a.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=size), {size: 0})


def test_grouped_datasets_go_into_a_graph_def_and_read_back_the_same():
    def build():
        scale = tf.constant(100, tf.int64, name="scale")
        grouped = tf.data.Dataset.range(13).group_by_window(
            lambda x: x % 4 + scale * 0, lambda k, w: w.map(lambda x: x + scale * k).batch(5),
            window_size_func=lambda k: k % 3 + 2 + scale * 0)
        buckets = tf.data.Dataset.range(1, 9).map(lambda x: tf.fill([x % 5 + 1], x)).bucket_by_sequence_length(
            tf.size, [3, 6], [2, 3, 1], pad_to_bucket_boundary=True)
        return [tf.data.make_one_shot_iterator(d).get_next() for d in (grouped, buckets)]

    want, got, graph_def = _through_a_graph_def(build)
    node = next(n for n in graph_def.node if n.name == "GroupByWindowDataset")
    assert list(node.input) == ["RangeDataset", "scale", "scale", "scale"]
    assert [len(node.attr[f"T{f}_other_arguments"].list.type) for f in ("key_func", "reduce_func",
                                                                        "window_size_func")] == [1, 1, 1]
    assert got == want and [len(w) for w in want] == [6, 4]


def test_scan_take_while_and_unique_check_their_functions_and_types():
    a = tf.data.Dataset.range(3)
    with pytest.raises(TypeError, match="Invalid `scan_func`. `scan_func` should return a pair"):
        a.scan(np.int64(0), lambda s, x: s + x)
    with pytest.raises(TypeError, match="Invalid `scan_func`. The element types for the new state must match the "
                                        "initial state. Expected <dtype: 'int64'>, got <dtype: 'float32'>."):
        a.scan(np.int64(0), lambda s, x: (tf.cast(s, tf.float32), x))
    with pytest.raises(ValueError, match="Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor"):
        a.take_while(lambda x: x)
    with pytest.raises(TypeError, match="`tf.data.Dataset.unique` does not support type <dtype: 'float32'>"):
        tf.data.Dataset.from_tensors(1.0).unique()
    with pytest.raises(RuntimeError, match=r"`tf.data.Dataset.as_numpy_iterator\(\)` is only supported in eager mode."):
        a.as_numpy_iterator()


def test_options_merge_along_the_pipeline_and_refuse_unknown_fields():
    first, second = tf.data.Options(), tf.data.Options()
    first.experimental_deterministic = False
    first.threading.private_threadpool_size = 4
    second.threading.private_threadpool_size = 2
    second.experimental_optimization.map_parallelization = True
    ds = tf.data.Dataset.range(3).with_options(first).map(lambda x: x + 1).with_options(second)
    merged = ds.options()
    assert (merged.deterministic, merged.threading.private_threadpool_size,
            merged.experimental_optimization.map_parallelization) == (False, 2, True)
    assert tf.data.Dataset.range(3).options() == tf.data.Options()
    with pytest.raises(AttributeError, match="Cannot set the property threads on Options."):
        first.threads = 2
    with tf.Session() as sess:
        assert _drain(sess, tf.data.make_one_shot_iterator(ds).get_next()) == [["int64", v] for v in (1, 2, 3)]
    prefetched = tf.data.Dataset.range(3).apply(tf.data.experimental.prefetch_to_device("/cpu:0", 2))
    with tf.Session() as sess:
        assert _drain(sess, tf.data.make_one_shot_iterator(prefetched).get_next()) == [["int64", v] for v in range(3)]


def test_scans_and_options_go_into_a_graph_def_and_read_back_the_same():
    with tf.Graph().as_default():
        offset = tf.constant(3, tf.int64, name="offset")
        ds = (tf.data.Dataset.from_tensor_slices(np.array([4, 1, 4, 2, 7, 1], np.int64)).unique()
              .with_options(tf.data.Options())
              .scan((np.int64(0), tf.zeros([0], tf.int64)),
                    lambda s, x: ((s[0] + x + offset, tf.concat([s[1], [x]], 0)), s[0]))
              .take_while(lambda x: x < 30 + offset))
        element = tf.data.make_one_shot_iterator(ds).get_next()
        count = tf.data.Dataset.range(7).batch(2).cardinality()
        with tf.Session() as sess:
            want = [_drain(sess, element), encode(sess.run(count))]
        graph_def = tf.get_default_graph().as_graph_def()
    scan = next(n for n in graph_def.node if n.op == "ScanDataset")
    assert [len(scan.attr[k].list.type) for k in ("Tstate", "Targuments")] == [2, 1]
    with tf.Graph().as_default():
        tf.import_graph_def(graph_def, name="")
        with tf.Session() as sess:
            got = [_drain(sess, element.name), encode(sess.run(count.name))]
    assert got == want == [[["int64", 0], ["int64", 7], ["int64", 11], ["int64", 16]], ["int64", 4]]
