"""The tf.data pipelines behind ``data/tf_data_golden.json``, written once for both engines: each case
takes the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests)
and returns what it read: every element until the end of the sequence, the end's message, and the
graph's op names and the static shapes and dtypes of the elements.
"""

import collections

import numpy as np

Point = collections.namedtuple("Point", ["x", "y"])


def encode(value):
    """``value`` (a fetched structure) as JSON: arrays as ``[dtype, nested list]``."""
    if isinstance(value, dict):
        return {k: encode(v) for k, v in sorted(value.items())}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    array = np.array(value, dtype=object) if isinstance(value, bytes) else np.asarray(value)
    if array.dtype == object:
        return ["string", [b.decode("latin-1") for b in array.ravel().tolist()], list(array.shape)]
    return [array.dtype.name, array.tolist()]


def _drain(tf, sess, element, limit=100, feed=None):
    out = []
    try:
        for _ in range(limit):
            out.append(encode(sess.run(element, feed)))
    except tf.errors.OutOfRangeError as e:
        return [out, [line for line in e.message.splitlines() if line.strip() and "[[" not in line][-1]]
    return [out, None]


def _describe(tf, dataset_or_iterator, element):
    return {
        "types": _text(tf.data.get_output_types(dataset_or_iterator)),
        "shapes": _text(tf.data.get_output_shapes(dataset_or_iterator)),
    }


def _text(structure):
    if isinstance(structure, dict):
        return {k: _text(v) for k, v in sorted(structure.items())}
    if isinstance(structure, tuple | list):
        return [_text(v) for v in structure]
    return str(structure.name) if hasattr(structure, "name") else str(structure)


def _run_one_shot(tf, dataset, runs=1):
    element = tf.data.make_one_shot_iterator(dataset).get_next()
    result = {"element": _text(element), **_describe(tf, dataset, element)}
    with tf.Session() as sess:
        for r in range(runs):
            result[f"run{r}"] = _drain(tf, sess, element)
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


def slices_map_shuffle_batch_repeat(tf):
    x = np.arange(10, dtype=np.float32)
    ds = (tf.data.Dataset.from_tensor_slices((x, x * 2)).map(lambda a, b: (a + 1, b)).shuffle(4, seed=3)
          .batch(3).repeat(2).prefetch(1))
    return _run_one_shot(tf, ds)


def slices_shuffled_repeated_batched(tf):
    # Slices, shuffles and repeats only: batches gathered from the arrays at once, across epochs.
    x = np.arange(22, dtype=np.float32).reshape(11, 2)
    a = tf.data.Dataset.from_tensor_slices((x, np.arange(11))).shuffle(7, seed=5).repeat(3).batch(4)
    b = tf.data.Dataset.from_tensor_slices(x).repeat(2).shuffle(5, seed=6).batch(3, drop_remainder=True)
    c = tf.data.Dataset.from_tensor_slices(x).shuffle(20, seed=7, reshuffle_each_iteration=False).repeat(2).batch(6)
    return _run_one_shot(tf, tf.data.Dataset.zip((a, b, c)))


def shuffle_fixed_order_repeat(tf):
    ds = tf.data.Dataset.range(10).shuffle(4, seed=7, reshuffle_each_iteration=False).repeat(2)
    return _run_one_shot(tf, ds)


def shuffle_graph_seed(tf):
    tf.set_random_seed(3)
    first = tf.data.Dataset.range(20).shuffle(20)
    second = tf.data.Dataset.range(30).shuffle(5)
    return _run_one_shot(tf, tf.data.Dataset.zip((first, second)))


def shuffle_buffer_larger_than_data_and_repeat_first(tf):
    a = tf.data.Dataset.range(7).shuffle(100, seed=2)
    b = tf.data.Dataset.range(5).repeat(3).shuffle(7, seed=4)
    c = tf.data.Dataset.range(6).shuffle(3, seed=5).repeat()
    return _run_one_shot(tf, a.concatenate(b).concatenate(c.take(14)))


def dict_structures_drop_remainder(tf):
    ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(5, dtype=np.int32),
                                             "b": np.arange(10, dtype=np.float64).reshape(5, 2)})
    ds = ds.map(lambda d: {"sum": tf.cast(d["a"], tf.float64) + d["b"], "a": d["a"]})
    return _run_one_shot(tf, ds.batch(2, drop_remainder=True))


def namedtuple_and_nested(tf):
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    ds = tf.data.Dataset.from_tensor_slices((Point(x, x * 10), np.array([1, 2, 3])))
    return _run_one_shot(tf, ds.map(lambda p, k: (p.x * tf.cast(k, tf.float32), p.y)))


def zip_concatenate_take_skip_enumerate(tf):
    a = tf.data.Dataset.range(5)
    b = tf.data.Dataset.range(10, 20, 3)
    ds = tf.data.Dataset.zip((a, b)).concatenate(tf.data.Dataset.zip((b, a))).take(7).skip(1).enumerate(3)
    return _run_one_shot(tf, ds)


def filter_flat_map(tf):
    ds = tf.data.Dataset.range(6).filter(lambda x: x % 2 > 0)
    ds = ds.flat_map(lambda x: tf.data.Dataset.from_tensors(x * 10).repeat(x))
    return _run_one_shot(tf, ds)


def interleave_blocks(tf):
    ds = tf.data.Dataset.range(1, 6).interleave(lambda x: tf.data.Dataset.range(x * 10, x * 10 + x),
                                                cycle_length=3, block_length=2)
    return _run_one_shot(tf, ds)


