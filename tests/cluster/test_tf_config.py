"""TF_CONFIG, read as TensorFlow's TFConfigClusterResolver reads it (the values TF 2.21 gives for the
same TF_CONFIG), and as the launcher writes it."""

import json

import pytest

import numflow as tf
from numflow.cluster import launch


def test_the_resolver_reads_the_cluster_and_this_tasks_role(monkeypatch):
    cluster = launch.local_cluster(2, 3, base_port=4000)
    monkeypatch.setenv("TF_CONFIG", launch.tf_config(cluster, "worker", 2))
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    spec = resolver.cluster_spec()
    assert spec.as_dict() == {"ps": ["localhost:4000", "localhost:4001"],
                              "worker": ["localhost:4002", "localhost:4003", "localhost:4004"]}
    assert (resolver.task_type, resolver.task_id) == ("worker", 2)
    assert resolver.master() == "localhost:4004"  # as TensorFlow gives it
    assert resolver.master("ps", 1, rpc_layer="ray") == "ray://localhost:4001"
    assert json.loads(launch.tf_config(cluster, "ps", 0))["task"] == {"type": "ps", "index": 0}


def test_without_tf_config_the_cluster_is_empty(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    assert not resolver.cluster_spec()
    assert resolver.task_type is None and resolver.master() == ""


def test_malformed_tf_config_is_refused_naming_it(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", "{cluster: ")
    with pytest.raises(ValueError, match="TF_CONFIG is not valid JSON"):
        tf.distribute.cluster_resolver.TFConfigClusterResolver()
