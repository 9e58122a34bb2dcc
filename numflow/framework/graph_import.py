"""GraphDef -> Graph: ``tf.import_graph_def``.

Each NodeDef becomes one numflow op of the same type and name (under the import scope), in an
order where every input exists first. Attrs are read with TensorFlow's OpDef: an attr the OpDef
does not have is an error, a missing one takes the OpDef's default; attrs starting with ``_`` are
TensorFlow's bookkeeping, of which ``_class`` (colocation) is kept. TensorFlow 1's control flow
frames (Switch, Merge, Enter...) are rebuilt as numflow's conds and loops (``frames_import``).
Nothing read from the graph is executed: values are parsed by protobuf and numpy only.
"""

import contextlib
import gc

import numpy as np

from numflow.framework import attr_values, dtypes, op_defs, registry
from numflow.framework.attr_values import AttrError
from numflow.framework.device_spec import canonical_device
from numflow.framework.errors import InvalidArgumentError, NotFoundError
from numflow.framework.frames import FRAME_OPS, has_frames
from numflow.framework.frames_import import FramesBuilder, loop_invariants
from numflow.framework.graph import constant_value, creation_stack, get_default_graph
from numflow.framework.graph_io import parse_tensor_name
from numflow.framework.op_mapping import IMPORTS


def as_graph_def(graph_def):
    """numflow's GraphDef message for ``graph_def``: itself, TensorFlow's message of it, or its bytes."""
    from numflow.protos import graph_pb2

    if isinstance(graph_def, graph_pb2.GraphDef):
        return graph_def
    if isinstance(graph_def, bytes | bytearray | memoryview):
        return graph_pb2.GraphDef.FromString(bytes(graph_def))
    serialize = getattr(graph_def, "SerializeToString", None)
    if serialize is None or getattr(getattr(graph_def, "DESCRIPTOR", None), "full_name", "") != "tensorflow.GraphDef":
        raise TypeError(f"graph_def must be a GraphDef proto, not {type(graph_def).__name__}.")
    return graph_pb2.GraphDef.FromString(serialize())


def check_versions(versions):
    """InvalidArgumentError for a GraphDef too new for the TensorFlow version numflow follows."""
    if versions.min_consumer > op_defs.GRAPH_DEF_VERSION:
        raise InvalidArgumentError(None, None, f"GraphDef min consumer version {versions.min_consumer} above current "
                                   f"version {op_defs.GRAPH_DEF_VERSION} for TensorFlow. Please upgrade TensorFlow.")
    if op_defs.GRAPH_DEF_VERSION in versions.bad_consumers:
        raise InvalidArgumentError(None, None, f"GraphDef disallows consumer version {op_defs.GRAPH_DEF_VERSION}. "
                                   "Please upgrade TensorFlow: this version is likely buggy.")


def _ordered(names, inputs):
    """The positions of nodes ``names`` in an order where each one's inputs come first: the file's
    order when it is one. ``inputs[i]``: the ``(node name, output index)`` pairs node ``i`` reads.

    Raises ValueError for two nodes of one name, or a cycle (a graph holding no loop frames has none).
    """
    position = {}
    for i, name in enumerate(names):
        if name in position:
            raise ValueError(f"Duplicate node name in graph: '{name}'")
        position[name] = i
    seen = set()
    for name, pairs in zip(names, inputs):
        for source, _ in pairs:
            if source not in seen and source in position:
                break
        else:
            seen.add(name)
            continue
        break
    else:
        return range(len(names))
    done, active, order = set(), set(), []
    for root in range(len(names)):
        stack = [(root, False)]
        while stack:
            i, expanded = stack.pop()
            if expanded:
                active.discard(i)
                done.add(i)
                order.append(i)
                continue
            if i in done:
                continue
            if i in active:
                raise ValueError(f"GraphDef has a cycle through node '{names[i]}' (and no while loop frames)")
            active.add(i)
            stack.append((i, True))
            stack.extend((position[s], False) for s, _ in inputs[i] if s in position and position[s] not in done)
    return order


