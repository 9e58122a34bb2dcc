"""Dataset ops with functions read from a GraphDef: each function of the library that a ``map``,
``filter``, ``flat_map`` or ``interleave`` names is traced again, from its nodes, into a dataset function's graph of
its own (``numflow.data.function``), and a one-shot iterator's ``dataset_factory`` is built as the ops
its dataset is made of."""

from numflow.data import (
    dataset_ops,  # noqa: F401  (the dataset ops, declared by import)
    iterator_ops,  # noqa: F401  (the iterator ops, declared by import)
)
from numflow.data import function as _function
from numflow.data.graph_export import FUNCTION_ATTR, TRAILING_INPUTS
from numflow.data.structure import Spec
from numflow.framework.function_import import instantiate
from numflow.framework.graph import Graph
from numflow.framework.graph_import import BUILDERS
from numflow.framework.shapes import TensorShape


def _build_dataset_op(importer, node, inputs, controls, attrs, name, graph):
    attrs = dict(attrs)
    function_name = attrs.pop(FUNCTION_ATTR[node.op])
    attrs.pop("Targuments", None)
    last = len(inputs) - TRAILING_INPUTS.get(node.op, 0)
    function = _read_function(importer, function_name, inputs[0], inputs[1:last], graph)
    op = graph.create_op(node.op, inputs, {**attrs, "functions": [function]}, name=f"{name}/",
                         control_inputs=controls)
    return op, op._outputs


def _read_function(importer, name, source, captured, graph):
    """The dataset function ``name`` of the library, on the elements of dataset tensor ``source``, with
    the tensors ``captured`` for its last arguments."""
    fdef = importer.library.functions[name]
    inner = _function.FunctionGraph(graph, name)
    count = len(fdef.signature.input_arg) - len(captured)
    types = list(source.op._attrs.get("output_types") or [])
    shapes = list(source.op._attrs.get("output_shapes") or [])
    with inner.as_default():
        args = []
        for i, arg in enumerate(fdef.signature.input_arg[:count]):
            dtype = types[i] if i < len(types) else _dtype_of(arg)
            shape = shapes[i] if i < len(shapes) else TensorShape(None)
            args.append(inner.create_op("Placeholder", [], {"dtype": dtype, "shape": shape},
                                        name=f"args_{i}").outputs[0])
        placeholders = []
        for outer in captured:  # one argument per captured tensor, as the op passes them
            attrs = {"dtype": outer.dtype.base_dtype, "shape": outer.shape}
            placeholder = Graph.create_op(inner, "Placeholder", [], attrs, name="Placeholder").outputs[0]
            inner.captures.setdefault(outer, placeholder)
            inner.captured.append((outer, placeholder))
            placeholders.append(placeholder)
        results = instantiate(importer, name, args + placeholders, None, inner)
    return _function.Function(inner, args, results, tuple(Spec(t.dtype, t.shape) for t in results))


def _dtype_of(arg):
    from numflow.framework import dtypes

    return dtypes.as_dtype(arg.type)


def _build_parallel_interleave(importer, node, inputs, controls, attrs, name, graph):
    """TensorFlow's interleave with ``num_parallel_calls``, read as ``InterleaveDataset``: the elements
    in its deterministic order (its buffer and prefetch sizes change nothing in numflow)."""
    dataset, captured, (cycle, block) = inputs[0], inputs[1:-5], inputs[-5:-3]
    function = _read_function(importer, attrs["f"], dataset, captured, graph)
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


BUILDERS.update(dict.fromkeys(FUNCTION_ATTR, _build_dataset_op))
BUILDERS["OneShotIterator"] = _build_one_shot_iterator
BUILDERS["ParallelInterleaveDatasetV4"] = _build_parallel_interleave
