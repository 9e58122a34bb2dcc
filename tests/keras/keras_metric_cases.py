"""The Keras metrics and losses behind ``data/tf_keras_metrics_golden.json``, written once for both engines
(TensorFlow 2.21's compat.v1 with tf-keras when the golden file is made, numflow in the tests).

A metric case builds the metric in a fresh graph, takes a first batch through ``metric(y_true, y_pred)``, a
second through ``update_state`` with sample weights, reads ``result()`` after each and after ``reset_states()``,
and gives back those values, the metric's name and its variables' names. A loss case gives the loss of a
weighted batch under each reduction. The model cases compile metric objects and names into a model and fit it.
"""

import numpy as np


def _arrays(kind):
    """Two batches ``(y_true, y_pred)`` of ``kind`` and the second's sample weights, from a fixed seed."""
    rng = np.random.RandomState(7)
    weights = np.array([1.0, 0.5, 2.0, 0.0, 1.5, 1.0], np.float32)
    batches = []
    for _ in range(2):
        if kind == "binary":
            batch = (rng.randint(0, 2, (6, 1)).astype(np.float32), rng.rand(6, 1).astype(np.float32))
        elif kind == "multilabel":
            batch = (rng.randint(0, 2, (6, 3)).astype(np.float32), rng.rand(6, 3).astype(np.float32))
        elif kind == "categorical":
            probs = rng.rand(6, 4).astype(np.float32)
            batch = (np.eye(4, dtype=np.float32)[rng.randint(0, 4, 6)], probs / probs.sum(1, keepdims=True))
        elif kind == "sparse":
            probs = rng.rand(6, 4).astype(np.float32)
            batch = (rng.randint(0, 4, (6, 1)).astype(np.int64), probs / probs.sum(1, keepdims=True))
        elif kind == "classes":
            batch = (rng.randint(0, 3, 6).astype(np.int64), rng.randint(0, 3, 6).astype(np.int64))
        else:  # regression, positive values
            batch = (rng.rand(6, 3).astype(np.float32) + 0.1, rng.rand(6, 3).astype(np.float32) + 0.1)
        batches.append(batch)
    return batches, weights


