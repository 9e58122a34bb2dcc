"""tf.metrics.auc against TensorFlow's streams (``data/tf_auc_golden.npz``, made by ``data/make_tf_auc_golden.py``
from ``auc_cases.py``), against an area computed by numpy, and its errors."""

import pathlib
import re

import numpy as np
import pytest
from auc_cases import BATCHES, CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_auc_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_streams_and_names(name):
    updates, value, names = run_case(tf, name)
    assert names == GOLDEN[f"{name}/names"].tolist()
    np.testing.assert_allclose(updates, GOLDEN[f"{name}/updates"], rtol=1e-5)
    np.testing.assert_allclose(value, GOLDEN[f"{name}/value"], rtol=1e-5)


def test_roc_area_by_numpy():
    """With a threshold between every two scores, the trapezoidal ROC area is the rank statistic."""
    labels = np.concatenate([b[0] for b in BATCHES])
    scores = np.concatenate([b[1] for b in BATCHES])
    pos, neg = scores[labels], scores[~labels]
    want = np.mean([(p > n) + 0.5 * (p == n) for p in pos for n in neg])
    with tf.Graph().as_default():
        area, update = tf.metrics.auc(labels, scores, num_thresholds=20001)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run(update)
            got = sess.run(area)
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^Curve must be either ROC or PR. Curve XY is unknown.$"):
            tf.metrics.auc([True], [0.5], curve="XY")
        with pytest.raises(ValueError, match="^Invalid summation_method: mid summation_method should be"):
            tf.metrics.auc([True], [0.5], summation_method="mid")
        predictions = tf.placeholder(tf.float32, [None])
        _, update = tf.metrics.auc([True, False], predictions)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("predictions must be in [0, 1]")):
                sess.run(update, {predictions: [0.5, 1.5]})
