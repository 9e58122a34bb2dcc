"""depth_to_space, space_to_depth and extract_image_patches against TensorFlow's values, gradients and names
(``data/tf_patch_golden.npz``, made by ``data/make_tf_case_goldens.py`` from the graphs of ``patch_cases.py``),
their static shapes and errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from patch_cases import CASES, IMAGES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_patch_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_gradients_and_names(name):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=1e-6, atol=1e-5, named=3)


def test_patches_by_hand():
    # A 3x3 window dilated by 2 over rows 0, 2, 4 and columns 0, 2, 4, the channels innermost.
    with tf.Graph().as_default(), tf.Session() as sess:
        x = np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2)
        out = sess.run(tf.extract_image_patches(x, [1, 3, 3, 1], [1, 1, 1, 1], [1, 2, 2, 1], "VALID"))
    assert out.shape == (2, 1, 2, 18)
    np.testing.assert_array_equal(out[1, 0, 1], x[1, 0:5:2, 1:6:2].reshape(-1))


def test_static_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4, None, 12])
        assert tf.depth_to_space(x, 2).shape.as_list() == [None, 8, None, 3]
        assert tf.space_to_depth(x, 2).shape.as_list() == [None, 2, None, 48]
        patches = tf.extract_image_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
        assert patches.shape.as_list() == [None, 2, None, 48]
        assert tf.extract_image_patches(x, [1, 5, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID").shape[1] == 0


def test_build_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 4 but is 3"):
            tf.depth_to_space(IMAGES, 2)
        with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 3 but is 4"):
            tf.space_to_depth(IMAGES, 3)
        with pytest.raises(ValueError, match="Attr 'block_size' of 'SpaceToDepth' Op passed 1 less than minimum 2."):
            tf.space_to_depth(IMAGES, 1)
        with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
            tf.space_to_depth(IMAGES[0], 2)
        with pytest.raises(ValueError, match="Attr 'ksizes' of 'ExtractImagePatches' Op passed list of length 3"):
            tf.extract_image_patches(IMAGES, [1, 2, 3], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
        with pytest.raises(ValueError, match="only supports ksizes across space"):
            tf.extract_image_patches(IMAGES, [2, 2, 3, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
        with pytest.raises(ValueError, match="Computed output size would be negative"):
            tf.extract_image_patches(IMAGES, [1, 1, 5, 1], [1, 1, 1, 1], [1, 1, 2, 1], "VALID")


def test_patch_gradient_by_finite_differences():
    x0 = np.random.RandomState(0).randn(1, 4, 5, 2)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float64, x0.shape)
        loss = tf.reduce_sum(tf.sin(tf.extract_image_patches(x, [1, 2, 3, 1], [1, 1, 2, 1], [1, 2, 1, 1], "SAME")))
        grad = sess.run(tf.gradients(loss, x)[0], {x: x0})
        step, numeric = 1e-6, np.zeros_like(x0)
        for i in np.ndindex(*x0.shape):
            up, down = x0.copy(), x0.copy()
            up[i] += step
            down[i] -= step
            numeric[i] = (sess.run(loss, {x: up}) - sess.run(loss, {x: down})) / (2 * step)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)