class _AttrReader:
    """Reads NodeDef attrs with TensorFlow's OpDefs, each OpDef's names and defaults gathered once.

    Values that repeat (types, shapes, small constants...) are converted once: an AttrValue's bytes
    key its numflow value, handed out as a copy where it could be changed (lists, arrays).
    """

    _SMALL = 64  # bytes of an AttrValue worth remembering

    def __init__(self):
        self._known = {}
        self._values = {}

    def attrs(self, node):
        """``{attr: numflow value}`` of ``node``, with the OpDef's defaults for those it leaves out.

        Raises ValueError for an attr the OpDef lacks, or a value numflow cannot take.
        """
        known = self._known.get(node.op)
        if known is None:
            known = self._known[node.op] = self._op_def_attrs(node.op)
        names, defaults = known
        attrs = {}
        node_attrs = node.attr
        for key in node_attrs:  # keys first: a value is read only where it is kept (not ``_output_shapes``)
            if key.startswith("_"):
                continue
            if names is not None and key not in names:
                raise ValueError(f"Node '{node.name}': NodeDef mentions attr '{key}' not in Op {node.op} "
                                 f"(its attrs: {', '.join(names) or 'none'}); the graph was written by a newer or "
                                 "another TensorFlow.")
            try:
                attrs[key] = self._value(node_attrs[key])
            except AttrError as exc:
                raise ValueError(f"Node '{node.name}' ({node.op}): attr '{key}': {exc}") from None
        for key, attr in defaults:
            if key not in attrs:
                attrs[key] = self._value(attr)
        return attrs

    @staticmethod
    def _op_def_attrs(op_type):
        op_def = op_defs.get(op_type)
        if op_def is None:
            return None, ()
        return ([a.name for a in op_def.attr],
                [(a.name, a.default_value) for a in op_def.attr if a.HasField("default_value")])

    def _value(self, attr):
        raw = attr.SerializeToString()
        if len(raw) > self._SMALL:
            return attr_values.from_attr_value(attr)
        value = self._values.get(raw)
        if value is None:
            value = self._values[raw] = attr_values.from_attr_value(attr)
        if isinstance(value, list):
            return list(value)
        return value.copy() if isinstance(value, np.ndarray) else value


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while a graph is built, and as it was again afterwards.

    Each op makes several objects, and the collector, counting them, would walk the whole growing
    graph again and again (half the time of importing 10,000 ops); an import leaves no garbage cycles
    to find meanwhile.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# Op types of older TensorFlow graphs (1.x before AddV2, 0.x's Inv) -> the op numflow declares for the
# same computation. Div is RealDiv's or TruncateDiv's, by its dtype.
_RENAMED = {"Add": "AddV2", "BatchMatMul": "BatchMatMulV2", "Inv": "Reciprocal"}
_LAST_UNSHAPED_PLACEHOLDERS = 21  # the GraphDef version up to which a Placeholder's `shape {}` meant any shape


def current_nodes(graph_def):
    """The NodeDefs of ``graph_def`` as TensorFlow reads them today: an older op type renamed to the
    one computing it alike, and, from a GraphDef of version 21 or older, a Placeholder of shape
    ``{}`` taking any shape. Nodes that change are copies; ``graph_def`` stays as it is."""
    unshaped = graph_def.versions.producer <= _LAST_UNSHAPED_PLACEHOLDERS
    return [_current(node, unshaped) for node in graph_def.node]


def _current(node, unshaped_placeholders):
    op_type = _RENAMED.get(node.op)
    if node.op == "Div":
        dtype = dtypes.as_dtype(node.attr["T"].type)
        op_type = "RealDiv" if dtype.is_floating or dtype.is_complex else "TruncateDiv"
    any_shape = (unshaped_placeholders and node.op == "Placeholder" and not node.attr["shape"].shape.dim
                 and not node.attr["shape"].shape.unknown_rank)
    if op_type is None and not any_shape:
        return node
    current = type(node)()
    current.CopyFrom(node)
    if op_type is not None:
        current.op = op_type
    if any_shape:
        current.attr["shape"].shape.unknown_rank = True
    return current


# Node types built with the functions they name: op type -> fn(importer, node, inputs, controls, attrs,
# name, graph) returning (the op, its outputs as TensorFlow's node has them); filled by the modules of
# ``_BUILDER_MODULES`` when a graph is first read.
BUILDERS = {}
_BUILDER_MODULES = ("numflow.ops.control_flow_import", "numflow.data.graph_import",
                    "numflow.ops.resource_variable_import")


