"""The GPU convolution and pooling kernels against the CPU's, forward and backward, in every layout;
under NUMBA_ENABLE_CUDASIM=1 without a GPU (each CUDA thread a Python thread: sizes stay small)."""

import numpy as np
import pytest

import numflow as tf

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not tf.test.is_gpu_available(), reason="no CUDA device "
                                                   "(set NUMBA_ENABLE_CUDASIM=1 to use the simulator)")]

RNG = np.random.default_rng(0)


def _x(*shape, ties=False):
    if ties:
        return RNG.integers(-1, 2, shape).astype(np.float32)
    return RNG.standard_normal(shape).astype(np.float32)


CASES = {
    "conv2d_same_s2": (lambda x, w: tf.nn.conv2d(x, w, 2, "SAME"), [(1, 5, 4, 3), (3, 2, 3, 2)]),
    "conv2d_nchw_dilated": (lambda x, w: tf.nn.conv2d(x, w, 1, "VALID", data_format="NCHW", dilations=[1, 1, 2, 1]),
                            [(1, 2, 5, 4), (2, 2, 2, 3)]),
    "conv2d_explicit_grouped": (lambda x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 0], [0, 2], [0, 0]]),
                                [(1, 3, 3, 4), (2, 2, 2, 4)]),
    "conv3d_ncdhw": (lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 2, 1], "SAME", data_format="NCDHW"),
                     [(1, 2, 2, 3, 3), (2, 2, 2, 2, 2)]),
    "depthwise": (lambda x, w: tf.nn.depthwise_conv2d_native(x, w, [1, 2, 1, 1], "SAME"), [(1, 4, 3, 2), (2, 2, 2, 2)]),
    "conv2d_transpose": (lambda x, w: tf.nn.conv2d_transpose(x, w, [1, 5, 4, 2], 2, "SAME"),
                         [(1, 3, 2, 3), (3, 2, 2, 3)]),
    "max_pool_ties": (lambda x: tf.nn.max_pool(x, 2, 1, "SAME"), [(1, 4, 3, 2)]),
    "max_pool_nchw": (lambda x: tf.nn.max_pool(x, [1, 1, 3, 2], [1, 1, 2, 1], "VALID", data_format="NCHW"),
                      [(1, 2, 5, 4)]),
    "max_pool3d_ties": (lambda x: tf.nn.max_pool3d(x, 2, 1, "VALID"), [(1, 3, 2, 3, 2)]),
    "avg_pool": (lambda x: tf.nn.avg_pool(x, 3, 2, "SAME"), [(1, 5, 4, 2)]),
    "avg_pool3d_ncdhw": (lambda x: tf.nn.avg_pool3d(x, [1, 1, 2, 2, 1], [1, 1, 1, 2, 1], "SAME",
                                                    data_format="NCDHW"), [(1, 2, 2, 3, 3)]),
}


def _run(device, build, values):
    with tf.Graph().as_default():
        with tf.device(device):
            xs = [tf.constant(v) for v in values]
            out = build(*xs)
            u = tf.constant(np.linspace(0.5, 1.5, int(np.prod(out.shape.as_list()))).reshape(out.shape.as_list())
                            .astype(np.float32))
            grads = tf.gradients(tf.reduce_sum(out * u), xs)
            # MaxPoolGradGrad and AvgPool of AvgPoolGrad: the gradient of the first input's gradient.
            second = tf.gradients(tf.reduce_sum(grads[0] * xs[0]), u)[0] if len(xs) == 1 else None
        with tf.Session() as sess:
            return sess.run([out, grads] + ([second] if second is not None else []))


@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_matches_cpu(name):
    build, shapes = CASES[name]
    values = [_x(*s, ties="ties" in name) for s in shapes]
    gpu = _run("/gpu:0", build, values)
    cpu = _run("/cpu:0", build, values)
    for got, want in zip(_flat(gpu), _flat(cpu)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _flat(values):
    out = []
    for v in values:
        out.extend(_flat(v) if isinstance(v, list) else [v])
    return out
