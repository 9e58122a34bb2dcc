"""``tf.train``: savers, optimizers, the global step, device setters, clusters and servers."""

from numflow.checkpoint.reader import list_variables, load_checkpoint, load_variable
from numflow.train.cluster import ClusterSpec
from numflow.train.device_setter import GreedyLoadBalancingStrategy, byte_size_load_fn, replica_device_setter
from numflow.train.learning_rate_decay import (
    cosine_decay, cosine_decay_restarts, exponential_decay, inverse_time_decay, linear_cosine_decay, natural_exp_decay,
    piecewise_constant, piecewise_constant_decay, polynomial_decay,
)
from numflow.train.moving_averages import ExponentialMovingAverage
from numflow.train.optimizer import Optimizer
from numflow.train.optimizers import (
    AdagradOptimizer, AdamOptimizer, GradientDescentOptimizer, MomentumOptimizer, RMSPropOptimizer,
)
from numflow.train.saver import Saver, checkpoint_exists, get_checkpoint_state, latest_checkpoint
from numflow.train.server import Server
from numflow.train.training_util import (
    assert_global_step, create_global_step, get_global_step, get_or_create_global_step, global_step,
)

__all__ = [
    "AdagradOptimizer", "AdamOptimizer", "ClusterSpec", "ExponentialMovingAverage", "GradientDescentOptimizer",
    "GreedyLoadBalancingStrategy",
    "MomentumOptimizer", "Optimizer", "RMSPropOptimizer", "Saver", "Server", "assert_global_step",
    "cosine_decay", "cosine_decay_restarts", "exponential_decay", "inverse_time_decay", "linear_cosine_decay",
    "natural_exp_decay", "piecewise_constant", "piecewise_constant_decay", "polynomial_decay",
    "byte_size_load_fn", "checkpoint_exists", "create_global_step", "get_checkpoint_state", "get_global_step",
    "get_or_create_global_step", "global_step", "latest_checkpoint", "list_variables", "load_checkpoint",
    "load_variable", "replica_device_setter",
]
