"""A GraphDef's function library read back: each FunctionDef checked before anything is built, then
instantiated as ops of numflow's graph wherever an op names it.

numflow has no functions of its own: the op naming a function (``If``, ``While``, ``MapDataset``...)
is built with the function's nodes as ops in its place (a cond's branch context, a loop's condition
and body, a dataset function's graph), their inputs taken from the tensors given for the function's
arguments. A function used twice is built twice. Node names keep the function's where they already
lie under the calling op's name scope (functions numflow wrote), and go under the calling op's name
otherwise (``cond/mul_0`` for TensorFlow's ``mul_0`` of the function ``cond`` calls).

Errors are TensorFlow's: a missing function and an unknown op type are ``NotFoundError``, a body whose
inputs or results name nothing is ``InvalidArgumentError``, two functions of one name that differ
are ``ValueError``; each message names the function and the node. Nothing is built from a library
that fails a check, and nothing in it is executed.
"""

from numflow.framework import op_defs
from numflow.framework.errors import InvalidArgumentError, NotFoundError
from numflow.framework.function_export import output_refs

_NAMES_FUNCTIONS = {}  # op type -> whether its OpDef has an attr of type func or list(func) (or it has no OpDef)


def _func_names(node):
    """The functions ``node`` names in its attrs."""
    may = _NAMES_FUNCTIONS.get(node.op)
    if may is None:
        op_def = op_defs.get(node.op)
        may = _NAMES_FUNCTIONS[node.op] = op_def is None or any(a.type in ("func", "list(func)") for a in op_def.attr)
    if not may:
        return []
    names = []
    for attr in node.attr.values():
        kind = attr.WhichOneof("value")
        if kind == "func":
            names.append(attr.func.name)
        elif kind == "list" and len(attr.list.func):
            names += [f.name for f in attr.list.func]
    return names


def source_node(ref):
    """The node a function input names (None for an argument)."""
    if ref.startswith("^"):
        return ref[1:]
    return ref.split(":", 1)[0] if ":" in ref else None


class FunctionLibrary:
    """The FunctionDefs of a GraphDef's library by name, and their nodes' attrs once checked."""

    def __init__(self, proto=None):
        self.functions = {}
        for fdef in proto.function if proto is not None else ():
            name = fdef.signature.name
            known = self.functions.get(name)
            if known is not None and known != fdef:
                raise ValueError(f"Cannot add function '{name}' because a different function with the same name "
                                 "already exists.")
            self.functions[name] = fdef
        self._attrs = {}  # (function, node) -> numflow attrs

    def get(self, name, user):
        fdef = self.functions.get(name)
        if fdef is None:
            raise NotFoundError(None, None, f"Function {name} is not defined ({user} names it).")
        return fdef

    def check(self, nodes, known_op, reader):
        """Check every function ``nodes`` name, and those their nodes name in turn: each exists, its
        nodes' op types are ``known_op``, their attrs read (with ``reader``), their inputs and the
        results name nodes and arguments of the function, and no function calls itself."""
        pending = [(name, f"node '{node.name}'") for node in nodes for name in _func_names(node)]
        checked, calls = set(), {}
        while pending:
            name, user = pending.pop()
            fdef = self.get(name, user)
            if name in checked:
                continue
            checked.add(name)
            calls[name] = set()
            for node in fdef.node_def:
                where = f"node '{node.name}' of function '{name}'"
                if not known_op(node.op):
                    if node.op in self.functions:
                        raise NotFoundError(None, None, f"{where} calls function '{node.op}' as an op; numflow "
                                            "runs functions only as the branches, loops and dataset functions of "
                                            "the ops that name them.")
                    raise NotFoundError(None, None, f"Op type not registered '{node.op}' in numflow ({where}). "
                                        "numflow runs the ops it declares; this one has no numflow kernel.")
                try:
                    self._attrs[(name, node.name)] = reader.attrs(node)
                except ValueError as exc:
                    raise ValueError(f"{exc} (in function '{name}')") from None
                for callee in _func_names(node):
                    calls[name].add(callee)
                    pending.append((callee, where))
            self._check_refs(name, fdef)
        _check_no_cycle(calls)

    def _check_refs(self, name, fdef):
        args = {a.name for a in fdef.signature.input_arg}
        nodes = {node.name: node for node in fdef.node_def}
        refs = {}
        for node in fdef.node_def:
            for ref in node.input:
                self._check_ref(name, ref, args, nodes, refs, f"{{{{node {node.name}}}}}")
        for out in fdef.signature.output_arg:
            ref = fdef.ret.get(out.name)
            if ref is None:
                raise InvalidArgumentError(None, None, f"Function '{name}' gives no value for its output {out.name}.")
            self._check_ref(name, ref, args, nodes, refs, f"function output {out.name}")

    @staticmethod
    def _check_ref(name, ref, args, nodes, refs, user):
        source = source_node(ref)
        if source is None:
            found = ref in args
        elif ref.startswith("^"):
            found = source in nodes
        else:
            if source not in refs and source in nodes:
                refs[source] = set(output_refs(nodes[source])) if op_defs.get(nodes[source].op) else None
            found = source in refs and (refs[source] is None or ref in refs[source])
        if not found:
            raise InvalidArgumentError(None, None, f"input {ref} is not found: {user} of function '{name}'")

    def attrs(self, function, node):
        return self._attrs[(function, node)]


