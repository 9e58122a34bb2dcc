"""The graphs behind ``data/tf_losses_golden.npz``, written once for both engines: each function takes
the ``tf`` module (TensorFlow's compat.v1 when the golden file is made, numflow in the tests)."""

import numpy as np

LOSSES = ("absolute_difference", "mean_squared_error", "huber_loss", "log_loss", "hinge_loss",
          "sigmoid_cross_entropy", "softmax_cross_entropy")
LOGIT_LOSSES = ("hinge_loss", "sigmoid_cross_entropy", "softmax_cross_entropy")
REDUCTIONS = ("none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
              "weighted_sum_by_nonzero_weights")
METRICS = ("accuracy", "mean", "mean_squared_error", "mean_absolute_error", "precision", "recall",
           "true_positives", "false_positives", "false_negatives", "true_negatives")
TRAIN_CASES = ("softmax_smoothed", "sparse_weighted", "sigmoid_mse")


def loss_weights(name, a):
    """The weights each loss is run with: softmax_cross_entropy has one loss per row, so no "full"."""
    weights = {"one": 1.0, "scalar": a["w_scalar"], "rows": a["w_rows"], "full": a["w_full"], "zero": a["w_zero"]}
    if name == "softmax_cross_entropy":
        del weights["full"]
        weights.update(rows=a["w_rows"][:, 0], zero=a["w_zero"][:, 0])
    return weights


def loss_call(tf, name, a, weights, reduction="weighted_sum_by_nonzero_weights", x=None):
    """The loss ``name`` of the inputs ``a``; ``x`` replaces its predictions or logits."""
    kw = dict(weights=weights, reduction=reduction)
    if name in LOGIT_LOSSES:
        labels = a["onehot"] if name == "softmax_cross_entropy" else a["binary"]
        return getattr(tf.losses, name)(labels, a["logits"] if x is None else x, **kw)
    return getattr(tf.losses, name)(a["labels"], a["predictions"] if x is None else x, **kw)


def metric_sequence(tf, name, a, weighted):
    """``(update_op results, value after each update)`` of metric ``name`` over three batches."""
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.int64, [6])
        predictions = tf.placeholder(tf.int64, [6])
        values = tf.placeholder(tf.float32, [6])
        weights = tf.placeholder(tf.float32, [6]) if weighted else None
        if name == "mean":
            value, update = tf.metrics.mean(values, weights=weights)
        elif name in ("mean_squared_error", "mean_absolute_error"):
            value, update = getattr(tf.metrics, name)(tf.cast(labels, tf.float32), values, weights=weights)
        else:
            value, update = getattr(tf.metrics, name)(labels, predictions, weights=weights)
        updates, after = [], []
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for i in range(3):
                feed = {labels: a["metric_labels"][i], predictions: a["metric_predictions"][i],
                        values: a["metric_values"][i]}
                if weighted:
                    feed[weights] = a["metric_weights"][i]
                updates.append(sess.run(update, feed))
                after.append(sess.run(value))
        return np.array(updates, np.float32), np.array(after, np.float32)


def train_losses(tf, a, case, steps=25):
    """A 4-3 softmax layer trained by gradient descent: the total loss before each step and after the last."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        x = tf.constant(a["train_x"])
        w = tf.get_variable("w", [4, 3], initializer=tf.glorot_uniform_initializer(seed=1),
                            regularizer=lambda v: 0.01 * tf.nn.l2_loss(v))
        b = tf.get_variable("b", [3], initializer=tf.zeros_initializer())
        logits = tf.matmul(x, w) + b
        targets = np.eye(3, dtype=np.float32)[a["train_y"]]
        if case == "softmax_smoothed":
            tf.losses.softmax_cross_entropy(targets, logits, label_smoothing=0.1)
        elif case == "sparse_weighted":
            tf.losses.sparse_softmax_cross_entropy(a["train_y"], logits, weights=np.arange(8, dtype=np.float32) % 3)
        else:
            tf.losses.sigmoid_cross_entropy(targets, logits)
            tf.losses.mean_squared_error(targets, tf.nn.softmax(logits), weights=0.5)
        total = tf.losses.get_total_loss()
        train = tf.train.GradientDescentOptimizer(0.5).minimize(total)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = []
            for _ in range(steps):
                out.append(sess.run(total))
                sess.run(train)
            out.append(sess.run(total))
            return np.array(out, np.float32)
