"""The dataset and iterator ops in a GraphDef, as TensorFlow's nodes: the attrs of TensorFlow's OpDef
only (``Toutput_types``, ``Targuments``, ``N`` derived from the inputs), and numflow's own attrs (the
traced functions, a one-shot iterator's dataset) written as TensorFlow writes them.

Each function of a dataset op (``map``, ``filter``, ``scan``, ``group_by_window``'s three...) becomes a
FunctionDef of the library, named in the op's func attr (``f``, ``predicate``, ``key_func``...; table
``op_types.FUNCTION_ATTRS``): its arguments are the element's components (``args_0``...; a scan's
state first) then the tensors it captured (the op's ``other_arguments``). A one-shot iterator's ``dataset_factory`` is a
function without arguments making its dataset: a copy of the ops its dataset is made of, as
TensorFlow copies them. ``from_generator`` runs Python code, which no graph file can hold: a graph
holding one has no GraphDef form.
"""

from numflow.data import op_types
from numflow.framework import op_defs, op_mapping
from numflow.framework.attr_values import AttrError
from numflow.framework.graph_export import outside_control_flow

_OP_TYPES = (*op_types.PLAIN, "IteratorV2", "IteratorGetNext", "IteratorFromStringHandleV2", "OneShotIterator",
             *op_types.FUNCTION_ATTRS)
_DATA_FUNCTION = {"_tf_data_function": True}


def _export(writer, op):
    op_def = op_defs.get(op.type)
    known = {a.name for a in op_def.attr}
    # The dtypes of an op's lists of inputs are derived from its inputs; those it holds stay, to tell
    # how many inputs each list takes (a scan's state, each function's captured tensors).
    attrs = {k: v for k, v in op._attrs.items() if k in known and not (k.startswith("T") and k[1:] in op._attrs)}
    if op.type in op_types.FUNCTION_ATTRS:
        if op._attrs.get("generator") is not None:
            raise AttrError(f"node '{op.name}' ({op.type}) is Dataset.from_generator, which runs Python code: it "
                            "has no GraphDef form")
        for attr, function in zip(op_types.FUNCTION_ATTRS[op.type], op._attrs["functions"]):
            attrs[attr] = _write_function(writer, function)
    elif op.type == "OneShotIterator":
        attrs["dataset_factory"] = _write_factory(writer, op)
    writer.op_node(op, attrs=attrs)


def _write_function(writer, function):
    """The name of ``function`` (a traced dataset function) in the library, written on first use."""
    library = writer.functions
    name = library.written.get(function)
    if name is None:
        out = library.function(f"__inference_{function.name}", function.graph)
        for i, t in enumerate(function.args):
            out.arg(f"args_{i}", t.dtype, tensor=t, shape=t.shape)
        for outer, inner in zip(function.captured, function.placeholders):
            out.arg(outer.op.name, inner.dtype, tensor=inner, shape=inner.shape)
        arguments = {t.op for t in (*function.args, *function.placeholders)}
        ops = [op for op in function.graph.get_operations() if op not in arguments]
        out.write_ops(outside_control_flow(writer, function.graph, ops), op_mapping.EXPORTS)
        for t in function.outputs:
            out.ret("output", out.ref(t), t.dtype)
        name = library.written[function] = out.finish(_DATA_FUNCTION)
    return name


def _write_factory(writer, op):
    """A function without arguments that makes the dataset of one-shot iterator ``op``: the ops its
    dataset tensor is computed from."""
    dataset = op._attrs["dataset"]
    graph = dataset.graph
    needed = {dataset.op}
    stack = [dataset.op]
    while stack:
        for t in stack.pop()._inputs:
            if t.op not in needed:
                needed.add(t.op)
                stack.append(t.op)
    factory = writer.functions.function(f"_make_dataset_{op.name}", graph)
    factory.write_ops([o for o in graph.get_operations() if o in needed], op_mapping.EXPORTS)
    factory.ret(dataset.op.type.lower(), factory.ref(dataset), dataset.dtype)
    return factory.finish()


for _op_type in _OP_TYPES:
    op_mapping.EXPORTS[_op_type] = _export
