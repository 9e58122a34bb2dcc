"""``tf.version``: numflow's version and the GraphDef versions it reads and writes."""

from numflow.framework.op_defs import (  # noqa: F401 - tf.version's names
    GRAPH_DEF_VERSION,
    GRAPH_DEF_VERSION_MIN_CONSUMER,
    GRAPH_DEF_VERSION_MIN_PRODUCER,
)

VERSION = "0.1.0"
