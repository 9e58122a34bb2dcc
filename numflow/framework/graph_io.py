"""The public functions of graph files: light wrappers that load protobuf only when called.

``tf.import_graph_def``, ``tf.train.write_graph``, ``tf.train.export_meta_graph`` and
``tf.train.import_meta_graph``, and TensorFlow's message classes (``tf.GraphDef``...) as lazy
attributes of the ``numflow`` module.
"""

import importlib
import os

_MESSAGES = {
    "GraphDef": "graph_pb2", "NodeDef": "node_def_pb2", "MetaGraphDef": "meta_graph_pb2",
    "AttrValue": "attr_value_pb2", "TensorProto": "tensor_pb2", "TensorShapeProto": "tensor_shape_pb2",
    "VersionDef": "versions_pb2", "OpDef": "op_def_pb2", "OpList": "op_def_pb2", "SaverDef": "saver_pb2",
    "CollectionDef": "meta_graph_pb2", "VariableDef": "variable_pb2",
    "Summary": "summary_pb2", "SummaryMetadata": "summary_pb2", "SummaryDescription": "summary_pb2",
    "HistogramProto": "summary_pb2", "Event": "event_pb2", "SessionLog": "event_pb2", "LogMessage": "event_pb2",
    "TaggedRunMetadata": "event_pb2",
}


def parse_tensor_name(name):
    """``("op", index)`` for ``"op:index"`` or ``"op"``; ``("op", -1)`` for a control input ``"^op"``."""
    if name.startswith("^"):
        return name[1:], -1
    op_name, sep, index = name.rpartition(":")
    if sep and index.isdigit():
        return op_name, int(index)
    return name, 0


def message_class(name):
    """TensorFlow's message class ``name`` (``"GraphDef"``...); AttributeError for another name."""
    module = _MESSAGES.get(name)
    if module is None:
        raise AttributeError(f"module 'numflow' has no attribute '{name}'")
    return getattr(importlib.import_module(f"numflow.protos.{module}"), name)


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Add the ops of a GraphDef to the default graph (see ``numflow.framework.graph_import``)."""
    from numflow.framework import graph_import

    return graph_import.import_graph_def(graph_def, input_map, return_elements, name, op_dict, producer_op_list)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write a Graph's (or a GraphDef's) GraphDef to ``logdir/name``, as protobuf text or binary.

    Returns
    -------
    str
        The path written.
    """
    from numflow.framework.meta_graph import write_proto

    graph_def = graph_or_graph_def
    if hasattr(graph_or_graph_def, "as_graph_def"):
        graph_def = graph_or_graph_def.as_graph_def()
    path = os.path.join(os.fsdecode(logdir), os.fsdecode(name))
    write_proto(path, graph_def, as_text)
    return path


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                      as_text=False, graph=None, export_scope=None, clear_devices=False,
                      clear_extraneous_savers=False, strip_default_attrs=False, save_debug_info=False, **kwargs):
    """Write the default graph's MetaGraphDef (see ``numflow.framework.meta_graph.export_meta_graph``)."""
    from numflow.framework import meta_graph

    return meta_graph.export_meta_graph(filename, meta_info_def, graph_def, saver_def, collection_list, as_text,
                                        graph, export_scope, clear_devices, clear_extraneous_savers,
                                        strip_default_attrs, save_debug_info, **kwargs)


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, input_map=None, **kwargs):
    """Recreate a saved graph; returns its Saver (see ``numflow.framework.meta_graph.import_meta_graph``)."""
    from numflow.framework import meta_graph

    return meta_graph.import_meta_graph(meta_graph_or_file, clear_devices, import_scope, input_map, **kwargs)
