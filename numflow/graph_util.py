"""``tf.graph_util``: freezing variables into constants, and cutting a GraphDef down to what outputs need."""

from numflow.framework.graph_util import convert_variables_to_constants, extract_sub_graph, remove_training_nodes

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes"]
