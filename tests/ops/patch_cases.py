"""The graphs behind ``data/tf_patch_golden.npz``, written once for both engines: depth_to_space,
space_to_depth and extract_image_patches with their gradients, each case returning the tensors to fetch."""

import numpy as np

_RNG = np.random.RandomState(3)
IMAGES = _RNG.randn(2, 4, 6, 3).astype(np.float32)
DEEP = _RNG.randn(2, 2, 3, 8).astype(np.float64)


def _weighted_grad(tf, x, out):
    weights = np.arange(np.prod(out.shape.as_list()), dtype=out.dtype.as_numpy_dtype).reshape(out.shape.as_list())
    return tf.gradients(tf.reduce_sum(out * weights / 7.0), x)[0]


def _depth_space(tf):
    deep, images = tf.constant(DEEP), tf.constant(IMAGES)
    up, down = tf.depth_to_space(deep, 2), tf.space_to_depth(images, 2, name="s2d")
    return [up, down, tf.nn.space_to_depth(tf.nn.depth_to_space(deep, 2), 2), _weighted_grad(tf, deep, up),
            _weighted_grad(tf, images, down)]


def _patches(tf, padding):
    images = tf.constant(IMAGES)
    outs = [tf.extract_image_patches(images, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], padding),
            tf.image.extract_patches(images, [1, 3, 3, 1], [1, 2, 3, 1], [1, 1, 1, 1], padding),
            tf.extract_image_patches(images, ksizes=[1, 1, 1, 1], strides=[1, 3, 4, 1], rates=[1, 1, 1, 1],
                                     padding=padding)]
    return outs + [_weighted_grad(tf, images, out) for out in outs]


CASES = {
    "depth_space": _depth_space,
    "patches_valid": lambda tf: _patches(tf, "VALID"),
    "patches_same": lambda tf: _patches(tf, "SAME"),
}


def run_case(tf, name):
    """The values of case ``name``'s tensors in one session run, and their names."""
    with tf.Graph().as_default():
        outs = CASES[name](tf)
        with tf.Session() as sess:
            return sess.run(outs), [t.name for t in outs]