# name -> (kind, the metric made from tf.keras.metrics)
METRICS = {
    "mean": ("regression", lambda m: m.Mean()),
    "sum": ("regression", lambda m: m.Sum()),
    "accuracy": ("classes", lambda m: m.Accuracy()),
    "binary_accuracy": ("binary", lambda m: m.BinaryAccuracy(threshold=0.4)),
    "categorical_accuracy": ("categorical", lambda m: m.CategoricalAccuracy()),
    "sparse_categorical_accuracy": ("sparse", lambda m: m.SparseCategoricalAccuracy()),
    "top_k": ("categorical", lambda m: m.TopKCategoricalAccuracy(k=2)),
    "sparse_top_k": ("sparse", lambda m: m.SparseTopKCategoricalAccuracy(k=2)),
    "true_positives": ("binary", lambda m: m.TruePositives(thresholds=[0.3, 0.6])),
    "true_negatives": ("binary", lambda m: m.TrueNegatives()),
    "false_positives": ("binary", lambda m: m.FalsePositives()),
    "false_negatives": ("binary", lambda m: m.FalseNegatives(thresholds=0.7)),
    "precision": ("binary", lambda m: m.Precision()),
    "precision_top_k": ("multilabel", lambda m: m.Precision(top_k=2)),
    "recall_class_id": ("multilabel", lambda m: m.Recall(class_id=1, thresholds=[0.2, 0.5])),
    "auc": ("binary", lambda m: m.AUC()),
    "auc_pr": ("binary", lambda m: m.AUC(curve="PR", num_thresholds=50)),
    "auc_pr_majoring": ("binary", lambda m: m.AUC(curve="PR", summation_method="majoring", num_thresholds=20)),
    "auc_multi_label": ("multilabel", lambda m: m.AUC(multi_label=True, num_thresholds=30)),
    "auc_thresholds": ("binary", lambda m: m.AUC(thresholds=[0.25, 0.5, 0.75], curve="PR_GAIN")),
    "sensitivity_at_specificity": ("binary", lambda m: m.SensitivityAtSpecificity(0.5, num_thresholds=20)),
    "specificity_at_sensitivity": ("binary", lambda m: m.SpecificityAtSensitivity(0.5)),
    "precision_at_recall": ("binary", lambda m: m.PrecisionAtRecall(0.5, num_thresholds=20)),
    "recall_at_precision": ("binary", lambda m: m.RecallAtPrecision(0.6)),
    "mse": ("regression", lambda m: m.MeanSquaredError()),
    "mae": ("regression", lambda m: m.MeanAbsoluteError()),
    "mape": ("regression", lambda m: m.MeanAbsolutePercentageError()),
    "msle": ("regression", lambda m: m.MeanSquaredLogarithmicError()),
    "rmse": ("regression", lambda m: m.RootMeanSquaredError()),
    "cosine_similarity": ("regression", lambda m: m.CosineSimilarity()),
    "logcosh": ("regression", lambda m: m.LogCoshError()),
    "mean_relative_error": ("regression", lambda m: m.MeanRelativeError(normalizer=[[0.5, 1.0, 2.0]])),
    "poisson": ("regression", lambda m: m.Poisson()),
    "kld": ("categorical", lambda m: m.KLDivergence()),
    "hinge": ("binary", lambda m: m.Hinge()),
    "squared_hinge": ("binary", lambda m: m.SquaredHinge()),
    "categorical_hinge": ("categorical", lambda m: m.CategoricalHinge()),
    "binary_crossentropy": ("binary", lambda m: m.BinaryCrossentropy(label_smoothing=0.1)),
    "categorical_crossentropy": ("categorical", lambda m: m.CategoricalCrossentropy()),
    "sparse_categorical_crossentropy": ("sparse", lambda m: m.SparseCategoricalCrossentropy()),
    "mean_iou": ("classes", lambda m: m.MeanIoU(num_classes=3)),
    "iou": ("classes", lambda m: m.IoU(num_classes=3, target_class_ids=[0, 2])),
    "binary_iou": ("binary", lambda m: m.BinaryIoU(threshold=0.4)),
    "one_hot_mean_iou": ("categorical", lambda m: m.OneHotMeanIoU(num_classes=4)),
    "one_hot_iou": ("categorical", lambda m: m.OneHotIoU(num_classes=4, target_class_ids=[1, 3])),
    "f1_macro": ("multilabel", lambda m: m.F1Score(average="macro", threshold=0.5)),
    "fbeta_none": ("multilabel", lambda m: m.FBetaScore(beta=2.0)),
    "f1_micro": ("multilabel", lambda m: m.F1Score(average="micro", threshold=0.4)),
    "f1_weighted": ("multilabel", lambda m: m.F1Score(average="weighted")),
    "r2": ("regression", lambda m: m.R2Score()),
    "r2_variance_weighted": ("regression", lambda m: m.R2Score(class_aggregation="variance_weighted_average")),
    "r2_raw": ("regression", lambda m: m.R2Score(class_aggregation=None)),
    "mean_tensor": ("regression", lambda m: m.MeanTensor()),
}

# The metrics whose updates tf-keras' graph mode never runs (see numflow/keras/metrics_scores.py): only their
# names and variables are compared, their numbers against numpy in test_keras_metrics.py.
UNRUN_IN_TF = ("f1_macro", "fbeta_none", "f1_micro", "f1_weighted", "r2", "r2_variance_weighted", "r2_raw")


def run_metric(tf, case):
    kind, make = METRICS[case]
    (first, second), weights = _arrays(kind)
    with tf.Graph().as_default():
        metric = make(tf.keras.metrics)
        single = case in ("mean", "sum", "mean_tensor")
        first_value = metric(first[1]) if single else metric(*first)
        if single:
            update = metric.update_state(second[1], sample_weight=weights[:, None])
        else:
            update = metric.update_state(*second, sample_weight=weights)
        result = metric.result()
        session = tf.keras.backend.get_session()
        out = {"name": metric.name, "variables": [v.name for v in metric.variables]}
        if case in UNRUN_IN_TF:
            return out
        out["first"] = np.asarray(session.run(first_value)).tolist()
        session.run(update)
        out["second"] = np.asarray(session.run(result)).tolist()
        metric.reset_states()
        out["reset"] = np.asarray(session.run(result)).tolist()
        return out


