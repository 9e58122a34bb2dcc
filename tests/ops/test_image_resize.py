"""The resize ops against TensorFlow's values, names and gradients (``data/tf_image_golden.npz``, made by
``data/make_tf_case_goldens.py`` from the graphs of ``image_cases.py``), their static shapes and errors."""

import pathlib

import numpy as np
import pytest
from case_golden import check_case as check_case_golden
from image_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_image_golden.npz")
RESIZE_CASES = sorted(name for name in CASES if name.startswith("resize_") and "crop" not in name)


def check_case(name, rtol=1e-5, atol=1e-5):
    check_case_golden(tf, run_case, GOLDEN, name, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", RESIZE_CASES)
def test_tensorflows_values_names_and_gradients(name):
    check_case(name)


def test_static_shapes_and_dtypes():
    with tf.Graph().as_default():
        unknown = tf.placeholder(tf.float32, [None, None, 3, 2])
        out = tf.image.resize_bilinear(unknown, tf.constant([5, 6]))
        assert (out.name, out.shape.as_list(), out.dtype) == ("ResizeBilinear:0", [None, 5, 6, 2], tf.float32)
        fed_size = tf.image.resize_nearest_neighbor(tf.zeros([1, 2, 2, 1], tf.uint8), tf.placeholder(tf.int32, [2]))
        assert (fed_size.shape.as_list(), fed_size.dtype) == ([1, None, None, 1], tf.uint8)
        assert tf.image.resize_images(tf.zeros([4, 4, 3], tf.uint8), [2, 8], method=1).shape.as_list() == [2, 8, 3]
        assert tf.image.resize_area(tf.zeros([1, 4, 4, 1], tf.int32), [3, 3]).dtype == tf.float32


def test_errors_at_build_time():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
            tf.image.resize_bilinear(np.zeros([4, 4, 1], np.float32), [2, 2])
        with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
            tf.image.resize_bilinear(np.zeros([1, 4, 4, 1], np.float32), [2, 2, 3])
        with pytest.raises(TypeError, match="Value passed to parameter 'images' has DataType string not in list"):
            tf.image.resize_bilinear(tf.constant([[[["a"]]]]), [2, 2])
        with pytest.raises(ValueError, match="^'images' must have either 3 or 4 dimensions.$"):
            tf.image.resize_images(np.zeros([4, 1], np.float32), [2, 2])
        with pytest.raises(ValueError, match="^Resize method is not implemented: 7$"):
            tf.image.resize_images(np.zeros([1, 4, 4, 1], np.float32), [2, 2], method=7)


@pytest.mark.parametrize("build, message", [
    (lambda x: tf.image.resize_bilinear(x, [2, 2], align_corners=True, half_pixel_centers=True),
     "If half_pixel_centers is True, align_corners must be False."),
    (lambda x: tf.image.resize_bicubic(x, [0, 2]), "output dimensions must be positive"),
    (lambda x: tf.image.resize_nearest_neighbor(x[:, :0], [2, 2]), "input image must be of non-zero size"),
])
def test_errors_at_run_time(build, message):
    with tf.Graph().as_default():
        out = build(tf.placeholder_with_default(np.zeros([1, 4, 4, 1], np.float32), None))
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(out)


@pytest.mark.parametrize("op", ["resize_bilinear", "resize_bicubic", "resize_nearest_neighbor"])
def test_gradients_are_the_adjoint_of_the_resize(op):
    """<resize(x), g> == <x, grad(g)>: the gradient scatters exactly what the forward op gathers."""
    rng = np.random.RandomState(3)
    x, g = rng.randn(1, 5, 4, 2), rng.randn(1, 3, 7, 2).astype(np.float32)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        out = getattr(tf.image, op)(xt, [3, 7], half_pixel_centers=True)
        grad = tf.gradients(out, xt, grad_ys=g.astype(out.dtype.as_numpy_dtype))[0]
        with tf.Session() as sess:
            resized, dx = sess.run([out, grad])
    assert dx.dtype == np.float64
    np.testing.assert_allclose(np.sum(resized * g), np.sum(x * dx), rtol=1e-5)
