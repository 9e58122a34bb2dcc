"""tf.image.crop_and_resize and its gradients give TensorFlow's bits (data/tf_crop_and_resize_golden.npz,
written by data/make_tf_crop_and_resize_golden.py); the gradients also agree with finite differences."""

import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

golden = load_script(pathlib.Path(__file__).parent / "data" / "make_tf_crop_and_resize_golden.py")
EXPECTED = np.load(golden.GOLDEN)


@pytest.mark.parametrize("name, dtype, size, method, extrapolation", golden.CASES, ids=[c[0] for c in golden.CASES])
def test_crops_and_gradients_are_tensorflows(name, dtype, size, method, extrapolation):
    x, boxes = tf.constant(golden.image(dtype)), tf.constant(golden.BOXES, tf.float32)
    crops = tf.image.crop_and_resize(x, boxes, golden.BOX_INDICES, size, method=method,
                                     extrapolation_value=extrapolation)
    assert crops.shape.as_list() == [5, *size, 3] and crops.dtype == tf.float32
    grad_image, grad_boxes = tf.gradients(tf.reduce_sum(crops * crops), [x, boxes])
    assert (grad_image is None) == (f"{name}/grad_image" not in EXPECTED.files)
    with tf.Session() as sess:
        got = sess.run({"crops": crops, "grad_boxes": grad_boxes,
                        **({"grad_image": grad_image} if grad_image is not None else {})})
    for key, value in got.items():
        want = EXPECTED[f"{name}/{key}"]
        assert value.dtype == want.dtype, key
        np.testing.assert_array_equal(value, want, err_msg=key)


def test_gradients_match_finite_differences():
    rs = np.random.RandomState(2)
    image_value = rs.rand(1, 5, 6, 2)
    boxes_value = np.array([[0.13, 0.21, 0.77, 0.68]], np.float32)
    x, boxes = tf.constant(image_value), tf.constant(boxes_value)
    loss = tf.reduce_sum(tf.image.crop_and_resize(x, boxes, [0], [3, 4]) ** 2)
    grad_image = tf.gradients(loss, x)[0]
    with tf.Session() as sess:
        analytic = sess.run(grad_image)
        eps = 1e-3
        for index in [(0, 1, 2, 0), (0, 3, 4, 1)]:
            up, down = image_value.copy(), image_value.copy()
            up[index] += eps
            down[index] -= eps
            numeric = (sess.run(loss, {x: up}) - sess.run(loss, {x: down})) / (2 * eps)
            assert analytic[index] == pytest.approx(numeric, rel=1e-3, abs=1e-4)


def test_a_box_index_past_the_batch_is_out_of_range():
    crops = tf.image.crop_and_resize(tf.zeros([2, 4, 4, 1]), [[0.0, 0.0, 1.0, 1.0]], [2], [2, 2])
    with tf.Session() as sess, pytest.raises(tf.errors.OutOfRangeError,
                                             match=r"box_index has values outside \[0, batch_size\)"):
        sess.run(crops)
    with pytest.raises(ValueError, match="method must be 'bilinear' or 'nearest'"):
        tf.image.crop_and_resize(tf.zeros([1, 4, 4, 1]), [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2], method="area")
