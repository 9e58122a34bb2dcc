"""``tf.graph_util``: GraphDef surgery (freeze variables into constants, cut out what outputs need).

These work on GraphDef messages, as TensorFlow's do, and never change the graph they came from.
"""

import logging

from numflow.framework.graph_io import parse_tensor_name

_log = logging.getLogger(__name__)
_VARIABLE_OPS = ("VariableV2", "Variable")


def _node_name(name):
    return parse_tensor_name(name)[0]


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes ``dest_nodes`` need (through data and control inputs), in file order.

    Raises
    ------
    TypeError
        ``graph_def`` is not a GraphDef, or ``dest_nodes`` is a string rather than a list.
    AssertionError
        A destination node is not in the graph (TensorFlow's error).
    """
    from numflow.framework.graph_import import as_graph_def
    from numflow.protos import graph_pb2

    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    graph_def = as_graph_def(graph_def)
    by_name = {node.name: node for node in graph_def.node}
    for name in dest_nodes:
        if _node_name(name) not in by_name:
            raise AssertionError(f"{name} is not in graph")
    keep, stack = set(), [_node_name(n) for n in dest_nodes]
    while stack:
        name = stack.pop()
        if name in keep or name not in by_name:
            continue
        keep.add(name)
        stack.extend(_node_name(i) for i in by_name[name].input)
    out = graph_pb2.GraphDef(versions=graph_def.versions, library=graph_def.library)
    out.node.extend(node for node in graph_def.node if node.name in keep)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """A GraphDef where every variable ``output_node_names`` need is a Const holding its value in ``sess``.

    The result holds only what the outputs need (:func:`extract_sub_graph`), and runs with no
    checkpoint: the frozen form of a model.
    """
    from numflow.framework import attr_values
    from numflow.framework.attr_values import tensor_to_proto
    from numflow.protos import graph_pb2

    inference = extract_sub_graph(input_graph_def, output_node_names)
    names = [node.name for node in inference.node if node.op in _VARIABLE_OPS
             and (variable_names_whitelist is None or node.name in variable_names_whitelist)
             and (variable_names_blacklist is None or node.name not in variable_names_blacklist)]
    values = dict(zip(names, sess.run([f"{n}:0" for n in names]))) if names else {}
    out = graph_pb2.GraphDef(versions=inference.versions, library=inference.library)
    for node in inference.node:
        new = out.node.add()
        if node.name not in values:
            new.CopyFrom(node)
            continue
        dtype = attr_values.from_attr_value(node.attr["dtype"])
        new.name, new.op, new.device = node.name, "Const", node.device
        new.attr["dtype"].type = dtype.as_datatype_enum
        tensor_to_proto(values[node.name], dtype, new.attr["value"].tensor)
    _log.info("Froze %d variables.", len(values))
    _log.info("Converted %d variables to const ops.", len(values))
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    """``input_graph`` without the ``Identity`` and ``CheckNumerics`` nodes inference does not need.

    A node is kept when it is protected, has control inputs, or reads a variable (its input is a
    variable op, whose reads ``Identity`` makes).
    """
    from numflow.framework.graph_import import as_graph_def
    from numflow.protos import graph_pb2

    graph_def = as_graph_def(input_graph)
    protected = set(protected_nodes or ())
    by_name = {node.name: node for node in graph_def.node}
    forward = {}
    for node in graph_def.node:
        data = [i for i in node.input if not i.startswith("^")]
        source = by_name.get(_node_name(data[0])) if data else None
        if (node.op in ("Identity", "CheckNumerics") and node.name not in protected and len(data) == 1
                and len(node.input) == 1 and source is not None and source.op not in _VARIABLE_OPS):
            forward[node.name] = data[0]

    def resolve(name):
        control = name.startswith("^")
        base, index = parse_tensor_name(name)
        while base in forward and index == 0:
            base, index = parse_tensor_name(forward[base])
        target = base if index <= 0 else f"{base}:{index}"
        return f"^{base}" if control else target

    out = graph_pb2.GraphDef(versions=graph_def.versions, library=graph_def.library)
    for node in graph_def.node:
        if node.name in forward:
            continue
        new = out.node.add()
        new.CopyFrom(node)
        new.input[:] = [resolve(i) for i in node.input]
    return out
