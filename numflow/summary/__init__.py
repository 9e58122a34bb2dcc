"""``tf.summary``: summary ops, ``FileWriter`` and ``FileWriterCache``; TensorFlow's summary messages
(``Summary``, ``Event``, ``SessionLog``...) load with protobuf on first use."""

from numflow.ops.summary_ops import (
    audio,
    get_summary_description,
    histogram,
    image,
    merge,
    merge_all,
    scalar,
    tensor_summary,
    text,
)
from numflow.summary.writer import FileWriter, FileWriterCache

_MESSAGES = ("Event", "SessionLog", "Summary", "SummaryDescription", "TaggedRunMetadata")

__all__ = [
    "Event", "FileWriter", "FileWriterCache", "SessionLog", "Summary", "SummaryDescription", "TaggedRunMetadata",
    "audio", "get_summary_description", "histogram", "image", "merge", "merge_all", "scalar", "tensor_summary",
    "text",
]


def __getattr__(name):
    if name in _MESSAGES:
        from numflow.framework.graph_io import message_class

        return message_class(name)
    raise AttributeError(f"module 'numflow.summary' has no attribute '{name}'")
