"""Errors of total_variation, image_gradients, adjust_gamma, psnr and ssim in TensorFlow 2.21's words, and
PSNR and total variation by their definitions (TensorFlow's values, names and gradients are among the golden
cases of ``math_cases.py``)."""

import numpy as np
import pytest
from math_cases import IMAGES

import numflow as tf


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^'images' must be either 3 or 4-dimensional.$"):
            tf.image.total_variation(tf.ones([2, 2]))
        with pytest.raises(ValueError, match=r"^image_gradients expects a 4D tensor \[batch_size, h, w, d\], not"):
            tf.image.image_gradients(tf.ones([2, 2, 3]))
        with pytest.raises(ValueError, match="^Gamma should be a non-negative real number.$"):
            tf.image.adjust_gamma(tf.ones([2, 2, 3]), -1.0)
        with pytest.raises(ValueError):
            tf.image.psnr(tf.ones([2, 4, 4, 3]), tf.ones([2, 4, 5, 3]), 1.0)
        small = tf.placeholder_with_default(np.ones((1, 2, 2, 1), np.float32), [None, None, None, 1])
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.image.ssim(small, small, 1.0))


def test_by_definition():
    other = IMAGES[::-1]
    with tf.Graph().as_default(), tf.Session() as sess:
        psnr, tv = sess.run([tf.image.psnr(IMAGES, other, 1.0), tf.image.total_variation(tf.constant(IMAGES))])
    mse = np.square(IMAGES.astype(np.float64) - other).mean(axis=(1, 2, 3))
    np.testing.assert_allclose(psnr, -10 * np.log10(mse), rtol=1e-5)
    want = np.abs(np.diff(IMAGES, axis=1)).sum((1, 2, 3)) + np.abs(np.diff(IMAGES, axis=2)).sum((1, 2, 3))
    np.testing.assert_allclose(tv, want, rtol=1e-5)
