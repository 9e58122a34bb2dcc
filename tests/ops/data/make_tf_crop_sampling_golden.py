"""Regenerate tf_crop_sampling_golden.json: the crops TensorFlow 2.21's
tf.image.sample_distorted_bounding_box draws, three runs of each scenario in one session.

Run with TensorFlow's interpreter: /opt/tfenv/bin/python tests/ops/data/make_tf_crop_sampling_golden.py
"""

import json
import pathlib

GOLDEN = pathlib.Path(__file__).resolve().parent / "tf_crop_sampling_golden.json"
BOXES = [[[0.1, 0.2, 0.5, 0.9], [0.3, 0.3, 0.8, 0.6]]]
# (name, image size and its dtype, boxes, keyword arguments)
SCENARIOS = [
    ("defaults", [480, 640, 3], "int32", BOXES, {"seed": 3}),
    ("covered_half", [480, 640, 3], "int32", BOXES, {"seed": 3, "seed2": 8, "min_object_covered": 0.5}),
    ("no_boxes_int64", [37, 91, 1], "int64", [[]], {"seed": 5, "seed2": 9, "aspect_ratio_range": [0.5, 2.0],
                                                     "area_range": [0.1, 0.9], "max_attempts": 5,
                                                     "use_image_if_no_bounding_boxes": True}),
    ("falls_back_to_the_image", [224, 224, 3], "int32", BOXES, {"seed": 11, "min_object_covered": 0.9,
                                                                "area_range": [0.05, 0.1], "max_attempts": 3}),
    ("tall_crops", [300, 200, 3], "int32", [[[0.0, 0.0, 1.0, 1.0]]], {"seed": 1, "seed2": 2,
                                                                      "aspect_ratio_range": [0.2, 0.4],
                                                                      "area_range": [0.3, 0.6]}),
]
RUNS = 3


def main():
    import numpy as np
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    out = {}
    for name, size, dtype, boxes, kwargs in SCENARIOS:
        with tf.Graph().as_default(), tf.Session() as sess:
            crop = tf.image.sample_distorted_bounding_box(tf.constant(size, dtype),
                                                          tf.constant(boxes, tf.float32, shape=[1, len(boxes[0]), 4]),
                                                          **kwargs)
            runs = [sess.run(crop) for _ in range(RUNS)]
        out[name] = [{"begin": r.begin.tolist(), "size": r.size.tolist(), "bboxes": np.asarray(r.bboxes).tolist()}
                     for r in runs]
    GOLDEN.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