# name -> (kind, the loss made from tf.keras.losses)
LOSSES = {
    "huber": ("regression", lambda L, r: L.Huber(delta=0.3, reduction=r)),
    "log_cosh": ("regression", lambda L, r: L.LogCosh(reduction=r)),
    "poisson": ("regression", lambda L, r: L.Poisson(reduction=r)),
    "cosine_similarity": ("regression", lambda L, r: L.CosineSimilarity(reduction=r)),
    "squared_hinge": ("binary", lambda L, r: L.SquaredHinge(reduction=r)),
    "categorical_hinge": ("categorical", lambda L, r: L.CategoricalHinge(reduction=r)),
    "binary_focal": ("binary", lambda L, r: L.BinaryFocalCrossentropy(gamma=1.5, reduction=r)),
    "binary_focal_balanced": ("binary", lambda L, r: L.BinaryFocalCrossentropy(
        apply_class_balancing=True, alpha=0.3, label_smoothing=0.1, reduction=r)),
    "binary_focal_logits": ("binary", lambda L, r: L.BinaryFocalCrossentropy(from_logits=True, reduction=r)),
    "categorical_focal": ("categorical", lambda L, r: L.CategoricalFocalCrossentropy(reduction=r)),
    "categorical_focal_logits": ("categorical", lambda L, r: L.CategoricalFocalCrossentropy(
        from_logits=True, label_smoothing=0.2, reduction=r)),
    "mse_sum": ("regression", lambda L, r: L.MeanSquaredError(reduction=r)),
}
REDUCTIONS = ("auto", "none", "sum", "sum_over_batch_size")


def run_loss(tf, case):
    kind, make = LOSSES[case]
    (batch, _), weights = _arrays(kind)
    out = {}
    with tf.Graph().as_default():
        fetches = {r: make(tf.keras.losses, r)(*batch, sample_weight=weights) for r in REDUCTIONS}
        fetches["unweighted"] = make(tf.keras.losses, "auto")(*batch)
        with tf.Session() as session:
            for key, value in session.run(fetches).items():
                out[key] = np.asarray(value).tolist()
    return out


# the functions of tf.keras.metrics and tf.keras.losses, per example
FUNCTIONS = {
    "top_k_categorical_accuracy": ("categorical", lambda tf, t, p: tf.keras.metrics.top_k_categorical_accuracy(
        t, p, k=2)),
    "sparse_top_k_categorical_accuracy": ("sparse", lambda tf, t, p:
                                          tf.keras.metrics.sparse_top_k_categorical_accuracy(t, p, k=3)),
    "binary_accuracy": ("binary", lambda tf, t, p: tf.keras.metrics.binary_accuracy(t, p)),
    "sparse_categorical_accuracy": ("sparse", lambda tf, t, p: tf.keras.metrics.sparse_categorical_accuracy(t, p)),
    "squared_hinge": ("binary", lambda tf, t, p: tf.keras.metrics.squared_hinge(t, p)),
    "logcosh": ("regression", lambda tf, t, p: tf.keras.losses.logcosh(t, p)),
    "cosine": ("regression", lambda tf, t, p: tf.keras.metrics.cosine_proximity(t, p)),
    "poisson": ("regression", lambda tf, t, p: tf.keras.metrics.poisson(t, p)),
    "categorical_focal": ("categorical", lambda tf, t, p: tf.keras.metrics.categorical_focal_crossentropy(
        t, p, gamma=3.0)),
}


def run_function(tf, case):
    kind, fn = FUNCTIONS[case]
    (batch, _), _ = _arrays(kind)
    with tf.Graph().as_default(), tf.Session() as session:
        return np.asarray(session.run(fn(tf, tf.constant(batch[0]), tf.constant(batch[1])))).tolist()


