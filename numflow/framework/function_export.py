"""Bodies of ops as FunctionDefs in a GraphDef's ``library``, as TensorFlow keeps the functions its ops name.

TensorFlow keeps the branches of ``If`` and ``Case``, the condition and body of ``While`` and the
functions of tf.data's ops as FunctionDefs, which the ops name in func attrs. numflow builds the same
bodies as ops of its graph (a control-flow context's ops, or a dataset function's own graph).
:class:`FunctionWriter` writes one such body: its ops as ``graph_export.NodeWriter`` writes a graph's
(the same attrs and expansions), each input renamed as a function names it (``node:output_arg:index``
for an output of a node of the body, the argument's name for a tensor from outside), and its results
as ``ret``. Control inputs from outside the body are left out: the op calling the function waits
for them.

A tensor may travel wrapped in optionals (``LibraryWriter.layers``: a cond's intermediate, which
only one branch gives): the consumers that take it as it is (``RAW_CONSUMERS``) get it so, any
other gets it through ``OptionalGetValue`` nodes, one per layer.
"""

import re

from numflow.framework import attr_values, dtypes, op_defs
from numflow.framework.attr_values import AttrError
from numflow.framework.graph_io import parse_tensor_name

# Node types that take a wrapped tensor as it is: the functional ops pass it on to their functions.
RAW_CONSUMERS = frozenset(["If", "StatelessIf", "Case", "StatelessCase", "While", "StatelessWhile",
                           "OptionalGetValue"])
_NOT_NAME = re.compile(r"[^A-Za-z0-9_]")


def tensor_key(tensor):
    """``op:index`` of a numflow tensor (the key of ``LibraryWriter.layers``)."""
    return f"{tensor.op.name}:{tensor.value_index}"


def function_name_part(name):
    """``name`` as a part of a function's name: letters, digits and underscores."""
    return _NOT_NAME.sub("_", name)


class LibraryWriter:
    """The functions written into one ``FunctionDefLibrary``, and what their writers share.

    ``layers``: ``{tensor key: [(dtype, shape) of each OptionalGetValue, outermost first]}`` for the
    tensors that travel wrapped. ``written``: functions already written, by what they were made from.
    """

    def __init__(self, proto, op_types=None, plans=None):
        self.proto = proto
        # what the functions' node writers share: the op types written (the graph's with them) and
        # the attr plans (the graph's writer's), then node templates of their own kind (no shapes)
        self.caches = (set() if op_types is None else op_types, {} if plans is None else plans, {}, {})
        self._names = {f.signature.name for f in proto.function}
        self.layers = {}
        self.written = {}

    def new_name(self, base):
        """A function name made from ``base``, unique in the library and not an op type's."""
        base = function_name_part(base)
        candidate, i = base, 0
        while candidate in self._names or op_defs.get(candidate) is not None:
            i += 1
            candidate = f"{base}_{i}"
        self._names.add(candidate)
        return candidate

    def function(self, base, graph):
        """A :class:`FunctionWriter` for a new function named after ``base``, of ops of ``graph``."""
        return FunctionWriter(self, self.new_name(base), graph)


def _arg_sizes(node, args):
    """How many tensors each of the OpDef args ``args`` stands for in NodeDef ``node``."""
    sizes = []
    for arg in args:
        if arg.number_attr:
            sizes.append(node.attr[arg.number_attr].i)
        elif arg.type_list_attr:
            sizes.append(len(node.attr[arg.type_list_attr].list.type))
        else:
            sizes.append(1)
    return sizes


def output_refs(node):
    """How a function names each output of NodeDef ``node``: ``node:output_arg:index``, in order."""
    op_def = op_defs.get(node.op)
    if op_def is None:  # numflow's own op types: one list
        return _Outputs(node.name, "output")
    return [f"{node.name}:{arg.name}:{j}" for arg, size in zip(op_def.output_arg, _arg_sizes(node, op_def.output_arg))
            for j in range(size)]


