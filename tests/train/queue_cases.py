"""The queue pipelines behind ``data/tf_queue_golden.json``, written once for both engines: each case
takes the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests)
and returns what it read. Only pipelines whose order TensorFlow fixes are here: queues filled before
they are read, and FIFO pipelines with one enqueue thread.
"""

import numpy as np


def _value(v):
    if isinstance(v, list | tuple):
        return [_value(x) for x in v]
    a = np.asarray(v, dtype=object) if isinstance(v, bytes) else np.asarray(v)
    if a.dtype == object:
        return ["string", [x.decode() for x in a.ravel().tolist()]]
    return [a.dtype.name, a.tolist()]


def _until_out_of_range(tf, sess, fetch, limit=60):
    out = []
    try:
        for _ in range(limit):
            out.append(_value(sess.run(fetch)))
    except tf.errors.OutOfRangeError as e:
        out.append([line for line in e.message.splitlines() if line.strip() and "[[" not in line][-1])
    return out


def _read_with_runners(tf, fetch):
    """Everything ``fetch`` reads until OutOfRangeError, the queue runners started and then stopped."""
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        got = _until_out_of_range(tf, sess, fetch)
        coord.request_stop()
        coord.join(threads)
    return got


def random_shuffle_queue_filled_first(tf):
    q = tf.RandomShuffleQueue(20, 3, [tf.int32, tf.float32], shapes=[[], [2]], seed=11)
    fill = q.enqueue_many([np.arange(12, dtype=np.int32), np.arange(24, dtype=np.float32).reshape(12, 2)])
    one = q.dequeue()
    some = q.dequeue_many(4)
    rest = q.dequeue_up_to(10)
    with tf.Session() as sess:
        sess.run(fill)
        got = [_value(sess.run(one)), _value(sess.run(some))]
        sess.run(q.close())
        got.append(_value(sess.run(rest)))
        got.extend(_until_out_of_range(tf, sess, one))
    return got


def padding_fifo_queue(tf):
    q = tf.PaddingFIFOQueue(5, [tf.int32], shapes=[[None]])
    data = [[1], [2, 2, 2], [3, 3]]
    fills = [q.enqueue([np.array(d, np.int32)]) for d in data]
    batch = q.dequeue_many(3)
    with tf.Session() as sess:
        for fill in fills:
            sess.run(fill)
        return [_value(sess.run(batch))]


def slice_input_producer_batch(tf):
    x = np.arange(10, dtype=np.float32)
    y = np.arange(10, dtype=np.int64) * 3
    xs, ys = tf.train.slice_input_producer([x, y], num_epochs=2, shuffle=True, seed=5)
    return _read_with_runners(tf, tf.train.batch([xs, ys], 4, allow_smaller_final_batch=True))


def string_input_producer_epochs(tf):
    return _read_with_runners(tf, tf.train.string_input_producer(["a", "b", "c"], num_epochs=3, seed=2).dequeue())


def limit_epochs(tf):
    x = tf.train.limit_epochs(tf.constant([1, 2]), num_epochs=2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        return _until_out_of_range(tf, sess, x)


def maybe_batch_kept(tf):
    """maybe_batch of the elements a scalar keep_input keeps (a cond in the enqueue), and of the rows a
    vector keeps (enqueue_many), and maybe_batch_join with a constant keep_input."""
    x = tf.train.slice_input_producer([np.arange(10, dtype=np.int64)], num_epochs=1, shuffle=False)[0]
    evens = _read_with_runners(tf, tf.train.maybe_batch([x], tf.equal(x % 2, 0), 2, allow_smaller_final_batch=True))
    with tf.Graph().as_default():
        rows = tf.train.limit_epochs(tf.constant(np.arange(12, dtype=np.int64).reshape(6, 2)), num_epochs=1)
        keep = tf.constant([True, False, True, True, False, True])
        kept_rows = _read_with_runners(tf, tf.train.maybe_batch([rows], keep, 3, enqueue_many=True,
                                                                allow_smaller_final_batch=True))
    with tf.Graph().as_default():
        y = tf.train.slice_input_producer([np.arange(4.0, dtype=np.float32)], num_epochs=1, shuffle=False)[0]
        joined = _read_with_runners(tf, tf.train.maybe_batch_join([[y]], True, 3, allow_smaller_final_batch=True))
    return [evens, kept_rows, joined]


CASES = {f.__name__: f for f in (random_shuffle_queue_filled_first, padding_fifo_queue, slice_input_producer_batch,
                                  string_input_producer_epochs, limit_epochs, maybe_batch_kept)}


def names(tf):
    """The op names and types of a small batch and shuffle_batch pipeline."""
    x = tf.constant(np.arange(10, dtype=np.float32))
    xs = tf.train.slice_input_producer([x], shuffle=True, seed=5)
    tf.train.batch(xs, 4)
    tf.train.shuffle_batch([x[0]], 3, 20, 5, seed=2)
    tf.train.batch_join([[x[1], x[2]], [x[3], x[4]]], 2)
    tf.train.shuffle_batch_join([[x[5]], [x[6]]], 2, 10, 4, seed=3)
    tf.train.match_filenames_once("*.nothing")
    return [f"{op.name}:{op.type}" for op in tf.get_default_graph().get_operations()]
