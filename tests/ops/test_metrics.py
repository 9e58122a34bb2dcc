"""tf.metrics: streaming values against TensorFlow and against numpy, local variables and their
names, collections, re-initialization and errors.

The golden values come from ``data/tf_losses_golden.npz`` (see ``make_tf_losses_golden.py``);
names and messages written here as literals were checked against TensorFlow 2.21 (compat.v1).
"""

import pathlib

import numpy as np
import pytest
from loss_cases import METRICS, metric_sequence

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_losses_golden.npz")


@pytest.mark.parametrize("kind", ["plain", "weighted"])
@pytest.mark.parametrize("name", METRICS)
def test_values_after_each_update_match_tensorflow(name, kind):
    updates, values = metric_sequence(tf, name, GOLDEN, kind == "weighted")
    np.testing.assert_allclose(updates, GOLDEN[f"metric/{name}/{kind}/update"], rtol=1e-6)
    np.testing.assert_allclose(values, GOLDEN[f"metric/{name}/{kind}/value"], rtol=1e-6)
    np.testing.assert_array_equal(values, updates)


@pytest.mark.parametrize("weighted", [False, True])
def test_streaming_counts_by_numpy(weighted):
    labels, predictions = GOLDEN["metric_labels"], GOLDEN["metric_predictions"]
    w = GOLDEN["metric_weights"] if weighted else np.ones(labels.shape)
    tp, fp, fn = (np.cumsum([(w[i] * c[i]).sum() for i in range(3)]) for c in (
        (labels == 1) & (predictions == 1), (labels == 0) & (predictions == 1), (labels == 1) & (predictions == 0)))
    correct = np.cumsum([(w[i] * (labels[i] == predictions[i])).sum() for i in range(3)])
    with np.errstate(invalid="ignore", divide="ignore"):
        want = {
            "accuracy": correct / np.cumsum(w.sum(1)),
            "precision": np.where(tp + fp > 0, tp / (tp + fp), 0.0),
            "recall": np.where(tp + fn > 0, tp / (tp + fn), 0.0),
            "true_positives": tp,
        }
    for name, values in want.items():
        np.testing.assert_allclose(metric_sequence(tf, name, GOLDEN, weighted)[0], values, rtol=1e-6, err_msg=name)


def test_variables_names_and_collections_as_tensorflow():
    # Names checked against TensorFlow 2.21.
    labels = tf.placeholder(tf.int64, [None])
    predictions = tf.placeholder(tf.int64, [None])
    acc, update = tf.metrics.accuracy(labels, predictions)
    assert (acc.name, update.name) == ("accuracy/value:0", "accuracy/update_op:0")
    assert tf.metrics.accuracy(labels, predictions)[0].name == "accuracy_1/value:0"
    mean = tf.metrics.mean([1, 2], name="m", metrics_collections="mc", updates_collections=["uc"])
    assert [t.name for t in mean] == ["m/value:0", "m/update_op:0"]
    assert (tf.get_collection("mc"), tf.get_collection("uc")) == ([mean[0]], [mean[1]])
    tp = tf.metrics.true_positives(labels, predictions)
    assert [t.name for t in tp] == ["true_positives/Identity:0", "true_positives/AssignAdd:0"]
    assert tp[1].dtype == tf.float32._as_ref
    assert tf.metrics.false_positives(labels, predictions, name="fp")[0].name == "fp/Identity:0"
    assert [t.name for t in tf.metrics.precision(labels, predictions)] == ["precision/value:0", "precision/update_op:0"]
    assert tf.metrics.recall(labels, predictions, name="rec")[1].name == "rec/update_op:0"
    with tf.variable_scope("eval"):
        assert tf.metrics.mean_squared_error([1.0], [2.0])[0].name == "eval/mean_squared_error/value:0"
    assert [v.name for v in tf.local_variables()] == [
        "accuracy/total:0", "accuracy/count:0", "accuracy_1/total:0", "accuracy_1/count:0", "m/total:0", "m/count:0",
        "true_positives/count:0", "fp/count:0", "precision/true_positives/count:0",
        "precision/false_positives/count:0", "rec/true_positives/count:0", "rec/false_negatives/count:0",
        "eval/mean_squared_error/total:0", "eval/mean_squared_error/count:0",
    ]
    assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == tf.local_variables()
    assert not any(v.trainable for v in tf.local_variables())
    assert tf.global_variables() == [] and tf.trainable_variables() == []
    assert tf.get_default_graph().get_operation_by_name("accuracy/total/Initializer/zeros").type == "Const"


