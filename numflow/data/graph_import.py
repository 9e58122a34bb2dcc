"""Dataset ops with functions read from a GraphDef: each function of the library that a dataset op
names (``map``, ``filter``, ``scan``, ``group_by_window``...) is traced again, from its nodes, into a
dataset function's graph of its own (``numflow.data.function``), and a one-shot iterator's
``dataset_factory`` is built as the ops its dataset is made of."""

from numflow.data import (
    dataset_ops,  # noqa: F401  (the dataset ops, declared by import)
    iterator_ops,  # noqa: F401  (the iterator ops, declared by import)
    op_types,
)
from numflow.data import function as _function
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.function_import import instantiate
from numflow.framework.graph import Graph
from numflow.framework.graph_import import BUILDERS
from numflow.framework.shapes import TensorShape


def _build_dataset_op(importer, node, inputs, controls, attrs, name, graph):
    attrs = dict(attrs)
    function_attrs = op_types.FUNCTION_ATTRS[node.op]
    names = [attrs.pop(attr) for attr in function_attrs]
    leading = len(attrs.get(op_types.LEADING_ATTR.get(node.op), ()))
    captured = inputs[1 + leading:len(inputs) - op_types.TRAILING_INPUTS.get(node.op, 0)]
    sizes = [len(captured)] if len(names) == 1 else [len(attrs[f"T{a}_other_arguments"]) for a in function_attrs]
    attrs.pop("Targuments", None)
    state = [(t.dtype.base_dtype, t.shape) for t in inputs[1:1 + leading]]
    functions, start = [], 0
    for function_name, size, known in zip(names, sizes, _arguments(node.op, state, _element_of(inputs[0]))):
        functions.append(_read_function(importer, function_name, known, captured[start:start + size], graph))
        start += size
    op = graph.create_op(node.op, inputs, {**attrs, "functions": functions}, name=f"{name}/",
                         control_inputs=controls)
    return op, op._outputs


def _arguments(op_type, state, element):
    """The dtypes and shapes of the first arguments of each function of an op of ``op_type``."""
    if op_type == "GroupByWindowDataset":  # key_func(element), reduce_func(key, group), window_size_func(key)
        key = (dtypes.int64, TensorShape([]))
        return [element, [key, (dtypes.variant, TensorShape([]))], [key]]
    return [state + element]


def _read_function(importer, name, known, captured, graph):
    """The dataset function ``name`` of the library, with the tensors ``captured`` for its last
    arguments; its first arguments take the dtypes and shapes ``known`` (the op's state and input
    elements) where their dtypes agree, else unknown shapes."""
    fdef = importer.library.functions[name]
    inner = _function.FunctionGraph(graph, name)
    arg_defs = fdef.signature.input_arg[:len(fdef.signature.input_arg) - len(captured)]
    types = [_dtype_of(arg) for arg in arg_defs]
    if [t for t, _ in known] != types:
        known = [(t, TensorShape(None)) for t in types]
    with inner.as_default():
        args = [inner.create_op("Placeholder", [], {"dtype": dtype, "shape": shape}, name=f"args_{i}").outputs[0]
                for i, (dtype, shape) in enumerate(known)]
        placeholders = []
        for outer in captured:  # one argument per captured tensor, as the op passes them
            attrs = {"dtype": outer.dtype.base_dtype, "shape": outer.shape}
            placeholder = Graph.create_op(inner, "Placeholder", [], attrs, name="Placeholder").outputs[0]
            inner.captures.setdefault(outer, placeholder)
            inner.captured.append((outer, placeholder))
            placeholders.append(placeholder)
        results = instantiate(importer, name, args + placeholders, None, inner)
    return _function.Function(inner, args, results, tuple(Spec(t.dtype, t.shape) for t in results))


def _element_of(dataset):
    attrs = dataset.op._attrs
    return list(zip(attrs.get("output_types") or [], attrs.get("output_shapes") or []))


def _dtype_of(arg):
    return dtypes.as_dtype(arg.type)


def _build_parallel_interleave(importer, node, inputs, controls, attrs, name, graph):
    """TensorFlow's interleave with ``num_parallel_calls``, read as ``InterleaveDataset``: the elements
    in its deterministic order (its buffer and prefetch sizes change nothing in numflow)."""
    dataset, captured, (cycle, block) = inputs[0], inputs[1:-5], inputs[-5:-3]
    function = _read_function(importer, attrs["f"], _element_of(dataset), captured, graph)
    kept = {k: v for k, v in attrs.items() if k not in ("f", "Targuments", "deterministic")}
    op = graph.create_op("InterleaveDataset", [dataset, *captured, cycle, block], {**kept, "functions": [function]},
                         name=f"{name}/", control_inputs=controls)
    return op, op._outputs


def _build_one_shot_iterator(importer, node, inputs, controls, attrs, name, graph):
    attrs = dict(attrs)
    (dataset,) = instantiate(importer, attrs.pop("dataset_factory"), [], name, graph)
    op = graph.create_op("OneShotIterator", [], {**attrs, "dataset": dataset}, name=f"{name}/",
                         control_inputs=controls)
    return op, op._outputs


BUILDERS.update(dict.fromkeys(op_types.FUNCTION_ATTRS, _build_dataset_op))
BUILDERS["OneShotIterator"] = _build_one_shot_iterator
BUILDERS["ParallelInterleaveDatasetV4"] = _build_parallel_interleave
