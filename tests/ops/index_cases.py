"""The graphs behind ``data/tf_index_golden.npz``, written once for both engines: tf.unravel_index,
tf.bitcast, tf.histogram_fixed_width_bins and the legacy string hash buckets (tf.string_to_hash_bucket),
each case returning the tensors to fetch."""

import numpy as np

VALUES = np.array([[-1.0, 0.0, 1.5], [2.0, 4.99, 5.0], [7.5, 10.0, 12.0]], np.float32)


def _unravel(tf):
    fed = tf.placeholder_with_default(np.array([0, 11, 4], np.int32), [None])
    return [tf.unravel_index([1, 5, 7], [3, 4]),
            tf.unravel_index(tf.constant(5, tf.int64), tf.constant([3, 4], tf.int64)),
            tf.unravel_index(fed, [3, 4], name="fed"), tf.unravel_index([0, 23], [2, 3, 4])]


def _bitcast(tf):
    return [tf.bitcast(tf.constant([1.0, -2.0]), tf.int32), tf.bitcast(tf.constant([1, 2, 3, 4], tf.uint8), tf.int32),
            tf.bitcast(tf.constant([1.0, 0.5]), tf.uint8),
            tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.int16), tf.int32),
            tf.bitcast(tf.constant([-1, 7], tf.int64), tf.float64, name="wide"),
            tf.bitcast(tf.constant([1.5, 2.0], tf.float16), tf.uint16)]


def _histogram_bins(tf):
    return [tf.histogram_fixed_width_bins(VALUES, [0.0, 10.0], nbins=5),
            tf.histogram_fixed_width_bins(tf.constant([1.0, 5.0, 9.0, -3.0]), [0.0, 10.0], nbins=4, name="four"),
            tf.histogram_fixed_width_bins(VALUES.ravel().astype(np.float64), tf.constant([-1.0, 12.0], tf.float64))]


def _hash_buckets(tf):
    words = ["a", "hello world", "", "0123456789abcdefg", "\u00e9t\u00e9", "12345678"]
    return [tf.strings.to_hash_bucket(words, 1000), tf.string_to_hash_bucket(tf.constant([["x", "y"]]), 7, name="hh"),
            tf.string_to_hash_bucket(words, 2**62)]


CASES = {"unravel": _unravel, "bitcast": _bitcast, "histogram_bins": _histogram_bins, "hash_buckets": _hash_buckets}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
