"""``tf.train``: savers, optimizers, device setters, clusters and servers."""

from numflow.train.cluster import ClusterSpec
from numflow.checkpoint.reader import list_variables, load_checkpoint, load_variable
from numflow.train.saver import Saver, checkpoint_exists, get_checkpoint_state, latest_checkpoint
from numflow.train.server import Server
from numflow.train.device_setter import (
    GreedyLoadBalancingStrategy, byte_size_load_fn, replica_device_setter,
)

__all__ = ["Saver", "checkpoint_exists", "get_checkpoint_state", "latest_checkpoint", "list_variables",
           "load_checkpoint", "load_variable", "ClusterSpec", "Server", "GreedyLoadBalancingStrategy", "byte_size_load_fn", "replica_device_setter"]
