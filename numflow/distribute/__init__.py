"""``tf.distribute``: the cluster resolvers that read a task's role (``cluster_resolver``)."""

from numflow.distribute import cluster_resolver  # noqa: F401
