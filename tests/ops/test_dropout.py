"""tf.nn.dropout against TensorFlow: the same elements dropped for the same seeds (graph seed, op seed,
the op-seed counter, a fed keep_prob), the same ops and names, the scaling and the gradient.

``data/tf_dropout_golden.npz`` holds TensorFlow 2.21's results; regenerate it with
``/opt/tfenv/bin/python tests/ops/data/make_tf_dropout_golden.py``.
"""

import pathlib

import numpy as np
import pytest
from dropout_cases import CASES, dropout_ops

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_dropout_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_dropout_matches_tensorflow(name):
    with tf.Graph().as_default() as graph:
        fetches, feed = CASES[name](tf, GOLDEN["x"])
        assert [f"{n} {t}" for n, t in dropout_ops(graph)] == GOLDEN[f"{name}/ops"].tolist()
        with tf.Session() as sess:
            for run in range(2):
                for i, value in enumerate(sess.run(fetches, feed)):
                    want = GOLDEN[f"{name}/run{run}/{i}"]
                    assert value.dtype == want.dtype
                    np.testing.assert_array_equal(value == 0, want == 0, err_msg=f"mask of fetch {i}, run {run}")
                    np.testing.assert_allclose(value, want, rtol=1e-6, err_msg=f"fetch {i}, run {run}")


def test_kept_elements_are_scaled_by_one_over_keep_prob():
    x = GOLDEN["x"]
    with tf.Graph().as_default(), tf.Session() as sess:
        out = sess.run(tf.nn.dropout(x, keep_prob=0.8, seed=4))
    kept = out != 0
    assert 0 < kept.sum() < x.size
    np.testing.assert_allclose(out[kept], x[kept] / np.float32(0.8), rtol=1e-6)


def test_a_noise_shape_tensor_is_used_as_it_is():
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [None, 3])
        noise_shape = tf.stack([tf.shape(x)[0], 1])
        before = len(graph.get_operations())
        out = tf.nn.dropout(x, rate=0.5, noise_shape=noise_shape, seed=1)
        made = [op.type for op in graph.get_operations()[before:]]
        assert "StridedSlice" not in made  # as TF: the shape is not read element by element
        value = tf.Session().run(out, {x: np.ones((4, 3), np.float32)})
    assert all(len(set(row.tolist())) == 1 for row in value)  # one choice per row


def test_rate_zero_returns_its_input():
    with tf.Graph().as_default():
        x = tf.ones([2, 2])
        assert tf.nn.dropout(x, rate=0.0) is x
