"""tf.data beyond the golden pipelines: iterator state per session and across runs, the end of the
input in the loops TF1 programs write, files, functions kept out of the graph, and bad input with
TensorFlow's error classes and messages."""

import numpy as np
import pytest

import numflow as tf


def _drain(sess, element):
    out = []
    try:
        while True:
            out.append(sess.run(element))
    except tf.errors.OutOfRangeError:
        return out


def test_classic_loop_ends_at_out_of_range_and_stays_there():
    element = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert _drain(sess, element) == [0, 1, 2]
        with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence") as info:
            sess.run(element)
        assert info.value.op.name == "IteratorGetNext"


def test_each_session_has_its_own_iterator_and_each_run_moves_it_on():
    element = tf.data.Dataset.range(4).make_one_shot_iterator().get_next()
    with tf.Session() as first, tf.Session() as second:
        assert [first.run(element), first.run(element)] == [0, 1]
        assert second.run(element) == 0
        assert first.run(element) == 2


def test_one_fetch_of_an_element_and_of_a_function_of_it_takes_one_element():
    element = tf.data.Dataset.range(1, 4).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert sess.run([element, element * 10]) == [1, 10]
        assert sess.run(element) == 2


def test_dataset_functions_stay_out_of_the_users_graph():
    graph = tf.get_default_graph()
    scale = tf.constant(3.0, name="scale")
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(lambda x: x * scale).filter(lambda x: x > 4.0)
    y = scale * 2.0
    assert y.op.name == "mul"
    assert [op.type for op in graph.get_operations() if op.type in ("Mul", "Greater")] == ["Mul"]
    with tf.Session() as sess:
        assert _drain(sess, tf.data.make_one_shot_iterator(ds).get_next()) == [6.0]


def test_a_captured_variable_is_read_when_the_iterator_is_initialized():
    v = tf.Variable(2.0)
    iterator = tf.data.Dataset.range(2).map(lambda x: tf.cast(x, tf.float32) * v).make_initializable_iterator()
    element = iterator.get_next()
    with tf.Session() as sess:
        sess.run([v.initializer])
        sess.run(iterator.initializer)
        sess.run(v.assign(5.0))
        assert _drain(sess, element) == [0.0, 2.0]
        sess.run(iterator.initializer)
        assert _drain(sess, element) == [0.0, 5.0]


def test_same_seeds_same_order_in_every_session_and_unseeded_shuffles_still_permute():
    seeded = tf.data.Dataset.range(50).shuffle(10, seed=4).batch(50).make_one_shot_iterator().get_next()
    free = tf.data.Dataset.range(50).shuffle(50).batch(50).make_one_shot_iterator().get_next()
    orders = []
    for _ in range(2):
        with tf.Session() as sess:
            orders.append(sess.run(seeded).tolist())
            assert sorted(sess.run(free).tolist()) == list(range(50))
    assert orders[0] == orders[1] and sorted(orders[0]) == list(range(50)) and orders[0] != list(range(50))


def test_uninitialized_iterator_fails_with_tensorflows_precondition_error():
    iterator = tf.data.Dataset.range(2).make_initializable_iterator()
    with tf.Session() as sess, pytest.raises(tf.errors.FailedPreconditionError,
                                             match="GetNext\\(\\) failed because the iterator has not been"):
        sess.run(iterator.get_next())


def test_one_shot_iterator_refuses_a_placeholder():
    x = tf.placeholder(tf.float32, [None], name="xs")
    with pytest.raises(ValueError, match=r"Cannot capture a placeholder \(name:xs, type:Placeholder\) by value"):
        tf.data.Dataset.from_tensor_slices(x).make_one_shot_iterator()
    with pytest.raises(ValueError, match="does not have an initializer"):
        _ = tf.data.Dataset.range(2).make_one_shot_iterator().initializer


def test_reinitializable_iterator_checks_types_and_shapes():
    iterator = tf.data.Iterator.from_structure(tf.int64, tf.TensorShape([]))
    with pytest.raises(TypeError, match="Expected output types"):
        iterator.make_initializer(tf.data.Dataset.from_tensors(1.0))
    with pytest.raises(TypeError, match="Expected output shapes compatible"):
        iterator.make_initializer(tf.data.Dataset.from_tensors(np.arange(3)))


def test_static_checks_of_the_sources_and_transformations():
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.data.Dataset.from_tensor_slices((np.zeros(3), np.zeros(2)))
    with pytest.raises(ValueError, match="rank >= 1"):
        tf.data.Dataset.from_tensor_slices(1.0)
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
        tf.data.Dataset.range(3).filter(lambda x: x)
    with pytest.raises(TypeError, match="must return a `Dataset`"):
        tf.data.Dataset.range(3).flat_map(lambda x: x)
    with pytest.raises(TypeError, match="Incompatible types of input datasets"):
        tf.data.Dataset.range(3).concatenate(tf.data.Dataset.from_tensors(1.0))


def test_batching_elements_of_different_shapes_names_the_component():
    ds = tf.data.Dataset.range(1, 3).map(lambda x: tf.fill([x], x)).batch(2)
    element = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match=r"Cannot batch tensors with different shapes in component 0"):
        sess.run(element)