def padded_batch(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda x: (tf.fill([x], x), tf.cast(x, tf.float32)))
    return _run_one_shot(tf, ds.padded_batch(2, padded_shapes=([None], []), padding_values=(tf.constant(-1, tf.int64),
                                                                                              0.5)))


def padded_batch_fixed_shape(tf):
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x, 2], tf.cast(x, tf.int32)))
    return _run_one_shot(tf, ds.padded_batch(2, padded_shapes=[4, None]))


def generator(tf):
    def gen():
        for i in range(4):
            yield i, [float(i)] * i

    ds = tf.data.Dataset.from_generator(gen, (tf.int64, tf.float32), (tf.TensorShape([]), tf.TensorShape([None])))
    return _run_one_shot(tf, ds.map(lambda i, v: (i * 2, tf.reduce_sum(v))))


def map_random(tf):
    # With num_parallel_calls, TensorFlow hands the random draws to the elements in the order its threads
    # happen to take them: only a sequential map has an order to compare.
    ds = tf.data.Dataset.range(5).map(lambda x: tf.random_uniform([2], seed=5) + tf.cast(x, tf.float32))
    iterator = ds.make_initializable_iterator()
    element = iterator.get_next()
    result = {"element": _text(element), **_describe(tf, ds, element)}
    with tf.Session() as sess:
        for r in range(2):
            sess.run(iterator.initializer)
            result[f"run{r}"] = _drain(tf, sess, element)
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


def cache_then_shuffle(tf):
    ds = tf.data.Dataset.range(6).map(lambda x: x * x).cache().shuffle(6, seed=9).repeat(3)
    return _run_one_shot(tf, ds)


def captured_tensor(tf):
    scale = tf.constant([2.0, 3.0], name="scale")
    ds = tf.data.Dataset.from_tensor_slices(np.ones((3, 2), np.float32)).map(lambda x: x * scale + 1.0,
                                                                             num_parallel_calls=2)
    return _run_one_shot(tf, ds)


def initializable_with_feeds(tf):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    n = tf.placeholder(tf.int64, [], name="n")
    ds = tf.data.Dataset.from_tensor_slices(x).repeat(n).batch(3)
    iterator = tf.data.make_initializable_iterator(ds)
    element = iterator.get_next()
    result = {"element": _text(element), **_describe(tf, iterator, element)}
    with tf.Session() as sess:
        sess.run(iterator.initializer, {x: np.arange(8, dtype=np.float32).reshape(4, 2), n: 2})
        result["run0"] = _drain(tf, sess, element)
        sess.run(iterator.initializer, {x: -np.ones((2, 2), np.float32), n: 1})
        result["run1"] = _drain(tf, sess, element)
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


def reinitializable_and_feedable(tf):
    iterator = tf.data.Iterator.from_structure(tf.int64, tf.TensorShape([]))
    element = iterator.get_next()
    train = tf.data.Dataset.range(3)
    valid = tf.data.Dataset.range(10, 12)
    to_train, to_valid = iterator.make_initializer(train), iterator.make_initializer(valid)
    handle = tf.placeholder(tf.string, [], name="handle")
    feedable = tf.data.Iterator.from_string_handle(handle, train.output_types, train.output_shapes)
    fed = feedable.get_next()
    one = tf.data.make_one_shot_iterator(tf.data.Dataset.range(100, 104))
    two = tf.data.make_one_shot_iterator(tf.data.Dataset.range(200, 204))
    result = {"element": _text(element), **_describe(tf, iterator, element)}
    with tf.Session() as sess:
        sess.run(to_train)
        result["run0"] = _drain(tf, sess, element)
        sess.run(to_valid)
        first = sess.run(element)
        sess.run(to_train)
        result["run1"] = [encode(first), _drain(tf, sess, element)]
        h1, h2 = sess.run([one.string_handle(), two.string_handle()])
        result["run2"] = [encode(sess.run(fed, {handle: h})) for h in (h1, h2, h1, h1, h2)]
    result["ops"] = [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
    return result


CASES = {f.__name__: f for f in (
    slices_map_shuffle_batch_repeat, slices_shuffled_repeated_batched, shuffle_fixed_order_repeat, shuffle_graph_seed,
    shuffle_buffer_larger_than_data_and_repeat_first, dict_structures_drop_remainder, namedtuple_and_nested,
    zip_concatenate_take_skip_enumerate, filter_flat_map, interleave_blocks, padded_batch, padded_batch_fixed_shape,
    generator, map_random, cache_then_shuffle, captured_tensor, initializable_with_feeds, reinitializable_and_feedable,
)}


def train_softmax_regression(tf):
    """A TF1 training loop reading a shuffled, batched tf.data pipeline until OutOfRangeError; the
    losses and final weights (compared to float rounding)."""
    rng = np.random.RandomState(3)
    data = rng.standard_normal((50, 6)).astype(np.float32)
    labels = rng.randint(0, 3, 50).astype(np.int64)
    ds = tf.data.Dataset.from_tensor_slices((data, labels)).shuffle(20, seed=3).repeat(3).batch(8)
    x, y = ds.make_one_shot_iterator().get_next()
    w = tf.Variable(np.zeros((6, 3), np.float32), name="w")
    b = tf.Variable(np.zeros(3, np.float32), name="b")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(x, w) + b))
    train = tf.train.GradientDescentOptimizer(0.3).minimize(loss)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        try:
            while True:
                losses.append(float(sess.run([train, loss])[1]))
        except tf.errors.OutOfRangeError:
            pass
        return {"losses": losses, "w": sess.run(w).tolist(), "b": sess.run(b).tolist()}


TRAINING = {"train_softmax_regression": train_softmax_regression}
