"""tf.nn.ctc_loss, its gradient and tf.nn.ctc_greedy_decoder against TensorFlow 2.21
(data/tf_ctc_golden.npz, written by data/make_tf_ctc_golden.py), the loss against a sum over every
alignment computed by brute force, and the gradient against finite differences."""

import itertools
import pathlib

import numpy as np
import pytest
from golden_scripts import load_script

import numflow as tf

golden = load_script(pathlib.Path(__file__).parent / "data" / "make_tf_ctc_golden.py")
EXPECTED = np.load(golden.GOLDEN)


@pytest.mark.parametrize("name, kwargs, lengths", golden.LOSSES, ids=[case[0] for case in golden.LOSSES])
def test_loss_and_gradient_are_tensorflows(name, kwargs, lengths):
    x, loss = golden.build(tf, name, kwargs, lengths)
    grad = tf.gradients(tf.reduce_sum(loss * golden.WEIGHTS), x)[0]
    with tf.Session() as sess:
        got_loss, got_grad = sess.run([loss, grad])
    # The softmax's exp and sum round as numpy's, TensorFlow's as Eigen's: a last bit may differ.
    np.testing.assert_allclose(got_loss, EXPECTED[f"{name}/loss"], rtol=1e-6)
    np.testing.assert_allclose(got_grad, EXPECTED[f"{name}/grad"], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("merge", [True, False])
def test_greedy_decoding_is_tensorflows(merge):
    (decoded,), log_probability = tf.nn.ctc_greedy_decoder(golden.logits(), golden.SEQUENCE_LENGTH,
                                                           merge_repeated=merge)
    with tf.Session() as sess:
        value, got_log_probability = sess.run([decoded, log_probability])
    np.testing.assert_array_equal(value.indices, EXPECTED[f"greedy_{merge}/indices"])
    np.testing.assert_array_equal(value.values, EXPECTED[f"greedy_{merge}/values"])
    np.testing.assert_array_equal(value.dense_shape, EXPECTED[f"greedy_{merge}/shape"])
    np.testing.assert_array_equal(got_log_probability, EXPECTED[f"greedy_{merge}/log_probability"])


@pytest.mark.parametrize("width, paths, merge", golden.BEAMS)
def test_beam_search_finds_tensorflows_paths(width, paths, merge):
    decoded, log_probability = tf.nn.ctc_beam_search_decoder(golden.logits(), golden.SEQUENCE_LENGTH,
                                                             beam_width=width, top_paths=paths, merge_repeated=merge)
    assert len(decoded) == paths and log_probability.shape.as_list() == [3, paths]
    with tf.Session() as sess:
        values, got_log_probability = sess.run([decoded, log_probability])
    name = f"beam_{width}_{paths}_{merge}"
    for k, value in enumerate(values):
        np.testing.assert_array_equal(value.indices, EXPECTED[f"{name}/{k}/indices"])
        np.testing.assert_array_equal(value.values, EXPECTED[f"{name}/{k}/values"])
        np.testing.assert_array_equal(value.dense_shape, EXPECTED[f"{name}/{k}/shape"])
    np.testing.assert_allclose(got_log_probability, EXPECTED[f"{name}/log_probability"], rtol=1e-6)


def _brute_force_loss(logits, labels, blank):
    """-log of the summed probability of every frame-wise path that collapses to ``labels``."""
    probabilities = np.exp(logits - logits.max(1, keepdims=True))
    probabilities /= probabilities.sum(1, keepdims=True)
    total = 0.0
    for path in itertools.product(range(logits.shape[1]), repeat=logits.shape[0]):
        collapsed = [c for i, c in enumerate(path) if c != blank and (i == 0 or c != path[i - 1])]
        if collapsed == labels:
            total += np.prod([probabilities[t, c] for t, c in enumerate(path)])
    return -np.log(total)


def test_the_loss_sums_every_alignment_and_its_gradient_matches_finite_differences():
    logits = np.random.RandomState(4).randn(5, 1, 4)
    x = tf.placeholder(tf.float64, [5, 1, 4])
    labels = tf.SparseTensor([[0, 0], [0, 1]], np.array([1, 1], np.int32), [1, 2])
    loss = tf.nn.ctc_loss(labels, x, [5])
    grad = tf.gradients(loss, x)[0]
    with tf.Session() as sess:
        got_loss, got_grad = sess.run([loss, grad], {x: logits})
        assert got_loss[0] == pytest.approx(_brute_force_loss(logits[:, 0], [1, 1], blank=3), rel=1e-9)
        eps = 1e-6
        for index in [(0, 0, 1), (2, 0, 3), (4, 0, 0)]:
            up, down = logits.copy(), logits.copy()
            up[index] += eps
            down[index] -= eps
            numeric = (sess.run(loss, {x: up})[0] - sess.run(loss, {x: down})[0]) / (2 * eps)
            assert got_grad[index] == pytest.approx(numeric, rel=1e-5, abs=1e-8)


def test_bad_labels_get_tensorflows_errors_and_second_derivatives_are_refused():
    x = tf.constant(golden.logits())
    missing_item = tf.SparseTensor([[0, 0], [2, 0]], np.array([1, 2], np.int32), [3, 1])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match="Labels length is zero in batch 1"):
        sess.run(tf.nn.ctc_loss(missing_item, x, golden.SEQUENCE_LENGTH))
    too_long = tf.SparseTensor(golden.LABEL_INDICES, np.array(golden.LABEL_VALUES, np.int32), [3, 4])
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match=r"Not enough time for target transition sequence \(required: 4, "
                                                   r"available: 3\)"):
        sess.run(tf.nn.ctc_loss(too_long, x, [12, 3, 5]))
    with pytest.raises(TypeError, match="Expected labels \\(first argument\\) to be a SparseTensor"):
        tf.nn.ctc_loss(np.zeros([3, 4], np.int32), x, golden.SEQUENCE_LENGTH)
    first = tf.gradients(tf.reduce_sum(tf.nn.ctc_loss(too_long, x, golden.SEQUENCE_LENGTH)), x)[0]
    with pytest.raises(LookupError, match="no way to take the second derivative of ctc_loss"):
        tf.gradients(first, x)


def test_collapse_repeated_and_unique_labels_by_hand():
    rows = [[1, 1, 2, 2, 3, 0], [4, 4, 4, 5, 5, 5], [7, 8, 7, 8, 8, 9]]
    lengths = [6, 4, 5]
    collapsed = [[k for k, _ in itertools.groupby(row[:n])] for row, n in zip(rows, lengths)]
    width = max(map(len, collapsed))
    with tf.Graph().as_default():
        labels = tf.constant(rows)
        out, new_lengths = tf.nn.collapse_repeated(labels, tf.constant(lengths, tf.int64))
        unique_labels, indices = tf.nn.ctc_unique_labels(labels)
        assert new_lengths.dtype == tf.int64 and unique_labels.dtype == tf.int64 and indices.dtype == tf.int32
        got = tf.Session().run([out, new_lengths, unique_labels, indices])
    assert got[0].tolist() == [c + [0] * (width - len(c)) for c in collapsed]
    assert got[1].tolist() == [len(c) for c in collapsed]
    firsts = [list(dict.fromkeys(row)) for row in rows]
    assert got[2].tolist() == [f + [0] * (6 - len(f)) for f in firsts]
    assert got[3].tolist() == [[f.index(v) for v in row] for f, row in zip(firsts, rows)]