def _check_no_cycle(calls):
    state = {}
    for root in calls:
        stack = [(root, iter(calls[root]))]
        state[root] = "active"
        while stack:
            name, callees = stack[-1]
            callee = next(callees, None)
            if callee is None:
                state[name] = "done"
                stack.pop()
            elif state.get(callee) == "active":
                raise InvalidArgumentError(None, None, f"Function '{callee}' calls itself (through '{name}'); "
                                           "a function library must not be recursive.")
            elif callee not in state:
                state[callee] = "active"
                stack.append((callee, iter(calls.get(callee, ()))))


def _ordered(fdef, roots):
    """The nodes of ``fdef`` that the refs ``roots`` need, in an order where each one's inputs come
    first (the library was checked)."""
    nodes = {node.name: node for node in fdef.node_def}
    done, order = set(), []
    for root in roots:
        stack = [(root, False)]
        while stack:
            name, expanded = stack.pop()
            if expanded:
                if name not in done:
                    done.add(name)
                    order.append(nodes[name])
                continue
            if name in done:
                continue
            stack.append((name, True))
            stack.extend((s, False) for s in map(source_node, nodes[name].input) if s is not None and s not in done)
    return order


def node_names(graph, prefix, caller):
    """How the nodes of a function that op ``caller`` (its numflow name) calls are named in ``graph``:
    as they are where they lie under the caller's name scope (or where there is no caller: a graph
    of the function's own), else under the caller's name; suffixed ``_1``, ``_2``... where taken."""
    scope = caller[len(prefix):].rpartition("/")[0] if caller is not None else None
    taken, names_in_use = graph.nx_graph, graph._names_in_use

    def name_of(node_name):
        if caller is None:
            name = node_name
        elif scope and node_name.startswith(scope + "/"):
            name = prefix + node_name
        else:
            name = f"{caller}/{node_name}"
        candidate, i = name, 0
        while candidate in taken or candidate.lower() in names_in_use:
            i += 1
            candidate = f"{name}_{i}"
        names_in_use[candidate.lower()] = 1
        return candidate

    return name_of


def instantiate(importer, function, args, caller, graph=None, results=None):
    """Build the nodes of ``function`` (a name of the importer's library) into ``graph`` (default: the
    importer's), its arguments given by the tensors ``args`` (in signature order); returns the tensors of
    its results, in order. ``caller``: the numflow name of the op calling it (None: ``graph`` is the
    function's own). ``results``: the refs to return instead of the function's results (only the
    nodes they and the function's control results need are built; None stands for an argument
    that nothing built reads)."""
    library = importer.library
    fdef = library.functions[function]
    graph = graph if graph is not None else importer.graph
    signature = fdef.signature
    if len(args) != len(signature.input_arg):
        raise InvalidArgumentError(None, None, f"Function '{function}' takes {len(signature.input_arg)} arguments, "
                                   f"but {caller} gives it {len(args)}.")
    values = {arg.name: t for arg, t in zip(signature.input_arg, args)}
    name_of = node_names(graph, importer.prefix, caller)
    if results is None:
        results = [fdef.ret[out.name] for out in signature.output_arg]
    roots = [source_node(ref) for ref in results] + list(fdef.control_ret.values())
    outputs, ops = {}, {}
    for node in _ordered(fdef, [r for r in roots if r is not None]):
        inputs, controls = [], []
        for ref in node.input:
            source = source_node(ref)
            if ref.startswith("^"):
                controls.append(ops[source])
            elif source is None:
                inputs.append(values[ref])
            else:
                inputs.append(outputs[source][ref])
        built = importer.make(node, inputs, controls, library.attrs(function, node.name), name_of(node.name),
                              graph=graph, where=f"function '{function}'")
        ops[node.name] = built[0]
        outputs[node.name] = dict(zip(_all_refs(node, len(built[1])), built[1]))
    tensors = [values[ref] if source_node(ref) is None else outputs[source_node(ref)][ref] for ref in results]
    if fdef.control_ret:
        tensors = _after(graph, tensors, [ops[n] for n in fdef.control_ret.values()], name_of)
    return tensors


def _all_refs(node, count):
    refs = output_refs(node)
    return refs if isinstance(refs, list) else [refs[i] for i in range(count)]


def _after(graph, results, ops, name_of):
    """``results`` through Identities that wait for ``ops`` (a function's control results, which run
    whether or not the results need them)."""
    return [graph.create_op("Identity", [t], name=name_of("control_dependency") + "/", control_inputs=ops).outputs[0]
            for t in results]
