"""random_shuffle, multinomial/categorical, random_gamma and random_poisson: TensorFlow's values for the same
seeds, run after run (``data/tf_random_ops_golden.npz``, made by ``data/make_tf_random_ops_golden.py`` from the
graphs of ``sampling_cases.py``), names and static shapes, errors, and the distributions themselves."""

import pathlib
import re

import numpy as np
import pytest
from sampling_cases import CASES, gamma_gradients, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_random_ops_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_for_the_same_seeds(name):
    np.testing.assert_array_equal(run_case(tf, name), GOLDEN[name])
    np.testing.assert_array_equal(run_case(tf, name, graph_seed=1234), GOLDEN[f"{name}/graph_seed"])


def test_names_and_static_shapes():
    with tf.Graph().as_default():
        logits = tf.placeholder(tf.float32, [None, 3])
        cases = [
            (tf.random_shuffle(tf.ones([4, 2])), "RandomShuffle:0", [4, 2]),
            (tf.multinomial(logits, 5), "multinomial/Multinomial:0", [None, 5]),
            (tf.random.categorical(logits, tf.placeholder(tf.int32, [])), "categorical/Multinomial:0", [None, None]),
            (tf.random_gamma([3], [[1.0, 2.0]]), "random_gamma/Maximum:0", [3, 1, 2]),
            (tf.random_poisson([1.0, 2.0], [3, 2]), "random_poisson/RandomPoissonV2:0", [3, 2, 2]),
        ]
        for t, name, shape in cases:
            assert (t.name, t.shape.as_list()) == (name, shape)
        assert tf.multinomial(logits, 2, output_dtype=tf.int32).dtype == tf.int32
        assert tf.random_poisson([1.0], [2], dtype=tf.int32).dtype == tf.int32


def test_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^Shape must be rank 2 but is rank 1"):
            tf.multinomial([1.0, 2.0], 2)
        with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
            tf.random.categorical([[1.0]], 2, dtype=tf.float32)
        late = tf.placeholder_with_default([[1.0, 2.0]], None)
        runs = [
            (tf.multinomial(late, tf.placeholder_with_default(-1, [])), "num_samples should be non-negative, got -1"),
            (tf.multinomial(tf.placeholder_with_default([1.0, 2.0], None), 2),
             "logits should be a matrix, got shape [2]"),
            (tf.multinomial(tf.placeholder_with_default(np.zeros([2, 0], np.float32), None), 2),
             "num_classes should be positive, got 0"),
        ]
        with tf.Session() as sess:
            for t, message in runs:
                with pytest.raises(tf.errors.InvalidArgumentError, match="^" + re.escape(message)):
                    sess.run(t)


def test_no_gradients_where_tensorflow_has_none():
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0]])
        assert tf.gradients(tf.reduce_sum(tf.random_shuffle(x)), x) == [None]
        with pytest.raises(LookupError, match="RandomPoissonV2"):
            tf.gradients(tf.random_poisson(x, [2]), x)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gamma_gradients_match_tensorflow(dtype):
    """The implicit gradient of gamma samples with respect to alpha (TF's RandomGammaGrad) and beta."""
    sample, grad_alpha, grad_beta = gamma_gradients(tf, tf.as_dtype(dtype))
    prefix = f"gamma_gradients/{dtype}"
    np.testing.assert_array_equal(sample, GOLDEN[f"{prefix}/sample"])
    # TensorFlow computes the derivative in float32 for float32 samples, numflow always in float64.
    rtol = 1e-5 if dtype == "float32" else 1e-10
    np.testing.assert_allclose(grad_alpha, GOLDEN[f"{prefix}/grad_alpha"], rtol=rtol)
    np.testing.assert_allclose(grad_beta, GOLDEN[f"{prefix}/grad_beta"], rtol=rtol)


def test_gamma_gradient_by_finite_differences_of_the_distribution():
    """d sample / d alpha at a fixed quantile: the change of the inverse CDF, here by bisection on igam."""
    import math

    from numflow_kernels.cpu.sampling_loops import gamma_sample_derivative

    def cdf(a, x):  # the regularized lower incomplete gamma function, by its series
        term = total = 1.0 / a
        k = 0
        while term > 1e-17 * total:
            k += 1
            term *= x / (a + k)
            total += term
        return total * math.exp(a * math.log(x) - x - math.lgamma(a))

    def quantile(a, p):
        lo, hi = 0.0, 200.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if cdf(a, mid) < p else (lo, mid)
        return (lo + hi) / 2

    alphas, xs = np.array([0.3, 1.5, 4.0, 12.0]), np.array([0.2, 2.5, 3.0, 15.0])
    out = np.empty(4)
    gamma_sample_derivative(alphas, xs, out)
    for a, x, got in zip(alphas, xs, out):
        p, h = cdf(a, x), 1e-6
        numeric = (quantile(a + h, p) - quantile(a - h, p)) / (2 * h)
        assert abs(got - numeric) < 1e-5 * max(1.0, abs(numeric)), (a, x, got, numeric)


def test_distributions():
    """Sample means and variances within five standard errors of the distributions' (seeded: no flakes)."""
    n = 20000
    with tf.Graph().as_default(), tf.Session() as sess:
        alpha = np.array([0.4, 1.0, 3.0], np.float64)
        gamma = sess.run(tf.random_gamma([n], alpha, beta=2.0, dtype=tf.float64, seed=1))
        rates = np.array([0.7, 4.0, 25.0])
        poisson = sess.run(tf.random_poisson(rates, [n], dtype=tf.float64, seed=2))
        probs = np.array([0.1, 0.6, 0.3])
        draws = sess.run(tf.multinomial(np.log([probs]), n, seed=3))[0]
    for samples, mean, var in ((gamma, alpha / 2, alpha / 4), (poisson, rates, rates)):
        assert np.all(np.abs(samples.mean(0) - mean) < 5 * np.sqrt(var / n))
        assert np.all(np.abs(samples.var(0) / var - 1) < 0.1)
    freq = np.bincount(draws, minlength=3) / n
    assert np.all(np.abs(freq - probs) < 5 * np.sqrt(probs * (1 - probs) / n))


def test_shuffle_draws_every_permutation_evenly():
    """All 24 orders of 4 rows come up about equally often over many runs of one op."""
    with tf.Graph().as_default(), tf.Session() as sess:
        op = tf.random_shuffle(tf.range(4), seed=5)
        counts = {}
        for _ in range(2400):
            key = tuple(sess.run(op).tolist())
            counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 24
    assert all(abs(c - 100) < 5 * np.sqrt(100) for c in counts.values())