def _load_builders():
    import importlib

    for module in _BUILDER_MODULES:
        importlib.import_module(module)


class Importer:
    """Builds the ops of one GraphDef into ``graph`` under ``prefix`` (``"import/"``, or ``""``);
    ``library``: the GraphDef's FunctionDefLibrary, whose functions the ops may name;
    ``cond_contexts``: the CondContextDefs of the MetaGraph holding it."""

    def __init__(self, graph, prefix, input_map=None, clear_devices=False, library=None, cond_contexts=()):
        from numflow.framework.function_import import FunctionLibrary

        self.graph = graph
        self.prefix = prefix
        self.input_map = {_tensor_key(k): v for k, v in (input_map or {}).items()}
        self.used_keys = set()
        self.clear_devices = clear_devices
        self.library = FunctionLibrary(library)
        self.cond_contexts = cond_contexts  # a MetaGraph's CondContextDefs, pairing its conds' Switches
        self.trial_invariants = None  # in a trial build of frames, the loop variables' shapes found so far
        self.ops = {}
        self.outputs = {}  # node name -> its outputs as the GraphDef numbers them
        self._stack = None

    def tensor(self, node, raw):
        """The tensor (or, for ``^name``, the op) that input ``raw`` of NodeDef ``node`` names."""
        return self._input(node, raw, *parse_tensor_name(raw))

    def _input(self, node, raw, source, index):
        if self.input_map:
            key = f"^{source}" if index < 0 else f"{source}:{index}"
            if key in self.input_map:
                self.used_keys.add(key)
                return self.input_map[key]
        op = self.ops.get(source)
        if op is None:
            raise ValueError(f"Node '{node.name}': Unknown input node '{raw}'")
        if index < 0:
            return op
        outputs = self.outputs[source]
        if index >= len(outputs):
            raise ValueError(f"Node '{node.name}': Connecting to invalid output {index} of source node {source} "
                             f"which has {len(outputs)} outputs.")
        return outputs[index]

    def build(self, nodes):
        """Add every node; returns ``{node name: Operation}``."""
        with _collector_paused():
            return self._build(nodes)

    def _build(self, nodes):
        from numflow.ops import stack_ops, variant_ops  # noqa: F401  (TensorLists, optionals, stacks: declared)

        _load_builders()
        declared = set(registry.declared_types())
        reader = _AttrReader()
        all_attrs = {}
        nodes = list(nodes)  # each NodeDef's Python object made once for the passes below
        for node in nodes:  # every node checked before the graph changes
            if node.op not in declared and node.op not in BUILDERS and node.op not in FRAME_OPS:
                raise NotFoundError(None, None, f"Op type not registered '{node.op}' in numflow (node '{node.name}'). "
                                    "numflow runs the ops it declares; this one has no numflow kernel.")
            all_attrs[node.name] = reader.attrs(node)
        self.library.check(nodes, lambda op_type: op_type in declared or op_type in BUILDERS, reader)
        frames = None
        if has_frames(nodes):
            invariants = None if self.trial_invariants is not None else loop_invariants(self, nodes)
            frames = FramesBuilder(self, nodes, all_attrs, self.cond_contexts, invariants)
        names_in_use = self.graph._names_in_use  # the ops built beside the nodes (a loop's variables) avoid their names
        names = [node.name for node in nodes]
        prefix = self.prefix
        for name in names:
            key = f"{prefix}{name}".lower()
            if not names_in_use.get(key):
                names_in_use[key] = 1
        self._stack = creation_stack()  # one for every op: where the import was called
        if frames is not None:
            frames.build()
        else:
            raws = [node.input[:] for node in nodes]  # a slice of a repeated field: much quicker than iterating it
            parsed = [[parse_tensor_name(raw) for raw in node_raws] for node_raws in raws]
            for i in _ordered(names, parsed):
                node, inputs, controls = nodes[i], [], []
                for raw, (source, index) in zip(raws[i], parsed[i]):
                    item = self._input(node, raw, source, index)
                    (controls if index < 0 else inputs).append(item)
                self.add(node, inputs, controls, all_attrs[names[i]])
        unused = sorted(set(self.input_map) - self.used_keys)
        if unused:
            raise ValueError(f"Attempted to map inputs that were not found in graph_def: [{', '.join(unused)}]")
        return self.ops

    def add(self, node, inputs, controls, attrs):
        """Build NodeDef ``node`` on ``inputs`` and ``controls`` (tensors or ops) and record it."""
        if controls:
            controls = [c.op if hasattr(c, "value_index") else c for c in controls]
        op, outputs = self.make(node, inputs, controls, attrs, f"{self.prefix}{node.name}")
        self.placed(node, op, outputs)

    def placed(self, node, op, outputs):
        """Record ``op`` (with ``outputs`` as the node numbers them) as what NodeDef ``node`` became."""
        if "_class" in node.attr:
            groups = [g.decode() if isinstance(g, bytes) else g for g in node.attr["_class"].list.s]
            op._colocation = tuple(self.prefix + g[5:] for g in groups if g.startswith("loc:@"))
        if node.device and not self.clear_devices and op.type != node.op:
            op._device = canonical_device(node.device)
        self.ops[node.name] = op
        self.outputs[node.name] = outputs

    def make(self, node, inputs, controls, attrs, name, graph=None, where=None):
        """Build NodeDef ``node`` as the op ``name`` of ``graph`` (default: the importer's) on ``inputs``;
        returns the op and its outputs as the node numbers them. ``where``: the function holding it."""
        graph = graph if graph is not None else self.graph
        try:
            builder = BUILDERS.get(node.op)
            if builder is not None:
                op, outputs = builder(self, node, inputs, controls, attrs, name, graph)
            else:
                special = IMPORTS.get(node.op)
                if special is not None:
                    inputs, attrs = special(inputs, attrs, constant_value)
                op = graph.create_op(node.op, inputs, attrs, name=f"{name}/", control_inputs=controls,
                                     creation_stack=self._stack)
                outputs = op._outputs
        except (ValueError, TypeError) as exc:
            if str(exc).startswith("Node '"):
                raise
            label = f"Node '{node.name}'" + (f" of {where}" if where else "")
            raise type(exc)(f"{label} ({node.op}): {exc}") from exc
        if node.device and not self.clear_devices:
            op._device = canonical_device(node.device)
        return op, outputs

    def element(self, name):
        """The new graph's Tensor or Operation for a name of the GraphDef (for ``return_elements``)."""
        if ":" in name:
            source, index = parse_tensor_name(name)
            outputs = self.outputs.get(source)
            if outputs is None or index >= len(outputs):
                raise ValueError(f"Requested return tensor '{name}' not found in graph def")
            return outputs[index]
        op = self.ops.get(name)
        if op is None:
            raise ValueError(f"Requested return node '{name}' not found in graph def")
        return op


