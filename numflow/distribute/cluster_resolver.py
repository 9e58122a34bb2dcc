"""Cluster resolvers: a task's cluster and role, from the ``TF_CONFIG`` environment variable.

``TF_CONFIG`` is TensorFlow's JSON: ``{"cluster": {"ps": ["host:port", ...], "worker": [...]},
"task": {"type": "worker", "index": 0}}``. ``python -m numflow.cluster`` sets it for each task.
"""

import json
import os

from numflow.train.cluster import ClusterSpec

__all__ = ["TFConfigClusterResolver"]


class TFConfigClusterResolver:
    """The cluster and this task's role as ``TF_CONFIG`` gives them (TensorFlow's class).

    >>> os.environ["TF_CONFIG"] = json.dumps({"cluster": {"ps": ["p:1"], "worker": ["w:1", "w:2"]},
    ...                                       "task": {"type": "worker", "index": 1}})
    >>> resolver = TFConfigClusterResolver()
    >>> resolver.cluster_spec().num_tasks("worker"), resolver.task_type, resolver.task_id
    (2, 'worker', 1)
    >>> resolver.master()
    'w:2'
    >>> del os.environ["TF_CONFIG"]
    """

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        config = _tf_config()
        task = config.get("task", {})
        self.task_type = task_type if task_type is not None else task.get("type")
        self.task_id = task_id if task_id is not None else task.get("index")
        self.rpc_layer = rpc_layer if rpc_layer is not None else config.get("rpc_layer")
        self.environment = environment if environment is not None else config.get("environment", "")

    def cluster_spec(self):
        """The ClusterSpec of ``TF_CONFIG``'s ``cluster`` (empty without one)."""
        return ClusterSpec(_tf_config().get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None):
        """The address of a task (default: this one), behind ``rpc_layer://`` when there is one; ``''``
        without a cluster."""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        spec = self.cluster_spec()
        if task_type is None or task_id is None or task_type not in spec.jobs:
            return ""
        address = spec.task_address(task_type, int(task_id))
        layer = rpc_layer or self.rpc_layer
        return f"{layer}://{address}" if layer else address

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None):
        return {}


def _tf_config():
    text = os.environ.get("TF_CONFIG")
    if not text:
        return {}
    try:
        config = json.loads(text)
    except ValueError as e:
        raise ValueError(f"TF_CONFIG is not valid JSON: {e}") from None
    if not isinstance(config, dict):
        raise ValueError("TF_CONFIG must be a JSON object with 'cluster' and 'task'.")
    return config
