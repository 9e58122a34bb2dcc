"""The dataset and iterator ops in a GraphDef, as TensorFlow's nodes: the attrs of TensorFlow's OpDef
only (``Toutput_types``, ``Targuments``, ``N`` derived from the inputs), a function attr (``f``,
``predicate``, ``dataset_factory``) naming the function, and numflow's own attrs (the traced
functions, a one-shot iterator's dataset, a generator) left out. numflow writes no function library:
a graph holding ops with functions is written (a Saver's meta graph, say), but not read back."""

from numflow.framework import op_defs, op_mapping

_FUNCTION_ATTR = {"MapDataset": "f", "ParallelMapDatasetV2": "f", "FilterDataset": "predicate",
                  "FlatMapDataset": "f", "OneShotIterator": "dataset_factory"}
_OP_TYPES = ("TensorSliceDataset", "TensorDataset", "RangeDataset", "ZipDataset", "ConcatenateDataset",
             "BatchDatasetV2", "PaddedBatchDatasetV2", "ShuffleDataset", "RepeatDataset", "TakeDataset",
             "SkipDataset", "PrefetchDataset", "CacheDataset", "RewriteDataset", "TFRecordDataset",
             "TextLineDataset", "FixedLengthRecordDatasetV2",
             "IteratorV2", "IteratorGetNext", "IteratorFromStringHandleV2", *_FUNCTION_ATTR)


def _export(writer, op):
    known = {a.name for a in op_defs.get(op.type).attr}
    attrs = {k: v for k, v in op._attrs.items() if k in known and not (k.startswith("T") and k[1:] in op._attrs)}
    derived = {a.type_list_attr for a in op_defs.get(op.type).input_arg if a.type_list_attr}
    attrs = {k: v for k, v in attrs.items() if k not in derived}
    if op.type in _FUNCTION_ATTR:
        functions = op._attrs.get("functions")
        attrs[_FUNCTION_ATTR[op.type]] = functions[0].name if functions else f"{op.name.replace('/', '_')}_fn"
    writer.op_node(op, attrs=attrs)


for _op_type in _OP_TYPES:
    op_mapping.EXPORTS[_op_type] = _export
