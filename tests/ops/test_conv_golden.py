"""The convolutions and pools against TensorFlow: outputs, gradients, second-order gradients and the
forward graph's op names and types, case by case (``conv_cases.py``).

``data/tf_conv_golden.npz`` holds the inputs and TensorFlow 2.21's results; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_conv_golden.py``.
"""

import pathlib

import numpy as np
import pytest
from conv_cases import ARGMAX, CASES, SECOND_ORDER, forward_ops, gradients

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_conv_golden.npz")
INPUTS = {k: GOLDEN[k] for k in GOLDEN.files if "/" not in k}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    with tf.Graph().as_default() as graph:
        out, xs = CASES[name](tf, INPUTS)
        assert [f"{n} {t}" for n, t in forward_ops(graph, 0)] == GOLDEN[f"ops/{name}"].tolist()
        want = GOLDEN[f"out/{name}"]
        assert out.shape.as_list() == list(want.shape)
        grads = gradients(tf, out, xs, list(want.shape))
        second = gradients(tf, out, xs, list(want.shape), second_order=True) if name in SECOND_ORDER else []
        with tf.Session() as sess:
            got_out, got_grads, got_second = sess.run([out, grads, [g for g in second if g is not None]])
    np.testing.assert_allclose(got_out, want, rtol=1e-5, atol=1e-5)
    for i, g in enumerate(got_grads):
        np.testing.assert_allclose(g, GOLDEN[f"grad/{name}/{i}"], rtol=1e-5, atol=2e-5, err_msg=f"grad {i}")
    reached = [i for i, g in enumerate(second) if g is not None]
    assert reached == [i for i in range(len(xs) + 1) if f"grad2/{name}/{i}" in GOLDEN]
    for i, g in zip(reached, got_second):
        np.testing.assert_allclose(g, GOLDEN[f"grad2/{name}/{i}"], rtol=1e-5, atol=2e-5, err_msg=f"grad2 {i}")


@pytest.mark.parametrize("name", sorted(ARGMAX))
def test_max_pool_with_argmax_indices_and_gradient(name):
    x = tf.constant(INPUTS["ties"])
    out, argmax = tf.nn.max_pool_with_argmax(x, **ARGMAX[name])
    assert argmax.dtype == tf.int64 and argmax.op.type == "MaxPoolWithArgmax"
    (grad,) = gradients(tf, out, [x], out.shape.as_list())
    with tf.Session() as sess:
        got_argmax, got_grad = sess.run([argmax, grad])
    np.testing.assert_array_equal(got_argmax, GOLDEN[f"argmax/{name}"])
    np.testing.assert_allclose(got_grad, GOLDEN[f"argmax/{name}/grad"], rtol=1e-6)
