"""Graph -> GraphDef: every numflow op as TensorFlow's NodeDefs (``Graph.as_graph_def``).

An op whose type TensorFlow has becomes one NodeDef of that type: its inputs by tensor name
(``op`` for output 0, ``op:1``, ``^op`` for a control input), its device, its colocation as
``_class``, and TensorFlow's attrs: numflow's own, the type and count attrs that TensorFlow's
OpDef derives from the tensors (``T``, ``N``, ``Tidx``...), and the OpDef's defaults for the rest.
Ops that numflow builds differently from TensorFlow are written as TensorFlow builds them
(``op_mapping.EXPORTS``); numflow's own ops without a TensorFlow form keep their type, so numflow
reads them back while TensorFlow refuses them by name.
"""

import operator

import numpy as np

from numflow.framework import attr_values, dtypes, op_defs
from numflow.framework.attr_values import AttrError
from numflow.framework.shapes import TensorShape
from numflow.protos import node_def_pb2


def tensor_name(tensor):
    """A tensor as a NodeDef input names it: ``op`` for output 0, else ``op:index``."""
    return tensor.op.name if tensor.value_index == 0 else f"{tensor.op.name}:{tensor.value_index}"


class _AttrPlan:
    """How NodeDefs of one op type with given tensor dtypes and attr names get their attrs.

    ``fixed``: the AttrValues every such node shares (the type and count attrs derived from its
    tensors, and the OpDef's defaults of attrs numflow does not set); ``own``: ``(name, OpDef type)``
    of each numflow attr to convert per node. Made once per kind of node, with every check
    (an attr the OpDef lacks, one it needs and numflow lacks) made then.
    """

    __slots__ = ("fixed", "own")

    def __init__(self, op_type, name, input_dtypes, output_dtypes, attrs):
        op_def = op_defs.get(op_type)
        if op_def is None:
            self.fixed, self.own = {}, [(key, None) for key in sorted(attrs)]
            return
        derived = op_defs.signature_attrs(op_def, input_dtypes, output_dtypes, attrs)
        known = {a.name: a for a in op_def.attr}
        extra = sorted(set(attrs).union(derived) - set(known))
        if extra:
            raise AttrError(f"attr '{extra[0]}' of node '{name}' is not an attr of TensorFlow's {op_type} "
                            f"(its attrs: {', '.join(sorted(known)) or 'none'})")
        self.fixed, self.own = {}, []
        for attr_def in op_def.attr:
            key = attr_def.name
            if key in derived:
                self.fixed[key] = _convert(key, derived[key], attr_def.type, name, op_type)
            elif key in attrs:
                self.own.append((key, attr_def.type))
            elif attr_def.HasField("default_value"):
                self.fixed[key] = attr_def.default_value
            else:
                raise AttrError(f"node '{name}' ({op_type}) has no value for TensorFlow's attr '{key}'")


def _convert(key, value, kind, name, op_type, attr=None):
    try:
        return attr_values.to_attr_value(value, kind, attr)
    except (AttrError, TypeError, ValueError) as exc:
        raise AttrError(f"attr '{key}' of node '{name}' ({op_type}): {exc}") from None


_DTYPE_ENUM = operator.attrgetter("_dtype._enum")  # of a Tensor
_DIMS = operator.attrgetter("_shape._dims")


_DTYPE_CLASS, _NDARRAY = dtypes.DType, np.ndarray


def _value_key(value):
    """A hashable stand-in for an attr value (None for values not worth a key: large arrays, protos).

    A DType's is its name, the one bare string among the keys (a ``str`` value's is ``(str, value)``).
    """
    kind = type(value)
    if kind is _DTYPE_CLASS:
        return value._name
    if kind is _NDARRAY:
        dtype = value.dtype
        return (dtype.num, value.shape, value.tobytes()) if value.size <= 16 and not dtype.hasobject else None
    if kind is TensorShape:
        return (kind, value._dims)
    if kind is list or kind is tuple:
        keys = tuple(map(_value_key, value))
        return None if None in keys else (kind, keys)
    if kind in (bool, int, float, str, bytes) or isinstance(value, dtypes.DType):
        return (kind, value)
    return None


