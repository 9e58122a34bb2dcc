"""The streams behind ``data/tf_auc_golden.npz``, written once for both engines: each case builds ``tf.metrics.auc``
from the ``tf`` module and feeds it ``BATCHES``; the golden file holds the update's result after each batch, the
value read after all of them, and the names of the value, the update and the local variables."""

import numpy as np

_RNG = np.random.RandomState(11)
BATCHES = [(_RNG.rand(6) > 0.5, _RNG.rand(6).astype(np.float32), _RNG.uniform(0.5, 2, 6).astype(np.float32))
           for _ in range(3)]
CASES = {
    "roc": {},
    "roc_weighted": {"weighted": True},
    "roc_thresholds_5": {"num_thresholds": 5},
    "roc_given_thresholds": {"thresholds": [0.7, 0.2, 0.5], "name": "given"},
    "pr_trapezoidal": {"curve": "PR"},
    "pr_careful": {"curve": "PR", "summation_method": "careful_interpolation", "weighted": True},
    "roc_minoring": {"summation_method": "minoring", "num_thresholds": 9},
    "pr_majoring": {"curve": "PR", "summation_method": "majoring"},
}


def run_case(tf, name):
    """The update's values after each batch, the final value, and the names, of case ``name``."""
    options = dict(CASES[name])
    weighted = options.pop("weighted", False)
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.bool, [None])
        predictions = tf.placeholder(tf.float32, [None])
        weights = tf.placeholder(tf.float32, [None]) if weighted else None
        value, update = tf.metrics.auc(labels, predictions, weights, **options)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            updates = []
            for y, p, w in BATCHES:
                feed = {labels: y, predictions: p, **({weights: w} if weighted else {})}
                updates.append(sess.run(update, feed))
            final = sess.run(value)
        names = [value.name, update.name] + [v.name for v in tf.local_variables()]
        return np.array(updates), np.array(final), names
