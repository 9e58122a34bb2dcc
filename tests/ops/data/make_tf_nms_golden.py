"""Regenerate tf_nms_golden.json: what TensorFlow 2.21's non-max suppressions select, for the boxes,
scores and overlaps below (ties in score, a box given by its other corners, soft NMS).

Run with TensorFlow's interpreter: /opt/tfenv/bin/python tests/ops/data/make_tf_nms_golden.py
"""

import json
import pathlib

import numpy as np

GOLDEN = pathlib.Path(__file__).resolve().parent / "tf_nms_golden.json"
# (name, function, keyword arguments besides the boxes or overlaps, scores and max_output_size)
SCENARIOS = [
    ("hard", "non_max_suppression", {"max_output_size": 12, "iou_threshold": 0.3}),
    ("with_scores_hard", "non_max_suppression_with_scores", {"max_output_size": 12, "iou_threshold": 0.3}),
    ("soft", "non_max_suppression_with_scores", {"max_output_size": 12, "iou_threshold": 0.4,
                                                 "score_threshold": 0.1, "soft_nms_sigma": 0.5}),
    ("soft_all", "non_max_suppression_with_scores", {"max_output_size": 30, "soft_nms_sigma": 2.0}),
    ("padded", "non_max_suppression_padded", {"max_output_size": 25, "iou_threshold": 0.2, "score_threshold": 0.3,
                                              "pad_to_max_output_size": True}),
    ("not_padded", "non_max_suppression_padded", {"max_output_size": 20, "iou_threshold": 0.3}),
    ("overlaps", "non_max_suppression_overlaps", {"max_output_size": 10, "overlap_threshold": 0.6,
                                                  "score_threshold": 0.2}),
]


def inputs():
    rs = np.random.RandomState(3)
    corner, size = rs.rand(30, 2) * 10, rs.rand(30, 2) * 4 + 0.5
    boxes = np.concatenate([corner, corner + size], 1).astype(np.float32)
    boxes[3] = boxes[3, [2, 3, 0, 1]]
    scores = rs.rand(30).astype(np.float32)
    scores[7] = scores[8]
    overlaps = rs.rand(30, 30).astype(np.float32)
    return boxes, scores, overlaps


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    boxes, scores, overlaps = inputs()
    out = {}
    with tf.Session() as sess:
        for name, function, kwargs in SCENARIOS:
            first = overlaps if function == "non_max_suppression_overlaps" else boxes
            result = sess.run(getattr(tf.image, function)(tf.constant(first), tf.constant(scores), **kwargs))
            out[name] = [np.asarray(r).tolist() for r in (result if isinstance(result, tuple) else (result,))]
    GOLDEN.write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