class NodeWriter:
    """Adds NodeDefs to a GraphDef, filling each one's attrs from TensorFlow's OpDef.

    Names given to the extra nodes of an expanded op are made unique against the graph's own. The
    attr plan of each kind of node is made once per writer, and so is each node's template (all but
    its name and inputs) for nodes alike in type, device, dtypes, shapes and attr values, which
    every such node then copies.
    """

    def __init__(self, graph_def, graph, add_shapes=False, library=None, caches=None):
        self.graph_def = graph_def
        self._graph = graph
        self._library = library
        self._taken = None  # the names in use, gathered when an expanded op first needs one
        self._add_shapes = add_shapes
        self._new_node = graph_def.node.add
        # ``caches``: the op types, attr plans and templates of writers alike (a library's functions)
        self.op_types, self._plans, self._templates, self._op_templates = caches or (set(), {}, {}, {})

    @property
    def functions(self):
        """The :class:`~numflow.framework.function_export.LibraryWriter` of the functions the ops name
        (the GraphDef's ``library``, made on first use)."""
        if self._library is None:
            from numflow.framework.function_export import LibraryWriter

            self._library = LibraryWriter(self.graph_def.library, self.op_types, self._plans)
        return self._library

    def unique(self, name):
        """``name``, or ``name_1``, ``name_2``... when a node has it already; reserved from now on."""
        if self._taken is None:
            self._taken = set(self._graph.nx_graph)
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
        return self._add(op_type, name, [n for n, _ in inputs], [d for _, d in inputs], attrs or {},
                         [d for d, _ in outputs], [s for _, s in outputs], device,
                         [f"^{c}" for c in controls], colocation)

    def _add(self, op_type, name, input_names, input_dtypes, attrs, output_dtypes, output_shapes, device,
             control_names, colocation):
        shapes = output_shapes if self._add_shapes else ()
        value_keys = [(k, _value_key(v)) for k, v in attrs.items()] if attrs else ()
        key = (op_type, device, colocation, tuple([d._enum for d in input_dtypes]),
               tuple([d._enum for d in output_dtypes]), tuple([s._dims for s in shapes]), *value_keys)
        template = self._templates.get(key)
        if template is None:
            template = self._template(op_type, name, input_dtypes, attrs, output_dtypes, shapes, device, colocation)
            if all(v is not None for _, v in value_keys):  # a value without a key may not repeat: not kept
                self._templates[key] = template
        return self._emit(template, name, input_names + control_names if control_names else input_names)

    def _emit(self, template, name, input_names):
        """Add a copy of NodeDef ``template`` named ``name`` with ``input_names``; returns it."""
        node = self._new_node()
        node.CopyFrom(template)
        node.name = name
        node.input.extend(input_names)
        return node

    def add_ops(self, ops, exports):
        """A NodeDef for each op: ``exports[op.type](self, op)`` where given, else ``op_node(op)``.

        The loop of a whole graph: each node's template is found by a key quick to make from its op.
        """
        templates, new_node, dtype_enum, dims, value_key = (self._op_templates, self._new_node, _DTYPE_ENUM, _DIMS,
                                                            _value_key)
        for op in ops:
            op_type = op._type
            export = exports.get(op_type)
            if export is not None:
                export(self, op)
                continue
            attrs, outputs = op._attrs, op._outputs
            # The key: the op type, device, colocation, one output's dtype and dims or None and every
            # output's, the inputs' dtypes, and, after a None, the attrs' names and values.
            if len(outputs) == 1:
                out = outputs[0]
                key = (op_type, op._device, op._colocation, out._dtype._enum, out._shape._dims)
            else:
                key = (op_type, op._device, op._colocation, None, *map(dtype_enum, outputs), *map(dims, outputs))
            names = []
            for t in op._inputs:  # loops, not comprehensions or maps: quicker for an op's few inputs
                key += (t._dtype._enum,)
                names.append(t._op._name if t._value_index == 0 else f"{t._op._name}:{t._value_index}")
            if attrs:
                key += (None, *attrs, *map(value_key, attrs.values()))
            template = templates.get(key)
            if template is None:
                inputs = op._inputs
                template = self._template(op_type, op._name, [t._dtype for t in inputs], attrs,
                                          [t._dtype for t in outputs],
                                          [t._shape for t in outputs] if self._add_shapes else (), op._device,
                                          op._colocation)
                if not attrs or None not in key[-len(attrs):]:  # a value without a key may not repeat: not kept
                    templates[key] = template
            for c in op._control_inputs:
                names.append(f"^{c._name}")
            # self._emit(template, op._name, names), inline: this loop runs once per op of the graph
            node = new_node()
            node.CopyFrom(template)
            node.name = op._name
            if names:  # none for a constant or a placeholder: the field is not touched
                node.input.extend(names)

    def _template(self, op_type, name, input_dtypes, attrs, output_dtypes, shapes, device, colocation):
        """A NodeDef with all but the name and inputs: the op type, device and attrs."""
        plan_key = (op_type, *[d._enum for d in input_dtypes], None, *[d._enum for d in output_dtypes], None,
                    *[(k, _value_key(v)) for k, v in attrs.items()])  # a count attr's value splits the inputs
        plan = self._plans.get(plan_key)
        if plan is None:
            plan = self._plans[plan_key] = _AttrPlan(op_type, name, input_dtypes, output_dtypes, attrs)
        self.op_types.add(op_type)
        node = node_def_pb2.NodeDef(op=op_type, device=device or "", attr=plan.fixed)
        for key, kind in plan.own:
            _convert(key, attrs[key], kind, name, op_type, node.attr[key])
        if colocation:
            attr_values.to_attr_value([f"loc:@{g}" for g in colocation], "list(string)", node.attr["_class"])
        if shapes:
            attr_values.to_attr_value(shapes, "list(shape)", node.attr["_output_shapes"])
        return node

    def op_node(self, op, op_type=None, name=None, inputs=None, attrs=None, controls=None):
        """A NodeDef for numflow ``op``, by default as it stands: its type, name, inputs and attrs."""
        if inputs is None:
            input_names, input_dtypes = [tensor_name(t) for t in op._inputs], [t._dtype for t in op._inputs]
        else:
            input_names, input_dtypes = [n for n, _ in inputs], [d for _, d in inputs]
        controls = [c._name for c in op._control_inputs] if controls is None else controls
        outputs = op._outputs
        return self._add(op_type or op._type, name or op._name, input_names, input_dtypes,
                         op._attrs if attrs is None else attrs, [t._dtype for t in outputs],
                         [t._shape for t in outputs], op._device, [f"^{c}" for c in controls], op._colocation)


