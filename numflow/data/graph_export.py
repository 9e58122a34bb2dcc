"""The dataset and iterator ops with functions in a GraphDef: their function attrs (``f``,
``predicate``, ``dataset_factory``) name the function, and numflow's own attrs (the traced functions,
a one-shot iterator's dataset) stay out. numflow writes no function library, and these ops' attrs
as numflow names them: a graph holding them is written (a Saver's meta graph, say), but neither
TensorFlow nor numflow reads it back."""

from numflow.framework import op_mapping

_FUNCTION_ATTR = {"MapDataset": "f", "ParallelMapDatasetV2": "f", "FilterDataset": "predicate",
                  "FlatMapDataset": "f", "OneShotIterator": "dataset_factory"}
_OWN_ATTRS = frozenset({"functions", "generator", "structure", "dataset"})


def _export(writer, op):
    attrs = {k: v for k, v in op._attrs.items() if k not in _OWN_ATTRS}
    functions = op._attrs.get("functions")
    name = functions[0].name if functions else f"{op.name.replace('/', '_')}_fn"
    attrs[_FUNCTION_ATTR[op.type]] = name
    writer.op_node(op, attrs=attrs)


for _op_type in _FUNCTION_ATTR:
    op_mapping.EXPORTS[_op_type] = _export
