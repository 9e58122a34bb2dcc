"""Keras metrics checked by hand where the TensorFlow golden cannot check them: the scores whose graph-mode
updates tf-keras never runs (F-beta, R2, against numpy), serialization round trips, and TensorFlow's errors
for bad arguments (messages checked against tf-keras 2.21 by hand)."""

import keras_metric_cases as cases
import numpy as np
import pytest

import numflow as tf

M = tf.keras.metrics


def _run(metric, batches, weights):
    (first, second) = batches
    with tf.Session() as session:
        tf.keras.backend.set_session(session)
        first_value = metric(*first)
        update = metric.update_state(*second, sample_weight=weights)
        result = metric.result()
        session.run([v.initializer for v in metric.variables])
        values = [session.run(first_value)]
        session.run(update)
        values.append(session.run(result))
        metric.reset_states()
        values.append(session.run(result))
    return values


def _fbeta(y_true, y_pred, weights, beta, average, threshold):
    y_pred = (y_pred > threshold) if threshold is not None else (y_pred >= y_pred.max(-1, keepdims=True))
    y_pred = y_pred.astype(np.float64)
    w = weights[:, None]
    axis = None if average == "micro" else 0
    tp, fp = (w * y_pred * y_true).sum(axis), (w * y_pred * (1 - y_true)).sum(axis)
    fn, support = (w * (1 - y_pred) * y_true).sum(axis), (w * y_true).sum(axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision, recall = np.nan_to_num(tp / (tp + fp)), np.nan_to_num(tp / (tp + fn))
        score = np.nan_to_num((1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall))
    if average == "weighted":
        return (score * support / support.sum()).sum()
    return score.mean() if average else score


@pytest.mark.parametrize(("case", "beta", "average", "threshold"), [
    ("f1_macro", 1.0, "macro", 0.5), ("fbeta_none", 2.0, None, None), ("f1_micro", 1.0, "micro", 0.4),
    ("f1_weighted", 1.0, "weighted", None)])
def test_fbeta_scores_against_numpy(case, beta, average, threshold):
    kind, make = cases.METRICS[case]
    batches, weights = cases._arrays(kind)
    first, second, reset = _run(make(M), batches, weights)
    ones = np.ones(6)
    np.testing.assert_allclose(first, _fbeta(*batches[0], ones, beta, average, threshold), rtol=1e-6)
    both = [np.concatenate([a, b]) for a, b in zip(batches[0], batches[1])]
    np.testing.assert_allclose(second, _fbeta(*both, np.concatenate([ones, weights]), beta, average, threshold),
                               rtol=1e-6)
    np.testing.assert_array_equal(reset, np.zeros_like(reset))


@pytest.mark.parametrize(("case", "aggregation"), [("r2", "uniform_average"), ("r2_raw", None),
                                                  ("r2_variance_weighted", "variance_weighted_average")])
def test_r2_scores_against_numpy(case, aggregation):
    kind, make = cases.METRICS[case]
    batches, weights = cases._arrays(kind)
    _, second, _ = _run(make(M), batches, weights)
    y_true = np.concatenate([batches[0][0], batches[1][0]]).astype(np.float64)
    y_pred = np.concatenate([batches[0][1], batches[1][1]]).astype(np.float64)
    w = np.concatenate([np.ones(6), weights])[:, None]
    mean = (w * y_true).sum(0) / w.sum(0)
    total = (w * (y_true - mean) ** 2).sum(0)
    raw = 1 - (w * (y_true - y_pred) ** 2).sum(0) / total
    want = {None: raw, "uniform_average": raw.mean(),
            "variance_weighted_average": (total * raw).sum() / total.sum()}[aggregation]
    np.testing.assert_allclose(second, want, rtol=1e-5)


def test_metrics_serialize_and_come_back_by_name_and_config():
    auc = M.AUC(num_thresholds=7, curve="PR", name="pr")
    config = M.serialize(auc)
    assert (config["class_name"], config["config"]["num_thresholds"], config["config"]["curve"]) == ("AUC", 7, "PR")
    again = M.deserialize(config)
    assert (type(again), again.name, again.num_thresholds) == (M.AUC, "pr", 7)
    assert M.get("mse") is M.mean_squared_error
    assert isinstance(M.get("Precision"), M.Precision)
    assert M.serialize(M.mse) == "mean_squared_error"
    with pytest.raises(ValueError, match="Unknown metric function: 'nope'"):
        M.get("nope")


def test_metric_names_count_as_layer_names_do():
    assert [M.AUC().name, M.AUC().name, M.Precision().name, M.Mean().name, M.Mean().name] == \
        ["auc", "auc_1", "precision", "mean", "mean"]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: M.AUC(curve="Roc"), 'Invalid AUC curve value: "Roc". Expected values are ["PR", "ROC", "PR_GAIN"]'),
    (lambda: M.AUC(summation_method="MAJORING"), 'Invalid AUC summation method value: "MAJORING". Expected values '
                                                 'are ["interpolation", "majoring", "minoring"]'),
    (lambda: M.AUC(num_thresholds=1), "Argument `num_thresholds` must be an integer > 1. Received: num_thresholds=1"),
    (lambda: M.IoU(num_classes=2, target_class_ids=[2]), r"Target class id 2 is out of range, which is [0, 2)."),
    (lambda: M.SensitivityAtSpecificity(1.5), "Argument `specificity` must be in the range [0, 1]. Received: "
                                              "specificity=1.5"),
    (lambda: M.Precision(thresholds=[0.5, 1.5]), "Threshold values must be in [0, 1]. Received: [1.5]"),
    (lambda: M.FBetaScore(beta=1), "Invalid `beta` argument value. It should be a Python float. Received: beta=1 "
                                   "of type '<class 'int'>'"),
])
def test_bad_arguments_raise_tensorflows_errors(make, message):
    with pytest.raises(ValueError) as raised:
        make()
    assert str(raised.value) == message


def test_mean_tensor_needs_an_update_before_its_result():
    with pytest.raises(ValueError, match="MeanTensor does not have any value yet"):
        M.MeanTensor().result()
