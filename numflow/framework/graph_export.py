"""Graph -> GraphDef: every numflow op as TensorFlow's NodeDefs (``Graph.as_graph_def``).

An op whose type TensorFlow has becomes one NodeDef of that type: its inputs by tensor name
(``op`` for output 0, ``op:1``, ``^op`` for a control input), its device, its colocation as
``_class``, and TensorFlow's attrs: numflow's own, the type and count attrs that TensorFlow's
OpDef derives from the tensors (``T``, ``N``, ``Tidx``...), and the OpDef's defaults for the rest.
Ops that numflow builds differently from TensorFlow are written as TensorFlow builds them
(``op_mapping.EXPORTS``); numflow's own ops without a TensorFlow form keep their type, so numflow
reads them back while TensorFlow refuses them by name.
"""

from numflow.framework import attr_values, op_defs
from numflow.framework.attr_values import AttrError


def tensor_name(tensor):
    """A tensor as a NodeDef input names it: ``op`` for output 0, else ``op:index``."""
    return tensor.op.name if tensor.value_index == 0 else f"{tensor.op.name}:{tensor.value_index}"


class NodeWriter:
    """Adds NodeDefs to a GraphDef, filling each one's attrs from TensorFlow's OpDef.

    Names given to the extra nodes of an expanded op are made unique against the graph's own.
    """

    def __init__(self, graph_def, taken, add_shapes=False):
        self.graph_def = graph_def
        self._taken = taken
        self._add_shapes = add_shapes

    def unique(self, name):
        """``name``, or ``name_1``, ``name_2``... when a node has it already; reserved from now on."""
        candidate, i = name, 0
        while candidate in self._taken:
            i += 1
            candidate = f"{name}_{i}"
        self._taken.add(candidate)
        return candidate

    def node(self, op_type, name, inputs=(), attrs=None, outputs=(), device="", controls=(), colocation=()):
        """Add a NodeDef and return it.

        ``inputs`` are ``(input name, dtype)`` pairs, ``outputs`` ``(dtype, shape)`` pairs (shapes
        for ``_output_shapes``); ``attrs`` hold numflow's values, converted with the OpDef's types.

        Raises
        ------
        AttrError
            An attr the OpDef does not have, or one it needs and numflow lacks.
        """
        node = self.graph_def.node.add(name=name, op=op_type, device=device or "")
        node.input.extend(n for n, _ in inputs)
        node.input.extend(f"^{c}" for c in controls)
        attrs = dict(attrs or {})
        op_def = op_defs.get(op_type)
        if op_def is None:
            for key in sorted(attrs):
                self._set(node, key, attrs[key], None, op_type)
        else:
            attrs.update(op_defs.signature_attrs(op_def, [d for _, d in inputs], [d for d, _ in outputs], attrs))
            known = {a.name for a in op_def.attr}
            extra = sorted(set(attrs) - known)
            if extra:
                raise AttrError(f"attr '{extra[0]}' of node '{name}' is not an attr of TensorFlow's {op_type} "
                                f"(its attrs: {', '.join(sorted(known)) or 'none'})")
            for attr_def in op_def.attr:
                if attr_def.name in attrs:
                    self._set(node, attr_def.name, attrs[attr_def.name], attr_def.type, op_type)
                elif attr_def.HasField("default_value"):
                    node.attr[attr_def.name].CopyFrom(attr_def.default_value)
                else:
                    raise AttrError(f"node '{name}' ({op_type}) has no value for TensorFlow's attr "
                                    f"'{attr_def.name}'")
        if colocation:
            attr_values.to_attr_value([f"loc:@{g}" for g in colocation], "list(string)", node.attr["_class"])
        if self._add_shapes and outputs:
            attr_values.to_attr_value([s for _, s in outputs], "list(shape)", node.attr["_output_shapes"])
        return node

    @staticmethod
    def _set(node, key, value, kind, op_type):
        try:
            attr_values.to_attr_value(value, kind, node.attr[key])
        except (AttrError, TypeError, ValueError) as exc:
            raise AttrError(f"attr '{key}' of node '{node.name}' ({op_type}): {exc}") from None

    def op_node(self, op, op_type=None, name=None, inputs=None, attrs=None, controls=None):
        """A NodeDef for numflow ``op``, by default as it stands: its type, name, inputs and attrs."""
        if inputs is None:
            inputs = [(tensor_name(t), t.dtype) for t in op._inputs]
        return self.node(op_type or op.type, name or op.name, inputs, op._attrs if attrs is None else attrs,
                         [(t.dtype, t.shape) for t in op._outputs], op.device,
                         [c.name for c in op._control_inputs] if controls is None else controls,
                         op._colocation)


def graph_to_graph_def(graph, add_shapes=False, ops=None):
    """The GraphDef of ``graph`` (of ``ops`` only, in graph order, when given).

    Raises
    ------
    ValueError
        An op with an attr that has no GraphDef form (the message names the op and attr).
    """
    from numflow.framework.op_mapping import EXPORTS
    from numflow.protos import graph_pb2

    graph_def = graph_pb2.GraphDef()
    graph_def.versions.producer = op_defs.GRAPH_DEF_VERSION
    with graph._lock:
        all_ops = graph.get_operations()
        writer = NodeWriter(graph_def, {op.name for op in all_ops}, add_shapes)
        for op in all_ops if ops is None else ops:
            export = EXPORTS.get(op.type)
            if export is None:
                writer.op_node(op)
            else:
                export(writer, op)
    return graph_def
