"""The graphs behind ``data/tf_metric_stream_golden.npz``, written once for both engines: each case of ``CASES``
builds one ``tf.metrics`` function from the ``tf`` module (TensorFlow's compat.v1 when the golden file is made,
numflow in the tests) over the placeholders of :func:`inputs`, with ``metrics_collections=["values"]`` and
``updates_collections=["updates"]``, and feeds it the three batches below. The golden file holds, per case, the
update's result after each batch and the value read after it, the names, static shapes and dtypes of the value,
the update and the local variables, and the names in the two collections."""

import numpy as np

_RNG = np.random.RandomState(5)
BATCHES = 3
SCORES = _RNG.rand(BATCHES, 4, 5).astype(np.float32)  # 4 examples over 5 classes per batch
LABELS = np.array([[[0, 3], [1, 1], [4, -1], [2, 0]], [[3, 4], [0, 2], [1, 3], [4, 4]],
                   [[2, 1], [0, -1], [3, 0], [1, 4]]], np.int64)
WEIGHTS = np.array([[1.0, 0.5, 2.0, 0.0], [1.0, 1.0, 0.25, 3.0], [0.0, 1.0, 1.0, 0.5]], np.float32)
VALUES = _RNG.randn(BATCHES, 4, 3).astype(np.float32)
TARGETS = np.round(_RNG.randn(BATCHES, 4, 3), 1).astype(np.float32)
TARGETS[:, 1, 0] = 0.0  # a zero normalizer for mean_relative_error
# Sparse label rows: uneven lengths, a repeated id, ids past the 5 classes (not relevant to average precision).
SPARSE_ROWS = [[[0, 3, 4], [1, 1], [4, 6], [2]], [[3], [0, 2, 1], [7, 3], [4, 0]], [[2, 1], [0], [3, 0, 4], [1]]]


def _sparse_value(rows):
    indices = [[i, j] for i, row in enumerate(rows) for j in range(len(row))]
    values = [v for row in rows for v in row]
    return np.array(indices, np.int64), np.array(values, np.int64), np.array([len(rows), 3], np.int64)


def inputs(tf):
    """The placeholders of one batch, by name, and how to feed batch ``b`` to them."""
    ph = {
        "scores": tf.placeholder(tf.float32, [None, 5], name="scores"),
        "labels": tf.placeholder(tf.int64, [None, 2], name="labels"),
        "weights": tf.placeholder(tf.float32, [None], name="weights"),
        "values": tf.placeholder(tf.float32, [4, 3], name="values"),
        "targets": tf.placeholder(tf.float32, [4, 3], name="targets"),
        "any_rank_labels": tf.placeholder(tf.int64, None, name="any_rank_labels"),
        "sparse": tf.sparse_placeholder(tf.int64, name="sparse"),
        "sparse_2d": tf.sparse_placeholder(tf.int64, [None, None], name="sparse_2d"),
        "any_rank_weights": tf.placeholder(tf.float32, None, name="any_rank_weights"),
    }

    def feed(b):
        arrays = {"scores": SCORES, "labels": LABELS, "weights": WEIGHTS, "values": VALUES, "targets": TARGETS,
                  "any_rank_labels": LABELS[:, :, 1], "any_rank_weights": WEIGHTS[:, :, None]}
        sparse = _sparse_value(SPARSE_ROWS[b])
        return {**{ph[k]: arrays[k][b] for k in arrays}, ph["sparse"]: sparse, ph["sparse_2d"]: sparse}

    return ph, feed


def _unit(tf, x):
    return tf.nn.l2_normalize(x, 1)


def _positive(x):
    """Bool labels of the batch's examples: their first label above 1."""
    return x["labels"][:, 0] > 1


def _binary(metric, *args, **options):
    """``tf.metrics.<metric>`` over the bool labels of :func:`_positive` and the scores of class 0."""
    return lambda tf, x: getattr(tf.metrics, metric)(_positive(x), x["scores"][:, 0], *args, **options)


def _rank2(metric, **options):
    """``tf.metrics.<metric>`` over ``[4, 2]`` bool labels and scores, weighted per example by ``[4, 1]`` weights."""
    return lambda tf, x: getattr(tf.metrics, metric)(x["labels"] > 1, x["scores"][:, 1:3],
                                                     weights=x["weights"][:, None], **options)


_THRESHOLDS = [0.2, 0.5, 0.8]


def _top(tf, x, k):
    """The ids of the ``k`` top scores of each example."""
    return tf.nn.top_k(x["scores"], k)[1]


