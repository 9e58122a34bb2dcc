"""root_mean_squared_error, mean_iou, precision_at_k and recall_at_k against TensorFlow: every update's and
value's result over three batches, the tensors' and local variables' names (``data/tf_metric_at_k_golden.npz``,
made by ``data/make_tf_metric_at_k_golden.py`` from ``metric_at_k_cases.py``), and against numpy."""

import pathlib

import numpy as np
from metric_at_k_cases import LABELS, SCORES, run_metrics

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_metric_at_k_golden.npz")


def test_updates_values_and_names_match_tensorflow():
    updates, reads, names, variables = run_metrics(tf)
    assert names == GOLDEN["names"].tolist()
    assert variables == GOLDEN["variables"].tolist()
    for b in range(3):
        for i, (update, value) in enumerate(zip(updates[b], reads[b])):
            for kind, got in (("update", update), ("value", value)):
                want = GOLDEN[f"{kind}/{b}/{i}"]
                assert np.asarray(got).dtype == want.dtype, (kind, b, i)
                np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{kind}/{b}/{i}")


def test_precision_at_k_by_numpy():
    top = np.argsort(-SCORES, axis=-1, kind="stable")[..., :2]
    hits = np.cumsum([sum(len(set(t) & set(lab)) for t, lab in zip(top[b], LABELS[b])) for b in range(3)])
    want = hits / (2.0 * 4 * np.arange(1, 4))
    np.testing.assert_allclose([u[4] for u in run_metrics(tf)[0]], want)
