"""tf.image.sample_distorted_bounding_box draws TensorFlow's crops for the same seeds, run after run
(data/tf_crop_sampling_golden.json, written by data/make_tf_crop_sampling_golden.py)."""

import json
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

golden = load_script(pathlib.Path(__file__).parent / "data" / "make_tf_crop_sampling_golden.py")
GOLDEN = json.loads(golden.GOLDEN.read_text())


@pytest.mark.parametrize("name, size, dtype, boxes, kwargs", golden.SCENARIOS, ids=[s[0] for s in golden.SCENARIOS])
def test_each_run_draws_tensorflows_crop(name, size, dtype, boxes, kwargs):
    with tf.Graph().as_default(), tf.Session() as sess:
        crop = tf.image.sample_distorted_bounding_box(tf.constant(size, dtype),
                                                      tf.constant(boxes, tf.float32, shape=[1, len(boxes[0]), 4]),
                                                      **kwargs)
        assert crop.begin.dtype == dtype and crop.bboxes.shape.as_list() == [1, 1, 4]
        runs = [sess.run(crop) for _ in range(golden.RUNS)]
    for got, want in zip(runs, GOLDEN[name]):
        assert got.begin.tolist() == want["begin"] and got.size.tolist() == want["size"]
        np.testing.assert_array_equal(got.bboxes, np.float32(want["bboxes"]))


def test_the_crop_slices_the_image_and_stays_inside_it():
    image = tf.reshape(tf.range(48 * 64 * 3), [48, 64, 3])
    begin, size, _ = tf.image.sample_distorted_bounding_box(tf.shape(image), [[[0.0, 0.0, 1.0, 1.0]]], seed=4)
    with tf.Session() as sess:
        for _ in range(5):
            (y, x, _), (h, w, _), crop = sess.run([begin, size, tf.slice(image, begin, size)])
            assert 0 <= y and y + h <= 48 and 0 <= x and x + w <= 64
            np.testing.assert_array_equal(crop, np.arange(48 * 64 * 3).reshape(48, 64, 3)[y:y + h, x:x + w])


def test_bad_boxes_and_ranges_get_tensorflows_errors():
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="No bounding boxes provided as input. One must "
                                                                 "enable use_image_if_no_bounding_boxes"):
            sess.run(tf.image.sample_distorted_bounding_box([10, 10, 3], tf.zeros([1, 0, 4])))
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"All bounding box coordinates must be in "
                                                                 r"\[0.0, 1.0\]: 1.5"):
            sess.run(tf.image.sample_distorted_bounding_box([10, 10, 3], [[[0.0, 0.0, 1.5, 1.0]]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Area range must be less then or equal to 1.0"):
            sess.run(tf.image.sample_distorted_bounding_box([10, 10, 3], [[[0.0, 0.0, 1.0, 1.0]]],
                                                            area_range=[0.5, 1.5]))
    with pytest.raises(ValueError, match="Dimension must be 3 but is 2"):
        tf.image.sample_distorted_bounding_box([10, 10], [[[0.0, 0.0, 1.0, 1.0]]])