def input_is_ref(node):
    """For each data input of NodeDef ``node``, whether its op takes a reference there."""
    op_def = op_defs.get(node.op)
    if op_def is None:
        return []
    return [arg.is_ref for arg, size in zip(op_def.input_arg, _arg_sizes(node, op_def.input_arg)) for _ in range(size)]


class _Outputs:
    """The output refs of a node whose op has no OpDef: every index of one list."""

    def __init__(self, name, arg):
        self._prefix = f"{name}:{arg}:"

    def __getitem__(self, index):
        return f"{self._prefix}{index}"


class FunctionWriter:
    """Writes one FunctionDef: its arguments, the ops of its body, and its results.

    Arguments come first (:meth:`arg`), each standing for a tensor from outside the body or for a
    value the caller passes (a loop's counter); then the body (:meth:`write_ops`, :meth:`node`); then
    the results (:meth:`ret`) and :meth:`finish`.
    """

    def __init__(self, library, name, graph):
        from numflow.framework.graph_export import NodeWriter
        from numflow.protos import function_pb2, graph_pb2

        self.library = library
        self.name = name
        self.fdef = function_pb2.FunctionDef()
        self.fdef.signature.name = name
        self._scratch = graph_pb2.GraphDef()
        self.nodes = NodeWriter(self._scratch, graph, library=library, caches=library.caches)
        self._moved = 0  # scratch nodes already moved into the function
        self._outputs = {}  # name of a node of the body -> its output refs (its NodeDef until first asked)
        self._arguments = {}  # tensor key -> argument name
        self._references = {}  # argument name -> the variable reference it stands for
        self._unwrapped = {}
        self._own_names = set()  # the arguments' names

    # -- arguments --------------------------------------------------------------------------
    def arg(self, base, dtype, tensor=None, shape=None):
        """Declare an argument of ``dtype`` named after ``base``; it stands for ``tensor`` (a
        tensor from outside the body) when given. Returns its name (its ref in the body).

        A variable's reference becomes its value: a TensorFlow function takes no references (an op
        of the body that changes the variable through it is an error, see :meth:`write_ops`).
        """
        name = function_name_part(base).lower().lstrip("_0123456789") or "arg"
        if tensor is None or tensor.op.name != name or name in self._own_names:
            name = self.nodes.unique(name)  # else the argument takes its op's name: the op is no node
        self._own_names.add(name)
        self.fdef.signature.input_arg.add(name=name, type=dtype.base_dtype.as_datatype_enum)
        if tensor is not None:
            self._arguments[tensor_key(tensor)] = name
            if tensor.dtype._is_ref_dtype:
                self._references[name] = tensor
        if shape is not None:
            index = len(self.fdef.signature.input_arg) - 1
            attr_values.to_attr_value([shape], "list(shape)", self.fdef.arg_attr[index].attr["_output_shapes"])
        return name

    # -- the body ---------------------------------------------------------------------------
    def write_ops(self, ops, exports):
        """Write numflow ``ops`` (of the body, in an order where inputs come first) as its nodes.

        Raises
        ------
        AttrError
            An op changes a variable from outside the body (an assign in a cond branch or a loop):
            TensorFlow's functions take no references (TensorFlow 1 writes such control flow as
            ``RefSwitch``/``RefEnter`` frames).
        """
        self.nodes.add_ops(ops, exports)
        self._move_new_nodes()

    def node(self, op_type, base, inputs=(), attrs=None, outputs=()):
        """Add a node made here (not from a numflow op): ``inputs`` are ``(ref, dtype)`` pairs,
        ``outputs`` ``(dtype, shape)`` pairs. Returns its output refs."""
        name = self.nodes.unique(base)
        scratch = self.nodes.node(op_type, name, inputs, attrs, outputs)
        node = self.fdef.node_def.add()
        node.CopyFrom(scratch)
        del self._scratch.node[-1]  # written here as it is: its inputs are refs already
        refs = self._outputs[name] = output_refs(node)
        return refs

    def ref(self, tensor, raw=False):
        """How the body names numflow ``tensor`` (an argument's or a node's output), unwrapped of its
        optionals unless ``raw``."""
        return self._tensor_ref(tensor.op.name, tensor.value_index, raw, f"function '{self.name}'")

    def _move_new_nodes(self):
        nodes = self._scratch.node
        for node in nodes[self._moved:]:
            self._outputs[node.name] = node  # its output refs once asked for
        while self._moved < len(nodes):
            node = nodes[self._moved]
            self._moved += 1
            moved = self.fdef.node_def.add()
            moved.CopyFrom(node)
            raw = node.op in RAW_CONSUMERS
            inputs = []
            for name in node.input:
                if name.startswith("^"):
                    if name[1:] in self._outputs:  # a control input from outside: the caller waits for it
                        inputs.append(name)
                    continue
                source, index = parse_tensor_name(name)
                inputs.append(self._tensor_ref(source, index, raw, f"node '{node.name}'"))
            if self._references:
                self._check_no_reference(node, inputs)
            moved.input[:] = inputs

    def _check_no_reference(self, node, inputs):
        for ref, takes_reference in zip(inputs, input_is_ref(node)):
            variable = self._references.get(ref)
            if variable is not None and takes_reference:
                raise AttrError(
                    f"node '{node.name}' ({node.op}) changes variable '{variable.op.name}' inside function "
                    f"'{self.name}' (a cond branch, loop or dataset function): TensorFlow's functions take no "
                    "variable references, so this control flow has no GraphDef form as functional ops (numflow "
                    "writes a cond that changes a variable as TensorFlow 1's Switch and Merge frames, but not a loop, "
                    "a cond inside another's branch or one whose values a gradient reads)")

    def _tensor_ref(self, source, index, raw, user):
        key = f"{source}:{index}"
        if source in self._outputs:
            refs = self._outputs[source]
            if not isinstance(refs, list | _Outputs):
                refs = self._outputs[source] = output_refs(refs)
            ref = refs[index]
        else:
            ref = self._arguments.get(key)
            if ref is None:
                raise AttrError(f"{user} of function '{self.name}' uses '{key}', which is neither computed in "
                                "the function nor one of its arguments")
        layers = self.library.layers.get(key)
        if layers and not raw:
            ref = self._unwrap(key, ref, layers)
        return ref

    def _unwrap(self, key, ref, layers):
        unwrapped = self._unwrapped.get(key)
        if unwrapped is None:
            for dtype, shape in layers:
                (ref,) = self.node("OptionalGetValue", f"{key.split(':')[0]}/optional_value",
                                   [(ref, dtypes.variant)], {"output_types": [dtype], "output_shapes": [shape]},
                                   [(dtype, shape)])
            unwrapped = self._unwrapped[key] = ref
        return unwrapped

    # -- results ----------------------------------------------------------------------------
    def ret(self, base, ref, dtype):
        """Add a result named after ``base`` given by ``ref``."""
        name = function_name_part(base).lower() or "output"
        taken = {a.name for a in self.fdef.signature.output_arg}
        candidate, i = name, 0
        while candidate in taken:
            i += 1
            candidate = f"{name}_{i}"
        self.fdef.signature.output_arg.add(name=candidate, type=dtype.base_dtype.as_datatype_enum)
        self.fdef.ret[candidate] = ref

    def finish(self, attrs=None):
        """Add the function to the library; returns its name. It is stateful when a node of it is."""
        self._move_new_nodes()
        self.fdef.signature.is_stateful = self.stateful
        for key, value in (attrs or {}).items():
            attr_values.to_attr_value(value, None, self.fdef.attr[key])
        self.library.proto.function.add().CopyFrom(self.fdef)
        return self.name

    @property
    def stateful(self):
        """Whether a node of the function has state (its op's OpDef says so, or numflow has none)."""
        return any(_is_stateful(n.op) for n in self.fdef.node_def)


def _is_stateful(op_type):
    op_def = op_defs.get(op_type)
    return op_def is None or op_def.is_stateful