def graph_to_graph_def(graph, add_shapes=False, ops=None):
    """The GraphDef of ``graph`` (of ``ops`` only, in graph order, when given).

    Raises
    ------
    ValueError
        An op with an attr that has no GraphDef form (the message names the op and attr).
    """
    from numflow.protos import graph_pb2

    graph_def = graph_pb2.GraphDef()
    write_nodes(graph, graph_def, add_shapes, ops)
    return graph_def


def write_nodes(graph, graph_def, add_shapes=False, ops=None):
    """Fill ``graph_def`` (a new one, or a MetaGraphDef's) as :func:`graph_to_graph_def`; returns the
    set of op types written."""
    from numflow.framework.op_mapping import EXPORTS

    graph_def.versions.producer = op_defs.GRAPH_DEF_VERSION
    with graph._lock:
        writer = NodeWriter(graph_def, graph, add_shapes)
        ops = list(map(operator.itemgetter("op"), graph.nx_graph._node.values())) if ops is None else ops
        writer.add_ops(outside_control_flow(writer, graph, ops), EXPORTS)
    return writer.op_types


def outside_control_flow(writer, graph, ops):
    """The ``ops`` of ``graph`` that are nodes of their own: those of cond branches and loops go into
    the functions of their If, Case and While (made ready in ``writer``'s library)."""
    if graph._resolve_inputs is None:  # no control flow was ever built in the graph
        return ops
    from numflow.ops import control_flow_export

    control_flow_export.prepare(writer.functions, graph)
    return [op for op in ops if op._control_flow_context is None]
