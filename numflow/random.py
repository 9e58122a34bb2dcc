"""``tf.random``: random ops under the names ``tf.compat.v1.random`` gives them; re-exports only."""

from numflow.framework.seeds import get_seed, set_random_seed
from numflow.ops.candidate_sampling_ops import (
    all_candidate_sampler,
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler,
    uniform_candidate_sampler,
)
from numflow.ops.random_ops import random_normal as normal
from numflow.ops.random_ops import random_uniform as uniform
from numflow.ops.random_ops import truncated_normal
from numflow.ops.sampling_ops import categorical, multinomial
from numflow.ops.sampling_ops import random_gamma as gamma
from numflow.ops.sampling_ops import random_poisson as poisson
from numflow.ops.sampling_ops import random_shuffle as shuffle
from numflow.ops.stateless_random_ops import stateless_categorical, stateless_multinomial, stateless_truncated_normal
from numflow.ops.stateless_random_ops import stateless_random_normal as stateless_normal
from numflow.ops.stateless_random_ops import stateless_random_uniform as stateless_uniform

__all__ = ["all_candidate_sampler", "categorical", "fixed_unigram_candidate_sampler", "gamma", "get_seed",
           "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler", "multinomial", "normal", "poisson",
           "set_random_seed", "shuffle", "stateless_categorical", "stateless_multinomial", "stateless_normal",
           "stateless_truncated_normal", "stateless_uniform", "truncated_normal", "uniform",
           "uniform_candidate_sampler"]
