"""``tf.data`` as TensorFlow 1.x programs use it in graph mode: datasets, their transformations and
iterators (``numflow.data.dataset_ops``, ``transformations``, ``iterator_ops``), the file readers
(``readers``, ``csv``) and ``tf.data.experimental`` (``experimental``); loaded when ``tf.data`` is
first used."""

from numflow.data import (
    experimental,
    graph_export,  # noqa: F401  (GraphDef forms of the ops with functions)
)
from numflow.data.dataset_ops import AUTOTUNE, Dataset, DatasetV1
from numflow.data.iterator_ops import (
    Iterator,
    get_output_classes,
    get_output_shapes,
    get_output_types,
    make_initializable_iterator,
    make_one_shot_iterator,
)
from numflow.data.options import INFINITE as INFINITE_CARDINALITY
from numflow.data.options import UNKNOWN as UNKNOWN_CARDINALITY
from numflow.data.options import Options, ThreadingOptions
from numflow.data.readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset

__all__ = [
    "AUTOTUNE", "Dataset", "DatasetV1", "FixedLengthRecordDataset", "INFINITE_CARDINALITY", "Iterator", "Options",
    "TFRecordDataset", "TextLineDataset", "ThreadingOptions", "UNKNOWN_CARDINALITY", "experimental",
    "get_output_classes", "get_output_shapes", "get_output_types", "make_initializable_iterator",
    "make_one_shot_iterator",
]
