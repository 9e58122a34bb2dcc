"""CUDA apply kernels against their CPU twins, and optimizers training variables placed on a GPU.

Run under Numba's CUDA simulator without a GPU: ``NUMBA_ENABLE_CUDASIM=1 python -m pytest -m cuda
tests/train/test_optimizers_cuda.py`` (``tox -e cudasim``). Skipped when neither is available.
"""

import numba.cuda
import numpy as np
import pytest
from test_optimizers_kernels import KERNELS, _arrays

import numflow as tf
from numflow_kernels.cpu import training as cpu

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not numba.cuda.is_available(), reason="no CUDA device "
                                                   "(set NUMBA_ENABLE_CUDASIM=1 to use the simulator)")]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_cuda_kernels_match_the_cpu_kernels(name, dtype):
    from numflow_kernels.cuda import training as gpu

    count, scalars, positive = KERNELS[name]
    arrays = _arrays(37, count, dtype, seed=3, positive=positive)
    if name == "centered_rms_prop":
        arrays[2] += arrays[1] * arrays[1]
    scalars = [dtype(s) for s in scalars]
    on_device = [numba.cuda.to_device(a) for a in arrays]
    getattr(cpu, name)(*arrays, *scalars)
    getattr(gpu, name)(*on_device, *scalars)
    for want, got in zip(arrays, on_device):
        np.testing.assert_allclose(got.copy_to_host(), want, rtol=1e-6 if dtype == np.float32 else 1e-14)


@pytest.mark.parametrize("use_nesterov", [False, True])
def test_cuda_nesterov_twins(use_nesterov):
    from numflow_kernels.cuda import training as gpu

    var, m, v, grad = _arrays(11, 4, np.float64, positive=(2,))
    on_device = [numba.cuda.to_device(a) for a in (var, m, v, grad)]
    cpu.adam(var, m, v, grad, 0.01, 0.9, 0.999, 1e-8, use_nesterov)
    gpu.adam(*on_device, 0.01, 0.9, 0.999, 1e-8, use_nesterov)
    np.testing.assert_allclose(on_device[0].copy_to_host(), var, rtol=1e-14)


@pytest.mark.skipif(not tf.test.is_gpu_available(), reason="no GPU device in numflow sessions")
@pytest.mark.parametrize("make", [
    pytest.param(lambda: tf.train.AdamOptimizer(0.1), id="adam"),
    pytest.param(lambda: tf.train.MomentumOptimizer(0.1, 0.9), id="momentum"),
    pytest.param(lambda: tf.train.RMSPropOptimizer(0.1, centered=True), id="rmsprop"),
    pytest.param(lambda: tf.train.AdadeltaOptimizer(1.0), id="adadelta"),
    pytest.param(lambda: tf.train.ProximalGradientDescentOptimizer(0.1, 0.05, 0.1), id="proximal_gd"),
    pytest.param(lambda: tf.train.ProximalAdagradOptimizer(0.1, l1_regularization_strength=0.05,
                                                           l2_regularization_strength=0.1), id="proximal_adagrad"),
    pytest.param(lambda: tf.train.FtrlOptimizer(0.5, l1_regularization_strength=0.01,
                                                l2_shrinkage_regularization_strength=0.1), id="ftrl"),
])
def test_optimizer_on_gpu_matches_cpu(make):
    start = np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32)
    results = []
    for device in ("/gpu:0", "/cpu:0"):
        with tf.Graph().as_default():
            with tf.device(device):
                w = tf.Variable(start, name="w")
            train = make().minimize(tf.reduce_sum(w * w))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                results.append(sess.run(w))
    np.testing.assert_allclose(results[0], results[1], rtol=1e-6)
