"""The CUDA batch-norm kernels (a GPU, or Numba's simulator) against the CPU kernels, and through a
session with the op placed on the GPU. Small shapes: the simulator runs each CUDA thread in Python."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels.cpu import norm as cpu_norm

cuda = pytest.importorskip("numba.cuda")
pytestmark = pytest.mark.cuda
needs_cuda = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator in this process")


def _ctx(**attrs):
    from numflow.devices.cuda import CUDADevice

    return SimpleNamespace(attrs=attrs, op_name="bn", device=CUDADevice())


@needs_cuda
@pytest.mark.parametrize("fmt, shape, training, factor", [("NHWC", (2, 3, 2, 4), True, 1.0),
                                                          ("NCHW", (2, 4, 3, 2), True, 0.25),
                                                          ("NCHW", (2, 4, 3, 2), False, 1.0)])
def test_forward_and_gradient_match_the_cpu_kernels(fmt, shape, training, factor):
    from numflow_kernels.cuda import norm as cuda_norm

    rng = np.random.default_rng(0)
    channels = shape[1] if fmt == "NCHW" else shape[-1]
    x = (rng.normal(size=shape) * 2 + 1).astype(np.float32)
    dy = rng.normal(size=shape).astype(np.float32)
    vectors = [rng.uniform(0.5, 1.5, channels).astype(np.float32) for _ in range(4)]
    ctx = _ctx(epsilon=1e-3, exponential_avg_factor=factor, data_format=fmt, is_training=training)
    want = cpu_norm.fused_batch_norm(ctx, x, *vectors)
    got = cuda_norm.fused_batch_norm(ctx, cuda.to_device(x), *[cuda.to_device(v) for v in vectors])
    for w, g in zip(want, got):
        np.testing.assert_allclose(g.copy_to_host(), w, rtol=1e-5, atol=1e-6)
    saved = [cuda.to_device(w) for w in want[3:]]
    want = cpu_norm.fused_batch_norm_grad(ctx, dy, x, vectors[0], *want[3:])
    got = cuda_norm.fused_batch_norm_grad(ctx, cuda.to_device(dy), cuda.to_device(x), cuda.to_device(vectors[0]),
                                          *saved)
    for w, g in zip(want, got):
        np.testing.assert_allclose(g.copy_to_host(), w, rtol=1e-5, atol=1e-5)


@needs_cuda
def test_fused_batch_norm_runs_on_the_gpu_in_a_session():
    import numflow as tf

    x_value = np.random.default_rng(1).normal(size=(2, 2, 2, 3)).astype(np.float32)
    with tf.Graph().as_default():
        with tf.device("/gpu:0"):
            x = tf.constant(x_value)
            y, mean, _ = tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]))
            (dx,) = tf.gradients(y, [x], grad_ys=tf.constant(np.ones_like(x_value)))
        config = tf.ConfigProto(allow_soft_placement=False)
        with tf.Session(config=config) as sess:
            got_y, got_mean, got_dx = sess.run([y, mean, dx])
    np.testing.assert_allclose(got_mean, x_value.reshape(-1, 3).mean(0), rtol=1e-6)
    normalized = (x_value - x_value.reshape(-1, 3).mean(0)) / np.sqrt(x_value.reshape(-1, 3).var(0) + 1e-3)
    np.testing.assert_allclose(got_y, normalized, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got_dx, 0, atol=1e-5)  # y's sum per channel is constant: no gradient