def model_with_metric_objects(tf):
    """A model compiled with metric objects, class names and functions; trained and evaluated."""
    keras = tf.keras
    tf.set_random_seed(3)
    rng = np.random.RandomState(3)
    x = rng.rand(16, 4).astype(np.float32)
    y = (x[:, :1] + 0.3 * rng.rand(16, 1) > 0.7).astype(np.float32)
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        model = keras.Sequential([keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                                  keras.layers.Dense(1, activation="sigmoid")])
        model.compile("sgd", "binary_crossentropy",
                      metrics=["acc", keras.metrics.AUC(num_thresholds=20), keras.metrics.Precision(), "AUC",
                               "mse", keras.metrics.RootMeanSquaredError(name="rmse"), "acc"])
        history = model.fit(x, y, epochs=2, batch_size=5, verbose=0, shuffle=False)
        return {"metrics_names": list(model.metrics_names),
                "metric_variables": [[v.name for v in m.variables] for m in model.metrics],
                "history": history.history,
                "evaluate": [float(v) for v in model.evaluate(x, y, batch_size=6, verbose=0)]}


def two_outputs_with_metric_object(tf):
    """Two outputs sharing a metric object (copied per output) and a name."""
    keras = tf.keras
    rng = np.random.RandomState(4)
    x = rng.rand(12, 3).astype(np.float32)
    y1 = (x[:, :1] > 0.5).astype(np.float32)
    y2 = x[:, 1:] * 2.0
    with tf.Graph().as_default():
        tf.set_random_seed(4)
        inputs = keras.Input(shape=(3,))
        first = keras.layers.Dense(1, activation="sigmoid", name="first")(inputs)
        second = keras.layers.Dense(2, name="second")(inputs)
        model = keras.Model(inputs, [first, second])
        model.compile("adam", ["binary_crossentropy", "mse"],
                      metrics=[keras.metrics.MeanAbsoluteError(name="abs"), "mse"])
        history = model.fit(x, [y1, y2], epochs=2, batch_size=4, verbose=0, shuffle=False)
        return {"metrics_names": list(model.metrics_names),
                "metric_variables": [[v.name for v in m.variables] for m in model.metrics],
                "history": history.history}


def metrics_per_output(tf):
    """Metrics given per output, by a dict and by a list of lists; metrics_names before the model is built."""
    keras = tf.keras
    rng = np.random.RandomState(6)
    x = rng.rand(8, 3).astype(np.float32)
    targets = [(x[:, :1] > 0.5).astype(np.float32), x[:, 1:]]
    out = {}
    with tf.Graph().as_default():
        tf.set_random_seed(6)
        deferred = keras.Sequential([keras.layers.Dense(2)])
        deferred.compile("sgd", "mse", metrics=["mae"])
        out["deferred_names"] = list(deferred.metrics_names)
        inputs = keras.Input(shape=(3,))
        model = keras.Model(inputs, [keras.layers.Dense(1, activation="sigmoid", name="a")(inputs),
                                     keras.layers.Dense(2, name="b")(inputs)])
        for case, metrics in (("dict", {"a": ["acc"], "b": ["mae", keras.metrics.RootMeanSquaredError()]}),
                              ("lists", [["mse"], ["acc"]])):
            model.compile("sgd", ["binary_crossentropy", "mse"], metrics=metrics)
            history = model.fit(x, targets, epochs=2, batch_size=4, verbose=0, shuffle=False)
            out[case] = {"metrics_names": list(model.metrics_names), "history": history.history}
    return out


def weighted_metrics(tf):
    """Metrics and weighted metrics (called with the sample weights) of a model fit with sample weights."""
    keras = tf.keras
    rng = np.random.RandomState(12)
    x = rng.rand(10, 3).astype(np.float32)
    y = (x[:, :1] > 0.4).astype(np.float32)
    weights = np.linspace(0.2, 2.0, 10).astype(np.float32)
    with tf.Graph().as_default():
        tf.set_random_seed(12)
        model = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
        model.compile("sgd", "binary_crossentropy", metrics=["acc", "mse"],
                      weighted_metrics=["acc", keras.metrics.AUC(num_thresholds=10)])
        history = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False, sample_weight=weights)
        return {"metrics_names": list(model.metrics_names),
                "metric_variables": [[v.name for v in m.variables] for m in model.metrics],
                "history": history.history,
                "evaluate": [float(v) for v in model.evaluate(x, y, sample_weight=weights, verbose=0)]}


MODELS = {"model_with_metric_objects": model_with_metric_objects, "weighted_metrics": weighted_metrics,
          "two_outputs_with_metric_object": two_outputs_with_metric_object, "metrics_per_output": metrics_per_output}
