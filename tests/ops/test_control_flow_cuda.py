"""cond and while_loop with their ops and variables on a GPU, gradients included; under
NUMBA_ENABLE_CUDASIM=1 (tox -e cudasim) without a GPU.

Runs use the serial executor: Numba's simulator swaps module globals while a simulated kernel runs,
so two run at once on two threads (a cond beside a loop) would trip over each other.
"""

import numpy as np
import pytest

import numflow as tf
from numflow.runtime.executor import SyncExecutor

pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not tf.test.is_gpu_available(), reason="no CUDA device "
                                                   "(set NUMBA_ENABLE_CUDASIM=1 to use the simulator)"),
              pytest.mark.filterwarnings("ignore::numflow.runtime.placement.PlacementWarning")]


def test_cond_and_loop_on_a_gpu_with_their_gradients():
    x = tf.placeholder(tf.float32, [4])
    p = tf.placeholder(tf.bool, [])
    w_value = np.arange(4, dtype=np.float32)
    with tf.device("/gpu:0"):
        w = tf.Variable(w_value, name="w")
        y = tf.cond(p, lambda: x * w, lambda: x + w)
        _, z = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2.0 + w), [0, x])
    dx, dw = tf.gradients(tf.reduce_sum(y) + tf.reduce_sum(z), [x, w])
    ones = np.ones(4, np.float32)
    with tf.Session(pool=SyncExecutor()) as sess:
        sess.run(w.initializer)
        for taken in (True, False):
            got = sess.run([y, z, dx, dw], {x: ones, p: taken})
            np.testing.assert_allclose(got[0], ones * w_value if taken else ones + w_value)
            np.testing.assert_allclose(got[1], 8.0 * ones + 7.0 * w_value)  # v -> 2v + w, three times
            np.testing.assert_allclose(got[2], (w_value if taken else 1.0) + 8.0)
            np.testing.assert_allclose(got[3], (ones if taken else 1.0) + 7.0)
