"""The tf.metrics of ``metric_stream_cases.py`` against TensorFlow's streams (``data/tf_metric_stream_golden.npz``,
made by ``data/make_tf_metric_stream_golden.py``): every update's and value's result over three batches, the
names of the tensors and local variables, the collections; and against numpy computed another way."""

import pathlib

import numpy as np
import pytest
from metric_stream_cases import BATCHES, CASES, LABELS, SCORES, SPARSE_ROWS, TARGETS, VALUES, WEIGHTS, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_metric_stream_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_streams_names_and_collections_match_tensorflow(name):
    updates, values, names, collections = run_case(tf, name)
    assert names == GOLDEN[f"{name}/names"].tolist()
    assert collections == GOLDEN[f"{name}/collections"].tolist()
    for kind, got in (("updates", updates), ("values", values)):
        want = GOLDEN[f"{name}/{kind}"]
        assert got.dtype == want.dtype and got.shape == want.shape, kind
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-12, err_msg=kind)


def test_means_by_numpy():
    w = WEIGHTS[:, :, None] * np.ones(3)
    total, count = np.cumsum(w * VALUES, 0), np.cumsum(w, 0)
    cumulative = np.where(count > 0, total / np.maximum(count, 1e-30), 0.0)
    np.testing.assert_allclose(run_case(tf, "mean_tensor_weighted")[0], cumulative, rtol=1e-6)
    below = np.cumsum([(w[b] * (VALUES[b] < -0.5)).sum() for b in range(BATCHES)]) / np.cumsum(w.sum((1, 2)))
    np.testing.assert_allclose(run_case(tf, "percentage_below_weighted")[0], below, rtol=1e-6)
    relative = np.where(TARGETS == 0, 0, np.abs(TARGETS - VALUES) / np.where(TARGETS == 0, 1, TARGETS))
    np.testing.assert_allclose(run_case(tf, "mean_relative_error")[0],
                               np.cumsum(relative.sum((1, 2))) / (12 * np.arange(1, 4)), rtol=1e-5)


def test_mean_per_class_accuracy_by_numpy():
    labels, predicted = LABELS[:, :, 0] % 5, SCORES.argmax(-1)
    seen, correct = np.zeros(5), np.zeros(5)
    want = []
    for b in range(BATCHES):
        np.add.at(seen, labels[b], 1)
        np.add.at(correct, labels[b], labels[b] == predicted[b])
        want.append(np.where(seen > 0, correct / np.maximum(seen, 1), 0))
    updates, values, _, _ = run_case(tf, "mean_per_class_accuracy")
    np.testing.assert_allclose(updates, want, rtol=1e-6)
    np.testing.assert_allclose(values, np.mean(want, 1), rtol=1e-6)


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^Cannot convert a partially known TensorShape \(\?, 3\) to a Tensor\.$"):
            tf.metrics.mean_tensor(tf.placeholder(tf.float32, [None, 3]))
        with pytest.raises(ValueError, match=r"^Shapes \(2,\) and \(3,\) are incompatible$"):
            tf.metrics.mean_relative_error(tf.zeros([2]), tf.zeros([2]), tf.ones([3]))
        with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(4,\) are incompatible$"):
            tf.metrics.mean_per_class_accuracy(tf.zeros([4], tf.int64), tf.zeros([3], tf.int64), 2)


def test_counts_and_ratios_at_thresholds_by_numpy():
    positive, score = LABELS[:, :, 0] > 1, SCORES[:, :, 0]
    thresholds = np.array([0.2, 0.5, 0.8])
    above = score[:, :, None] > thresholds  # [batch, example, threshold]
    tp = np.cumsum((positive[:, :, None] & above).sum(1), 0)
    fp = np.cumsum((~positive[:, :, None] & above).sum(1), 0)
    np.testing.assert_array_equal(run_case(tf, "true_positives_at_thresholds")[1], tp)
    np.testing.assert_array_equal(run_case(tf, "false_positives_at_thresholds")[0], fp)
    np.testing.assert_allclose(run_case(tf, "precision_at_thresholds")[0], tp / (1e-7 + tp + fp), rtol=1e-6)


def test_threshold_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^`specificity` must be in the range \[0, 1\]\. Currently, "
                                             r"`specificity` got 1\.5\.$"):
            tf.metrics.sensitivity_at_specificity(tf.zeros([2]), tf.zeros([2]), 1.5)
        with pytest.raises(ValueError, match=r"^`sensitivity` must be in the range \[0, 1\]\. Currently, "
                                             r"`sensitivity` is -0\.5\.$"):
            tf.metrics.specificity_at_sensitivity(tf.zeros([2]), tf.zeros([2]), -0.5)
        with pytest.raises(ValueError, match=r"^weights can not be broadcast to values\. Mismatch at dim 0\. "
                                             r"values\.shape=\[2\], weights\.shape=\[3\]\."):
            tf.metrics.precision_at_thresholds(tf.zeros([2]), tf.zeros([2]), [0.5], weights=tf.ones([3]))
        predictions = tf.placeholder(tf.float32, [None])
        _, update = tf.metrics.true_negatives_at_thresholds([True, False], predictions, [0.5])
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"predictions must be in \[0, 1\]"):
                sess.run(update, {predictions: [0.5, -0.1]})


