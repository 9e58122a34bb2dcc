"""The graphs behind ``data/tf_metric_at_k_golden.npz``, written once for both engines: root_mean_squared_error,
mean_iou, precision_at_k and recall_at_k over three batches. Each case returns its metric pairs; the golden
holds every update's and value's result, the names of the tensors and of the metric variables."""

import numpy as np

_RNG = np.random.RandomState(9)
SCORES = _RNG.rand(3, 4, 5).astype(np.float32)  # 3 batches of 4 examples over 5 classes
LABELS = np.array([[[0, 3], [1, 1], [4, -1], [2, 0]], [[3, 4], [0, 2], [1, 3], [4, 4]],
                   [[2, 1], [0, -1], [3, 0], [1, 4]]], np.int64)
WEIGHTS = np.array([[1.0, 0.5, 2.0, 0.0], [1.0, 1.0, 0.25, 3.0], [0.0, 1.0, 1.0, 0.5]], np.float32)
REGRESSION = _RNG.randn(3, 2, 3).astype(np.float32)


def _metrics(tf, scores, labels, weights, values):
    dense = tf.cast(tf.argmax(scores, 1), tf.int64)
    return [
        tf.metrics.root_mean_squared_error(values[0], values[1]),
        tf.metrics.root_mean_squared_error(values[0], values[1], weights=weights[:2, None], name="rmse"),
        tf.metrics.mean_iou(labels[:, 0] % 5, dense, 5),
        tf.metrics.mean_iou(labels[:, 0] % 5, dense, 5, weights=weights, name="iou"),
        tf.metrics.precision_at_k(labels, scores, 2), tf.metrics.precision_at_k(labels[:, 0], scores, 1),
        tf.metrics.precision_at_k(labels, scores, 3, class_id=4, weights=weights),
        tf.metrics.recall_at_k(labels, scores, 2), tf.metrics.recall_at_k(labels[:, :1], scores, 1, weights=weights),
        tf.metrics.recall_at_k(labels, scores, 3, class_id=0, name="r0"),
    ]


def run_metrics(tf):
    """Each metric's (update results, value results) over the batches, its two tensor names, and the names of
    the local variables, sorted."""
    with tf.Graph().as_default():
        scores = tf.placeholder(tf.float32, [None, 5])
        labels = tf.placeholder(tf.int64, [None, 2])
        weights = tf.placeholder(tf.float32, [None])
        values = tf.placeholder(tf.float32, [2, None, 3])
        pairs = _metrics(tf, scores, labels, weights, values)
        variables = sorted(v.op.name for v in tf.local_variables())
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            updates, reads = [], []
            for batch in range(3):
                feed = {scores: SCORES[batch], labels: LABELS[batch], weights: WEIGHTS[batch],
                        values: np.stack([REGRESSION[batch], REGRESSION[(batch + 1) % 3]])}
                updates.append(sess.run([p[1] for p in pairs], feed))
                reads.append(sess.run([p[0] for p in pairs]))
        names = [[p[0].name, p[1].name] for p in pairs]
        return updates, reads, names, variables