def test_generator_elements_are_converted_and_checked():
    ds = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [3, 4, 5]]), tf.float32, tf.TensorShape([2]))
    element = tf.data.make_one_shot_iterator(ds).get_next()
    assert element.shape.as_list() == [2]
    with tf.Session() as sess:
        assert sess.run(element).dtype == np.float32
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"yielded an element of shape \(3,\) where an "
                                                                    r"element of shape \(2,\) was expected"):
            sess.run(element)


def test_fetched_slices_are_the_callers_to_change():
    data = np.arange(6.0).reshape(3, 2)
    element = tf.data.Dataset.from_tensor_slices(data).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        first = sess.run(element)
        first[:] = -1.0
        assert sess.run(element).tolist() == [2.0, 3.0]
    assert data[0].tolist() == [0.0, 1.0]


def test_tfrecord_and_text_line_datasets_read_files_in_order(tmp_path):
    paths = []
    for k in range(2):
        path = str(tmp_path / f"part{k}.tfrecord")
        with tf.python_io.TFRecordWriter(path) as writer:
            for i in range(3):
                writer.write(f"record {k}-{i}".encode())
        paths.append(path)
    text = tmp_path / "lines.txt"
    text.write_bytes(b"first\nsecond\r\nthird")
    records = tf.data.TFRecordDataset(paths).make_one_shot_iterator().get_next()
    lines = tf.data.TextLineDataset(str(text)).make_one_shot_iterator().get_next()
    missing = tf.data.TextLineDataset(str(tmp_path / "none.txt")).make_one_shot_iterator().get_next()
    assert records.dtype == tf.string and records.shape.as_list() == []
    with tf.Session() as sess:
        assert _drain(sess, records) == [f"record {k}-{i}".encode() for k in range(2) for i in range(3)]
        assert _drain(sess, lines) == [b"first", b"second", b"third"]
        with pytest.raises(tf.errors.NotFoundError, match="none.txt"):
            sess.run(missing)


def test_monitored_training_session_stops_cleanly_at_the_end_of_the_input():
    x = tf.data.Dataset.from_tensor_slices(np.ones((5, 2), np.float32)).batch(2).make_one_shot_iterator().get_next()
    w = tf.Variable(np.zeros((2, 1), np.float32))
    step = tf.train.get_or_create_global_step()
    loss = tf.reduce_sum(tf.matmul(x, w))
    train = tf.group(tf.train.GradientDescentOptimizer(0.1).minimize(loss), tf.assign_add(step, 1))
    steps = 0
    with tf.train.MonitoredTrainingSession() as sess:
        while not sess.should_stop():
            sess.run(train)
            steps += 1
    assert steps == 3


def test_graph_with_datasets_saves_a_meta_graph_naming_the_functions(tmp_path):
    ds = tf.data.Dataset.range(4).map(lambda x: x + 1).filter(lambda x: x > 1)
    element = tf.data.make_one_shot_iterator(ds).get_next()
    v = tf.Variable(1.0)
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(element) == 2
        tf.train.Saver().save(sess, str(tmp_path / "model"))
    nodes = {n.name: n for n in tf.get_default_graph().as_graph_def().node}
    assert nodes["MapDataset"].attr["f"].func.name == "__inference_Dataset_map_lambda"
    assert nodes["FilterDataset"].attr["predicate"].func.name == "__inference_Dataset_filter_lambda"
    assert nodes["OneShotIterator"].attr["dataset_factory"].func.name == "_make_dataset_OneShotIterator"
    assert [t for t in nodes["MapDataset"].attr["output_types"].list.type] == [tf.int64.as_datatype_enum]
    assert "functions" not in nodes["MapDataset"].attr and "dataset" not in nodes["OneShotIterator"].attr


@pytest.mark.parametrize("make", [
    lambda ds: ds.shuffle(5, seed=1).repeat(3),
    lambda ds: ds.repeat(2).shuffle(40, seed=2),
    lambda ds: ds.shuffle(3, seed=3, reshuffle_each_iteration=False).repeat(2).shuffle(4, seed=4),
    lambda ds: ds.repeat(0),
])
@pytest.mark.parametrize("drop_remainder", [False, True])
def test_batches_gathered_from_the_arrays_are_the_batches_of_the_elements(make, drop_remainder):
    x = np.arange(26, dtype=np.float32).reshape(13, 2)
    slices = tf.data.Dataset.from_tensor_slices((x, np.arange(13)))
    gathered = make(slices).batch(4, drop_remainder)
    one_by_one = make(slices.map(lambda a, b: (a, b))).batch(4, drop_remainder)
    with tf.Session() as sess:
        got = _drain(sess, tf.data.make_one_shot_iterator(gathered).get_next())
        want = _drain(sess, tf.data.make_one_shot_iterator(one_by_one).get_next())
    assert [[a.tolist() for a in batch] for batch in got] == [[a.tolist() for a in batch] for batch in want]
    assert all(batch[0].flags.writeable for batch in got)