CASES = {
    "mean_tensor": lambda tf, x: tf.metrics.mean_tensor(x["values"]),
    "mean_tensor_weighted": lambda tf, x: tf.metrics.mean_tensor(x["values"], x["weights"][:, None], name="mt"),
    "percentage_below": lambda tf, x: tf.metrics.percentage_below(x["values"], 0.2),
    "percentage_below_weighted": lambda tf, x: tf.metrics.percentage_below(x["values"], -0.5, x["weights"]),
    "mean_relative_error": lambda tf, x: tf.metrics.mean_relative_error(x["targets"], x["values"], x["targets"]),
    "mean_relative_error_weighted": lambda tf, x: tf.metrics.mean_relative_error(
        x["targets"], x["values"], tf.abs(x["targets"]) + 1.0, weights=x["weights"][:, None], name="rel"),
    "mean_cosine_distance": lambda tf, x: tf.metrics.mean_cosine_distance(
        _unit(tf, x["targets"]), _unit(tf, x["values"]), 1),
    "mean_cosine_distance_weighted": lambda tf, x: tf.metrics.mean_cosine_distance(
        _unit(tf, x["targets"]), _unit(tf, x["values"]), 1, weights=x["weights"][:, None]),
    "mean_per_class_accuracy": lambda tf, x: tf.metrics.mean_per_class_accuracy(
        tf.floormod(x["labels"][:, 0], 5), tf.argmax(x["scores"], 1), 5),
    "mean_per_class_accuracy_weighted": lambda tf, x: tf.metrics.mean_per_class_accuracy(
        tf.floormod(x["labels"], 5), tf.argmax(x["scores"][:, :2], 1)[:, None] + x["labels"] * 0, 5,
        weights=x["weights"][:, None] + tf.zeros([1, 2]), name="per_class"),
    **{f"{kind}_at_thresholds": _binary(f"{kind}_at_thresholds", _THRESHOLDS)
       for kind in ("true_positives", "false_positives", "true_negatives", "false_negatives")},
    "true_positives_at_thresholds_weighted": lambda tf, x: tf.metrics.true_positives_at_thresholds(
        _positive(x), x["scores"][:, 0], [0.7, 0.1], x["weights"], name="tp"),
    "false_negatives_at_thresholds_rank2": _rank2("false_negatives_at_thresholds", thresholds=_THRESHOLDS),
    "precision_at_thresholds": lambda tf, x: tf.metrics.precision_at_thresholds(
        _positive(x), x["scores"][:, 0], _THRESHOLDS),
    "precision_at_thresholds_rank2": _rank2("precision_at_thresholds", thresholds=_THRESHOLDS),
    "recall_at_thresholds": lambda tf, x: tf.metrics.recall_at_thresholds(
        _positive(x), x["scores"][:, 0], _THRESHOLDS, x["weights"], name="rec"),
    "sensitivity_at_specificity": lambda tf, x: tf.metrics.sensitivity_at_specificity(
        _positive(x), x["scores"][:, 0], 0.5, num_thresholds=7),
    "sensitivity_at_specificity_rank2": _rank2("sensitivity_at_specificity", specificity=0.8),
    "specificity_at_sensitivity": lambda tf, x: tf.metrics.specificity_at_sensitivity(
        _positive(x), x["scores"][:, 0], 0.4, num_thresholds=7),
    "specificity_at_sensitivity_rank2": _rank2("specificity_at_sensitivity", sensitivity=0.7, name="spec"),
    # Metrics of earlier releases, for their collections, names and broadcasting.
    "accuracy_labels_rank2": lambda tf, x: tf.metrics.accuracy(
        x["labels"][:, :1], tf.argmax(x["scores"], 1), weights=x["weights"][:, None]),
    "mean_any_rank_weights": lambda tf, x: tf.metrics.mean(x["scores"][:, 0], x["any_rank_weights"]),
    "mean_scalar_weight": lambda tf, x: tf.metrics.mean(x["values"], 2.0, name="m"),
    "precision_rank2_weights": _rank2("precision"),
    "recall_rank2_weights": _rank2("recall", name="rec"),
    "true_positives_weighted": lambda tf, x: tf.metrics.true_positives(
        _positive(x), x["scores"][:, 0] > 0.5, x["weights"]),
    "false_negatives_rank2": _rank2("false_negatives"),
    "mean_absolute_error_weighted": lambda tf, x: tf.metrics.mean_absolute_error(
        x["targets"], x["values"], x["weights"][:, None]),
    "root_mean_squared_error": lambda tf, x: tf.metrics.root_mean_squared_error(x["targets"], x["values"]),
    "mean_iou": lambda tf, x: tf.metrics.mean_iou(
        tf.floormod(x["labels"], 5), tf.argmax(x["scores"][:, :2], 1)[:, None] + x["labels"] * 0, 5,
        weights=x["weights"][:, None] + tf.zeros([1, 2])),
    "auc": lambda tf, x: tf.metrics.auc(_positive(x), x["scores"][:, 0], x["weights"], num_thresholds=9),
    "auc_pr_rank2": _rank2("auc", curve="PR", summation_method="careful_interpolation"),
    "precision_at_k_class": lambda tf, x: tf.metrics.precision_at_k(x["labels"], x["scores"], 2, class_id=1),
    "recall_at_k_weighted": lambda tf, x: tf.metrics.recall_at_k(x["labels"], x["scores"], 3, weights=x["weights"]),
    "precision_at_top_k": lambda tf, x: tf.metrics.precision_at_top_k(x["labels"], _top(tf, x, 3)),
    "precision_at_top_k_class": lambda tf, x: tf.metrics.precision_at_top_k(
        x["labels"], _top(tf, x, 3), k=3, class_id=0, weights=x["weights"]),
    "precision_at_top_k_sparse": lambda tf, x: tf.metrics.precision_at_top_k(x["sparse_2d"], _top(tf, x, 2), k=2),
    "recall_at_top_k_sparse": lambda tf, x: tf.metrics.recall_at_top_k(
        x["sparse"], _top(tf, x, 2), k=2, weights=x["weights"], name="rtk"),
    "recall_at_top_k_class": lambda tf, x: tf.metrics.recall_at_top_k(x["labels"], _top(tf, x, 1), class_id=4),
    "precision_at_top_k_repeated_ids": lambda tf, x: tf.metrics.precision_at_top_k(
        x["labels"], tf.concat([_top(tf, x, 2), _top(tf, x, 1)], 1), k=3),
    "recall_at_k_rank3": lambda tf, x: tf.metrics.recall_at_k(
        tf.reshape(x["labels"], [2, 2, 2]), tf.reshape(x["scores"], [2, 2, 5]), 2,
        weights=tf.reshape(x["weights"], [2, 2])),
    "precision_at_k_sparse": lambda tf, x: tf.metrics.precision_at_k(
        x["sparse"], x["scores"], 2, weights=x["weights"]),
    "precision_at_k_sparse_class": lambda tf, x: tf.metrics.precision_at_k(
        x["sparse_2d"], x["scores"], 3, class_id=3),
    "recall_at_k_sparse": lambda tf, x: tf.metrics.recall_at_k(x["sparse"], x["scores"], 3),
    "recall_at_k_any_rank": lambda tf, x: tf.metrics.recall_at_k(x["any_rank_labels"], x["scores"], 2),
    "sparse_precision_at_k": lambda tf, x: tf.metrics.sparse_precision_at_k(x["labels"], x["scores"], 1),
    "average_precision_at_k": lambda tf, x: tf.metrics.average_precision_at_k(x["labels"], x["scores"], 2),
    "average_precision_at_k_weighted": lambda tf, x: tf.metrics.average_precision_at_k(
        x["labels"], x["scores"], 4, weights=x["weights"], name="ap"),
    "average_precision_at_k_one_label": lambda tf, x: tf.metrics.average_precision_at_k(
        x["any_rank_labels"], x["scores"], 3),
    "average_precision_at_k_sparse": lambda tf, x: tf.metrics.average_precision_at_k(x["sparse"], x["scores"], 3),
    "sparse_average_precision_at_k": lambda tf, x: tf.metrics.sparse_average_precision_at_k(
        x["sparse_2d"], x["scores"], 1, weights=0.5),
}


def run_case(tf, name):
    """Case ``name``'s update results and value results after each batch, its names and its collections."""
    with tf.Graph().as_default():
        ph, feed = inputs(tf)
        value, update = CASES[name](tf, ph)
        graph = tf.get_default_graph()
        graph.add_to_collection("values", value)
        graph.add_to_collection("updates", update)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            updates, values = [], []
            for b in range(BATCHES):
                updates.append(sess.run(update, feed(b)))
                values.append(sess.run(value))
        local = tf.local_variables()
        assert tf.get_collection(tf.GraphKeys.METRIC_VARIABLES) == local and not tf.global_variables()
        names = [f"{t.name} {t.shape} {t.dtype.name}" for t in (value, update)]
        names += [f"{v.name} {v.shape} {v.dtype.base_dtype.name}" for v in local]
        collections = [t.name for t in tf.get_collection("values") + tf.get_collection("updates")]
        return np.array(updates), np.array(values), names, collections
