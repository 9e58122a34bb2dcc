"""``tf.distributions``: TensorFlow 1's probability distributions (``tf.compat.v1.distributions``);
re-exports only."""

from numflow.distributions.discrete import Bernoulli, Categorical, DirichletMultinomial, Multinomial
from numflow.distributions.distribution import (
    FULLY_REPARAMETERIZED,
    NOT_REPARAMETERIZED,
    Distribution,
    ReparameterizationType,
)
from numflow.distributions.gamma import Beta, Dirichlet, Exponential, Gamma
from numflow.distributions.kullback_leibler import RegisterKL, kl_divergence
from numflow.distributions.location_scale import Laplace, Normal, StudentT, Uniform

__all__ = ["FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED", "Bernoulli", "Beta", "Categorical", "Dirichlet",
           "DirichletMultinomial", "Distribution", "Exponential", "Gamma", "Laplace", "Multinomial", "Normal",
           "RegisterKL", "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]
