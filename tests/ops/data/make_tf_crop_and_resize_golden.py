"""Regenerate tf_crop_and_resize_golden.npz: TensorFlow 2.21's tf.image.crop_and_resize, and the
gradients of the sum of its squares to the image and to the boxes, for each case below.

Run with TensorFlow's interpreter: /opt/tfenv/bin/python tests/ops/data/make_tf_crop_and_resize_golden.py
"""

import pathlib

import numpy as np

GOLDEN = pathlib.Path(__file__).resolve().parent / "tf_crop_and_resize_golden.npz"
# Boxes inside, the whole image, partly outside, one point, and flipped; two images in the batch.
BOXES = [[0.1, 0.2, 0.7, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.3, 0.5, 1.3], [0.5, 0.5, 0.5, 0.5],
         [0.9, 0.8, 0.1, 0.2]]
BOX_INDICES = [0, 1, 1, 0, 1]
# (name, image dtype, crop size, method, extrapolation value)
CASES = [
    ("bilinear", "float32", [3, 4], "bilinear", 0.0),
    ("nearest", "float32", [5, 3], "nearest", -1.5),
    ("one_pixel", "float32", [1, 1], "bilinear", 0.0),
    ("one_row", "float64", [1, 6], "bilinear", 2.0),
    ("uint8", "uint8", [4, 4], "bilinear", 0.0),
]


def image(dtype):
    values = np.random.RandomState(0).randn(2, 7, 9, 3) * 50 + 100
    return values.clip(0, 255).astype(dtype)


def main():
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    out = {}
    for name, dtype, size, method, extrapolation in CASES:
        with tf.Graph().as_default(), tf.Session() as sess:
            x, boxes = tf.constant(image(dtype)), tf.constant(BOXES, tf.float32)
            crops = tf.image.crop_and_resize(x, boxes, BOX_INDICES, size, method=method,
                                             extrapolation_value=extrapolation)
            grad_image, grad_boxes = tf.gradients(tf.reduce_sum(crops * crops), [x, boxes])
            out[f"{name}/crops"], out[f"{name}/grad_boxes"] = sess.run([crops, grad_boxes])
            if grad_image is not None:
                out[f"{name}/grad_image"] = sess.run(grad_image)
    np.savez(GOLDEN, **out)


if __name__ == "__main__":
    main()
