"""tf.image's geometry and colour functions against TensorFlow's values and names (``data/tf_image_golden.npz``,
made by ``data/make_tf_case_goldens.py`` from the graphs of ``image_cases.py``), their static shapes and errors."""

import re

import numpy as np
import pytest
from image_cases import CASES
from test_image_resize import check_case

import numflow as tf

GEOMETRY = ["crop_to_bounding_box", "pad_to_bounding_box", "resize_image_with_crop_or_pad", "central_crop", "flips",
            "transpose", "rot90", "random_flips", "random_crop", "resize_image_with_pad", "draw_bounding_boxes"]


@pytest.mark.parametrize("name", GEOMETRY)
def test_geometry_as_tensorflow(name):
    check_case(name, rtol=0, atol=0)


COLOUR = ["per_image_standardization", "adjust_brightness", "adjust_contrast", "random_brightness",
          "random_contrast", "convert_image_dtype", "grayscale", "hsv", "adjust_saturation", "adjust_hue",
          "random_colour", "non_max_suppression"]


@pytest.mark.parametrize("name", COLOUR)
def test_colour_as_tensorflow(name):
    check_case(name, rtol=1e-6, atol=1e-6)


def test_every_case_is_checked():
    from test_image_resize import RESIZE_CASES

    assert set(CASES) == set(RESIZE_CASES) | set(GEOMETRY) | set(COLOUR)


def test_static_shapes_where_the_image_is_partly_known():
    with tf.Graph().as_default():
        batch = tf.placeholder(tf.float32, [None, 6, 8, 3])
        unknown_hw = tf.placeholder(tf.uint8, [None, None, 3])
        assert tf.image.central_crop(batch, 0.5).shape.as_list() == [None, 4, 4, 3]
        assert tf.image.central_crop(unknown_hw, 0.5).shape.as_list() == [None, None, 3]
        assert tf.image.crop_to_bounding_box(batch, 1, 1, 2, 3).shape.as_list() == [None, 2, 3, 3]
        assert tf.image.pad_to_bounding_box(unknown_hw, 1, 1, 9, 9).shape.as_list() == [9, 9, 3]
        assert tf.image.resize_image_with_crop_or_pad(unknown_hw, 5, 4).shape.as_list() == [5, 4, 3]
        assert tf.image.rot90(batch).shape.as_list() == [None, None, None, 3]
        assert tf.image.flip_left_right(unknown_hw).shape.as_list() == [None, None, 3]
        assert tf.image.random_flip_up_down(batch, seed=1).shape.as_list() == [None, 6, 8, 3]
        assert tf.image.transpose_image(batch).shape.as_list() == [None, 8, 6, 3]
        assert tf.image.grayscale_to_rgb(tf.placeholder(tf.float32, [None, 4, 1])).shape.as_list() == [None, 4, 3]
        assert tf.image.per_image_standardization(unknown_hw).dtype == tf.float32
        any_rank = tf.placeholder(tf.float32)
        flipped = tf.image.flip_up_down(any_rank)
        assert flipped.shape.ndims is None
        with tf.Session() as sess:
            image = np.arange(6.0).reshape(3, 2, 1)
            np.testing.assert_array_equal(sess.run(flipped, {any_rank: image}), image[::-1])
            np.testing.assert_array_equal(sess.run(flipped, {any_rank: image[None]}), image[None, ::-1])


@pytest.mark.parametrize("build, error, message", [
    (lambda: tf.image.crop_to_bounding_box(np.zeros([4, 4, 1]), 1, 1, 4, 4), ValueError,
     "width must be >= target + offset."),
    (lambda: tf.image.pad_to_bounding_box(np.zeros([4, 4, 1]), 1, 1, 4, 4), ValueError,
     "width must be <= target - offset"),
    (lambda: tf.image.central_crop(np.zeros([4, 4, 1]), 1.5), ValueError, "central_fraction must be within (0, 1]"),
    (lambda: tf.image.flip_left_right(np.zeros([4, 1])), ValueError,
     "'image' (shape (4, 1)) must be at least three-dimensional."),
    (lambda: tf.image.grayscale_to_rgb(tf.zeros([2, 2, 3])), ValueError,
     "Last dimension of a grayscale image should be size 1."),
    (lambda: tf.image.convert_image_dtype(tf.constant(["a"]), tf.float32), AttributeError,
     "image dtype must be either floating point or integer"),
    (lambda: tf.image.random_contrast(np.zeros([2, 2, 1]), 1.0, 0.5), ValueError, "upper must be > lower."),
    (lambda: tf.image.random_brightness(np.zeros([2, 2, 1]), -1.0), ValueError, "max_delta must be non-negative."),
    (lambda: tf.image.adjust_contrast(np.zeros([1], np.float32), 2.0), ValueError,
     "Shape must be at least rank 3 but is rank 1"),
    (lambda: tf.image.rot90(np.zeros([2, 2, 1]), k=tf.constant([1, 2])), ValueError, "Shape (2,) must have rank 0"),
])
def test_errors_in_tensorflows_words(build, error, message):
    with tf.Graph().as_default(), pytest.raises(error, match=re.escape(message)):
        build()


def test_run_time_checks_of_unknown_sizes():
    with tf.Graph().as_default():
        image = tf.placeholder(tf.float32, [None, None, 1])
        cropped = tf.image.crop_to_bounding_box(image, 1, 1, 3, 3)
        with tf.Session() as sess:
            assert sess.run(cropped, {image: np.ones([4, 4, 1])}).shape == (3, 3, 1)
            with pytest.raises(tf.errors.InvalidArgumentError, match="height must be >= target \\+ offset."):
                sess.run(cropped, {image: np.ones([3, 4, 1])})


@pytest.mark.parametrize("build, message", [
    (lambda d: tf.image.non_max_suppression(np.zeros([2, 4], np.float32), np.zeros([2], np.float32), 3, d(1.5)),
     "iou_threshold must be in [0, 1]"),
    (lambda d: tf.image.non_max_suppression(np.zeros([2, 4], np.float32), np.zeros([2], np.float32), d(-1)),
     "output size must be non-negative"),
    (lambda d: tf.image.adjust_hue(d(np.zeros([2, 4], np.float32)), 0.1),
     "input must be at least 3-D, got shape[2,4]"),
    (lambda d: tf.image.adjust_saturation(d(np.zeros([1, 2, 4], np.float32)), 0.1),
     "input must have 3 channels but input only has 4 channels."),
])
def test_colour_and_box_errors_at_run_time(build, message):
    with tf.Graph().as_default():
        out = build(lambda v: tf.placeholder_with_default(v, None))
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(message)):
            sess.run(out)


def test_colour_and_box_errors_at_build_time():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension must be 4 but is 3"):
            tf.image.non_max_suppression(np.zeros([2, 3], np.float32), np.zeros([2], np.float32), 3)
        with pytest.raises(ValueError, match="Dimension must be 3 but is 4"):
            tf.image.rgb_to_hsv(np.zeros([2, 4], np.float32))
        with pytest.raises(ValueError, match=r"^max_delta must be <= 0.5.$"):
            tf.image.random_hue(np.zeros([2, 2, 3], np.float32), 0.7)
        assert tf.image.non_max_suppression(tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.float32, [None]),
                                            5).shape.as_list() == [None]
