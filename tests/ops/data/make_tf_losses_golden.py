"""Regenerate tf_losses_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    python tests/ops/data/make_tf_losses_golden.py   # in an environment with tensorflow installed

The graphs are those of ``tests/ops/loss_cases.py``. Keys: the inputs;
``loss/<loss>/<weights>/<reduction>``; ``grad/<loss>/<weights>`` (of the default reduction with
respect to the predictions or logits); ``metric/<metric>/<plain or weighted>/update`` and
``.../value`` (after each batch); ``train/<case>`` (the loss before each training step).
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from loss_cases import (  # noqa: E402
    LOGIT_LOSSES,
    LOSSES,
    METRICS,
    REDUCTIONS,
    TRAIN_CASES,
    loss_call,
    loss_weights,
    metric_sequence,
    train_losses,
)

tf.disable_v2_behavior()


def inputs():
    rng = np.random.RandomState(7)
    logits = (rng.randn(4, 3) * 3).astype(np.float32)
    logits[0, 0] = 0.0
    return {
        "labels": rng.rand(4, 3).astype(np.float32),
        "binary": (rng.rand(4, 3) > 0.5).astype(np.float32),
        "predictions": rng.uniform(0.05, 0.95, (4, 3)).astype(np.float32),
        "logits": logits,
        "onehot": np.eye(3, dtype=np.float32)[[2, 0, 1, 1]],
        "sparse_labels": np.array([2, 0, 1, 1], np.int32),
        "w_scalar": np.float32(0.5),
        "w_rows": np.array([[1.0], [0.0], [2.0], [0.5]], np.float32),
        "w_full": (rng.rand(4, 3) * (rng.rand(4, 3) > 0.3)).astype(np.float32),
        "w_zero": np.zeros((4, 1), np.float32),
        "xent_extremes": np.array([-100.0, -20.0, -1.0, 0.0, 1.0, 20.0, 100.0], np.float32),
        "metric_labels": rng.randint(0, 2, (3, 6)).astype(np.int64),
        "metric_predictions": rng.randint(0, 2, (3, 6)).astype(np.int64),
        "metric_values": rng.randn(3, 6).astype(np.float32),
        "metric_weights": rng.choice([0.0, 0.5, 1.0, 2.0], (3, 6)).astype(np.float32),
        "train_x": rng.randn(8, 4).astype(np.float32),
        "train_y": rng.randint(0, 3, 8).astype(np.int32),
    }


def main():
    a = inputs()
    out = dict(a)
    with tf.Graph().as_default():
        fetches = {}
        for name in LOSSES:
            for wname, w in loss_weights(name, a).items():
                for reduction in REDUCTIONS:
                    fetches[f"loss/{name}/{wname}/{reduction}"] = loss_call(tf, name, a, w, reduction)
                x = tf.constant(a["logits"] if name in LOGIT_LOSSES else a["predictions"])
                fetches[f"grad/{name}/{wname}"] = tf.gradients(loss_call(tf, name, a, w, x=x), x)[0]
        logits = tf.constant(a["logits"])
        fetches["loss/sparse/one"] = tf.losses.sparse_softmax_cross_entropy(a["sparse_labels"], logits)
        fetches["loss/sparse/rows"] = tf.losses.sparse_softmax_cross_entropy(a["sparse_labels"][:, None], logits,
                                                                             weights=a["w_rows"])
        fetches["grad/sparse/rows"] = tf.gradients(fetches["loss/sparse/rows"], logits)[0]
        fetches["loss/sigmoid_smoothed"] = tf.losses.sigmoid_cross_entropy(a["binary"], logits, label_smoothing=0.2)
        fetches["grad/sigmoid_smoothed"] = tf.gradients(fetches["loss/sigmoid_smoothed"], logits)[0]
        fetches["loss/softmax_smoothed"] = tf.losses.softmax_cross_entropy(a["onehot"], logits, label_smoothing=0.2)
        fetches["grad/softmax_smoothed"] = tf.gradients(fetches["loss/softmax_smoothed"], logits)[0]
        fetches["loss/huber_delta"] = tf.losses.huber_loss(a["labels"], logits, delta=0.3)
        extremes = tf.constant(a["xent_extremes"])
        for z in (0, 1):
            xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.fill([7], float(z)), logits=extremes)
            fetches[f"xent/{z}"] = xent
            fetches[f"xent_grad/{z}"] = tf.gradients(xent, extremes)[0]
        fetches["l2_normalize"] = tf.nn.l2_normalize(logits, axis=1)
        with tf.Session() as sess:
            out.update(sess.run(fetches))
    for name in METRICS:
        for kind in ("plain", "weighted"):
            updates, values = metric_sequence(tf, name, a, kind == "weighted")
            out[f"metric/{name}/{kind}/update"], out[f"metric/{name}/{kind}/value"] = updates, values
    for case in TRAIN_CASES:
        out[f"train/{case}"] = train_losses(tf, a, case)
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_losses_golden.npz"), **out)


if __name__ == "__main__":
    main()
