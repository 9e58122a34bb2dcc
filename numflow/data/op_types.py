"""The dataset ops by kind, in one table for their declaration (``dataset_ops``), their sub-plans
(``function``) and their GraphDef forms (``graph_export``, ``graph_import``).

An op with functions takes, after its input dataset, the inputs of ``LEADING_ATTR`` (a scan's initial
state), then the tensors each of its functions captured (its ``other_arguments``, function by
function), then ``TRAILING_INPUTS`` more.
"""

# Ops making a dataset from their inputs alone.
PLAIN = ("TensorSliceDataset", "TensorDataset", "RangeDataset", "ZipDataset", "ConcatenateDataset",
         "BatchDatasetV2", "PaddedBatchDatasetV2", "ShuffleDataset", "RepeatDataset", "TakeDataset",
         "SkipDataset", "PrefetchDataset", "CacheDataset", "RewriteDataset", "TFRecordDataset",
         "TextLineDataset", "FixedLengthRecordDatasetV2", "ShardDataset", "UnbatchDataset",
         "ShuffleAndRepeatDataset", "IgnoreErrorsDataset", "CSVDatasetV2", "WindowDataset", "DatasetToSingleElement",
         "RandomDataset", "DirectedInterleaveDataset", "UniqueDataset", "OptionsDataset")
# Ops with functions -> the func attrs naming them, in the order of the op's ``functions``.
FUNCTION_ATTRS = {"MapDataset": ("f",), "ParallelMapDatasetV2": ("f",), "FilterDataset": ("predicate",),
                  "FlatMapDataset": ("f",), "InterleaveDataset": ("f",), "MapAndBatchDataset": ("f",),
                  "LegacyParallelInterleaveDatasetV2": ("f",), "ReduceDataset": ("f",),
                  "GroupByWindowDataset": ("key_func", "reduce_func", "window_size_func"), "ScanDataset": ("f",),
                  "TakeWhileDataset": ("predicate",)}
TRAILING_INPUTS = {"ParallelMapDatasetV2": 1, "InterleaveDataset": 2, "MapAndBatchDataset": 3,
                   "LegacyParallelInterleaveDatasetV2": 4}
LEADING_ATTR = {"ReduceDataset": "Tstate", "ScanDataset": "Tstate"}
# Ops giving an element's tensors (their ``output_types`` and ``output_shapes``), not a dataset.
ELEMENT_OUTPUTS = ("ReduceDataset", "DatasetToSingleElement")
