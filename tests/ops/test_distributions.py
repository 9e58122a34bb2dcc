"""tf.distributions against TensorFlow 2.21 (``data/tf_distributions_golden.npz``, made by
``data/make_tf_case_goldens.py distribution_cases`` from the graphs of ``distribution_cases.py``): the same
samples for the same seeds, densities, statistics, KL divergences and gradients, with TensorFlow's names,
dtypes and static shapes."""

import pathlib

import numpy as np
import pytest
from distribution_cases import CASES, run_case

import numflow as tf

GOLDEN = np.load(pathlib.Path(__file__).parent / "data" / "tf_distributions_golden.npz")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tensorflows_values_names_and_shapes(name):
    values, names = run_case(tf, name)
    assert names == GOLDEN[f"{name}/names"].tolist()
    for i, value in enumerate(values):
        want = GOLDEN[f"{name}/{i}"]
        assert value.dtype == want.dtype, (name, i)
        rtol = 1e-12 if value.dtype == np.float64 else 2e-5
        np.testing.assert_allclose(value, want, rtol=rtol, atol=rtol, err_msg=f"{name}/{i} {names[i]}")


# Samples made of the random ops and exact arithmetic: TensorFlow's bits. (The others pass through float32
# log, log1p or rsqrt, a last-place rounding apart from Eigen's.)
EXACT_SAMPLES = {"normal", "normal_float64", "bernoulli", "bernoulli_probs", "categorical", "categorical_probs",
                 "uniform", "beta", "dirichlet", "multinomial", "dirichlet_multinomial"}


@pytest.mark.parametrize("name", sorted(EXACT_SAMPLES))
def test_samples_are_tensorflows_bits(name):
    values, names = run_case(tf, name)
    samples = [i for i, n in enumerate(names) if "/sample" in n]
    assert samples
    for i in samples:
        np.testing.assert_array_equal(values[i], GOLDEN[f"{name}/{i}"], err_msg=names[i])


def test_errors():
    d = tf.distributions
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^Must pass probs or logits, but not both.$"):
            d.Bernoulli(logits=[1.0], probs=[0.5])
        with pytest.raises(TypeError, match="^logits must having floating type.$"):
            d.Bernoulli(logits=[1])
        with pytest.raises(TypeError, match="^probs must having floating type.$"):
            d.Categorical(probs=[1])
        with pytest.raises(ValueError, match="must be of the same type"):
            d.Normal(np.float64(0.0), np.float32(1.0))
        with pytest.raises(NotImplementedError, match="^No KL.* type Normal and distribution_b type Bernoulli$"):
            d.kl_divergence(d.Normal(0.0, 1.0), d.Bernoulli(probs=0.5))
        with pytest.raises(ValueError, match="^Input is neither scalar nor vector.$"):
            d.Normal(0.0, 1.0).sample([[2]])
        with pytest.raises(NotImplementedError, match="^cdf is not implemented: Dirichlet$"):
            d.Dirichlet([1.0, 1.0]).cdf([0.5, 0.5])
        kl = d.kl_divergence(d.Normal(0.0, 0.0), d.Normal(0.0, 0.0), allow_nan_stats=False)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > 0 did not hold"):
            d.Normal(0.0, -1.0, validate_args=True)  # a constant's check fails at once, as in TensorFlow
        scale = tf.placeholder(tf.float32, [])
        checked = d.Normal(0.0, scale, validate_args=True).sample(seed=1)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="returned NaN values"):
                sess.run(kl)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(checked, {scale: -1.0})


def test_static_shapes_with_an_unknown_batch():
    with tf.Graph().as_default():
        d = tf.distributions.Normal(tf.placeholder(tf.float32, [None, 3]), 1.0)
        shapes = [d.batch_shape, d.sample(4).shape, d.sample().shape, d.log_prob(0.0).shape,
                  d.sample(tf.placeholder(tf.int32, [2])).shape]
        assert [s.as_list() for s in shapes] == [[None, 3], [4, None, 3], [None, 3], [None, 3], [None, None, None, 3]]
        loc = np.zeros((2, 3), np.float32)
        with tf.Session() as sess:
            assert sess.run(d.sample(4, seed=1), {d.loc: loc}).shape == (4, 2, 3)
            assert sess.run(d.batch_shape_tensor(), {d.loc: loc}).tolist() == [2, 3]


def test_properties_and_helpers():
    d = tf.distributions
    with tf.Graph().as_default():
        normal = d.Normal(0.0, 1.0)
        assert normal.reparameterization_type is d.FULLY_REPARAMETERIZED
        assert d.Bernoulli(probs=0.3).reparameterization_type is d.NOT_REPARAMETERIZED
        assert normal.parameters == {"loc": 0.0, "scale": 1.0, "validate_args": False, "allow_nan_stats": True,
                                     "name": "Normal"}
        assert {k: v.as_list() for k, v in d.Normal.param_static_shapes([3, 2]).items()} == {
            "loc": [3, 2], "scale": [3, 2]}
        assert normal.is_scalar_batch().name == "Normal/is_scalar_batch/is_scalar_batch:0"
        assert d.Dirichlet([[1.0, 2.0]]).is_scalar_event().name == "Dirichlet/is_scalar_event/is_scalar_event:0"
        assert normal.copy(scale=2.0).name == "Normal_1/"
        assert isinstance(normal, d.Distribution)

        @d.RegisterKL(d.Uniform, d.Normal)
        def _kl_uniform_normal(a, b, name=None):
            return a.mean() - b.mean()

        assert d.kl_divergence(d.Uniform(1.0, 3.0), normal).name.startswith("KullbackLeibler")
        with pytest.raises(ValueError, match=r"^KL\(Uniform \|\| Normal\) has already been registered"):
            d.RegisterKL(d.Uniform, d.Normal)(_kl_uniform_normal)


def test_dirichlet_mode_for_a_batch():
    # TensorFlow fails to build this (its condition lacks the event axis); numflow gives the modes.
    concentration = np.array([[2.0, 3.0, 4.0], [0.5, 2.0, 2.0]], np.float32)
    with tf.Graph().as_default():
        mode = tf.distributions.Dirichlet(concentration).mode()
        with tf.Session() as sess:
            got = sess.run(mode)
    want = (concentration[0] - 1) / (concentration[0].sum() - 3)
    np.testing.assert_allclose(got[0], want, rtol=1e-6)
    assert np.isnan(got[1]).all()
