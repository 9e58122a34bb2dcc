"""``tf.train``: savers, optimizers, device setters, clusters and servers."""

from numflow.train.cluster import ClusterSpec
from numflow.train.server import Server
from numflow.train.device_setter import (
    GreedyLoadBalancingStrategy, byte_size_load_fn, replica_device_setter,
)

__all__ = ["ClusterSpec", "Server", "GreedyLoadBalancingStrategy", "byte_size_load_fn", "replica_device_setter"]