def _average_precision(top, labels):
    relevant = [t in labels for t in top]
    hits = np.cumsum(relevant)
    return sum(hits[i] / (i + 1) for i in range(len(top)) if relevant[i]) / min(len(labels), len(top))


def test_average_precision_by_numpy():
    top = np.argsort(-SCORES, axis=-1, kind="stable")[..., :3]
    # Sparse rows: distinct ids count, those past the 5 classes as one irrelevant id.
    per_example = [[_average_precision(top[b, i], {v if v < 5 else -1 for v in row})
                    for i, row in enumerate(SPARSE_ROWS[b])] for b in range(BATCHES)]
    want = np.cumsum(np.sum(per_example, 1)) / (4 * np.arange(1, 4))
    np.testing.assert_allclose(run_case(tf, "average_precision_at_k_sparse")[0], want, rtol=1e-12)


def test_recall_of_sparse_labels_by_numpy():
    top = np.argsort(-SCORES, axis=-1, kind="stable")[..., :3]
    found = [sum(len(set(row) & set(top[b, i])) for i, row in enumerate(SPARSE_ROWS[b])) for b in range(BATCHES)]
    labelled = [sum(len(set(row)) for row in SPARSE_ROWS[b]) for b in range(BATCHES)]
    np.testing.assert_allclose(run_case(tf, "recall_at_k_sparse")[0], np.cumsum(found) / np.cumsum(labelled))


def test_at_k_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^Unexpected labels shape \(2, 2, 2\) for predictions shape \(2, 1\)\. "
                                             r"Predictions rank should be the same rank as labels rank or labels rank "
                                             r"plus one \.$"):
            tf.metrics.precision_at_k(tf.zeros([2, 2, 2], tf.int64), tf.zeros([2, 3]), 1)
        with pytest.raises(ValueError, match=r"^Invalid k=0\. `k` should be >= 1\.$"):
            tf.metrics.average_precision_at_k(tf.zeros([2, 2], tf.int64), tf.zeros([2, 3]), 0)
        with pytest.raises(ValueError, match=r"input must have last dimension >= k = 4 but is 3"):
            tf.metrics.recall_at_k(tf.zeros([2, 2], tf.int64), tf.zeros([2, 3]), 4)


BAD_SHAPES = {  # Messages checked against TensorFlow 2.21 (compat.v1).
    "mean_tensor_weights": (lambda: tf.metrics.mean_tensor(tf.zeros([2, 3]), weights=tf.zeros([3])),
                            r"^weights can not be broadcast to values\. Mismatch at dim 0\. values\.shape=\[2 3\], "
                            r"weights\.shape=\[3 1\]\."),
    "percentage_below_weights": (lambda: tf.metrics.percentage_below(tf.zeros([2, 3]), 0.5, weights=tf.zeros([4])),
                                 r"^weights can not be broadcast to values\. Mismatch at dim 0\."),
    "mean_cosine_distance": (lambda: tf.metrics.mean_cosine_distance(tf.zeros([2, 3]), tf.zeros([2, 4]), 1),
                             r"^Shapes \(2, 4\) and \(2, 3\) are incompatible$"),
    "true_positives_at_thresholds": (
        lambda: tf.metrics.true_positives_at_thresholds(tf.zeros([2]), tf.zeros([3]), [0.5]),
        r"^Shapes \(3,\) and \(2,\) are incompatible$"),
    "true_positives_at_thresholds_weights": (
        lambda: tf.metrics.true_positives_at_thresholds(tf.zeros([2]), tf.zeros([2]), [0.5],
                                                        weights=tf.zeros([2, 2, 2])),
        r"^weights can not be broadcast to values\. values\.rank=1\. weights\.rank=3\."),
    "average_precision_at_k_labels": (
        lambda: tf.metrics.average_precision_at_k(tf.zeros([2, 3, 3], tf.int64), tf.zeros([2, 4]), 2),
        r"^Unexpected labels shape \(2, 3, 3\) for predictions shape \(2, 2\)\."),
    "mean_per_class_accuracy_weights": (
        lambda: tf.metrics.mean_per_class_accuracy(tf.zeros([4], tf.int64), tf.zeros([4], tf.int64), 3,
                                                   weights=tf.zeros([3])),
        r"^Dimensions must be equal, but are 4 and 3 for '\{\{node mean_accuracy/mul\}\} = Mul"),
}


@pytest.mark.parametrize("name", sorted(BAD_SHAPES))
def test_bad_shapes_raise_tensorflows_errors(name):
    build, message = BAD_SHAPES[name]
    with tf.Graph().as_default(), pytest.raises(ValueError, match=message):
        build()