def _tensor_key(key):
    if not isinstance(key, str):
        raise TypeError(f"input_map keys must be strings, not {type(key).__name__}")
    if key.startswith("^"):
        return key
    source, index = parse_tensor_name(key)
    return f"{source}:{index}"


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Add the ops of ``graph_def`` to the default graph.

    Parameters
    ----------
    graph_def : GraphDef
        numflow's or TensorFlow's message, or its serialized bytes.
    input_map : dict, optional
        ``{tensor name in graph_def: Tensor}``: those inputs come from the given tensors instead.
    return_elements : list of str, optional
        Names of operations or tensors of ``graph_def`` to return as this graph's objects.
    name : str, optional
        Prefix of the new ops' names (default ``"import"``; ``""`` for none).
    op_dict, producer_op_list :
        Ignored, as in TensorFlow 1.x.

    Returns
    -------
    list or None
        The objects named in ``return_elements``, else None.

    Raises
    ------
    ValueError
        A node that does not fit its op (inputs, attrs, shapes), an unknown input, unused
        ``input_map`` keys, or missing ``return_elements``.
    NotFoundError
        A node's op type is not one numflow declares.
    """
    del op_dict, producer_op_list
    graph_def = as_graph_def(graph_def)
    check_versions(graph_def.versions)
    if input_map is not None and not isinstance(input_map, dict):
        raise TypeError("input_map must be a dictionary mapping strings to Tensor objects.")
    graph = get_default_graph()
    with graph.name_scope(name if name is not None else "import") as scope:
        importer = Importer(graph, scope, input_map, library=graph_def.library)
        importer.build(current_nodes(graph_def))
    if return_elements is None:
        return None
    return [importer.element(n) for n in return_elements]