def test_update_accumulates_value_reads_and_local_init_resets():
    # Values checked against TensorFlow 2.21: labels [N, 1] are squeezed to the predictions' [N],
    # and weights [N, 1] follow them.
    labels = tf.placeholder(tf.int64, [None, 1])
    predictions = tf.placeholder(tf.int64, [None])
    weights = tf.placeholder_with_default([[1.0], [1.0], [0.0], [2.0]], [4, 1])
    acc, update = tf.metrics.accuracy(labels, predictions, weights=weights)
    feed = {labels: [[1], [2], [3], [4]]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value accuracy/"):
            sess.run(update, {**feed, predictions: [1, 0, 3, 0]})
        sess.run(tf.local_variables_initializer())
        assert sess.run(update, {**feed, predictions: [1, 0, 3, 0]}) == 0.25  # (1 + 0) / 4
        assert sess.run(update, {**feed, predictions: [1, 2, 3, 4]}) == 0.625  # (1 + 1 + 2) / (4 + 4)
        assert [sess.run(acc), sess.run(acc)] == [0.625, 0.625]
        assert sess.run(tf.local_variables()) == [5.0, 8.0]
        sess.run(tf.local_variables_initializer())
        assert sess.run(acc) == 0.0


def test_float_predictions_and_means_of_matrices():
    # Values checked against TensorFlow 2.21: precision casts to bool (0.5 is true).
    p = tf.metrics.precision([1, 1, 0], [1.0, 0.5, 0.0])
    r = tf.metrics.recall([1, 1, 0], [1.0, 0.0, 0.0])
    e = tf.metrics.mean_absolute_error([[1.0], [2.0]], [[1.5], [0.0]])
    m = tf.metrics.mean([[1.0, 2.0], [3.0, 4.0]], weights=[1.0, 0.0])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(p[0]) == 0.0
        assert sess.run([p[1], r[1], e[1], m[1]]) == [1.0, 0.5, 1.25, 1.5]


def test_errors():
    # Classes and messages checked against TensorFlow 2.21.
    with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(2,\) are incompatible$"):
        tf.metrics.accuracy(tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(ValueError, match=r"^Shapes \(2, 3\) and \(2, 2\) are incompatible$"):
        tf.metrics.precision(tf.zeros([2, 2]), tf.zeros([2, 3]))
    with pytest.raises(TypeError, match=r"Input 'y' of 'SquaredDifference' Op has type float32 that does not match "
                                        r"type int32 of argument 'x'\."):
        tf.metrics.mean_squared_error(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
    weights = tf.constant([[[1.0]], [[2.0]]], name="w")
    with pytest.raises(ValueError, match=r"^Tensor w:0 must have rank in \(0, 1\)\.  Received rank 3, "
                                         r"shape \(2, 1, 1\)$"):
        tf.metrics.true_positives(tf.constant([True, False]), tf.constant([True, True]), weights=weights)
    with pytest.raises(ValueError, match=r"^weights can not be broadcast to values\. Mismatch at dim 0\. "
                                         r"values\.shape=\[2 3\], weights\.shape=\[4 1\]\."):
        tf.metrics.mean(tf.zeros([2, 3]), weights=tf.constant([1.0, 2.0, 3.0, 4.0]))
