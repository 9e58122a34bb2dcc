"""The pipelines behind ``data/tf_data_transformations_golden.json``: the transformations of
``transformations.py`` and ``tf.data.experimental``, each case run by both engines as in
``pipeline_cases.py`` (TensorFlow's compat.v1 writes the golden file, numflow is tested against it).
"""

import os
import tempfile

import numpy as np
from pipeline_cases import _run_one_shot


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


CASES = {f.__name__: f for f in (
    shard_unbatch, unbatch_of_a_structure, shuffle_and_repeat, map_and_batch, parallel_interleave, list_files,
)}
