"""``tf.summary``: summary ops, ``FileWriter`` and ``FileWriterCache``; the writer and TensorFlow's summary
messages (``Summary``, ``Event``, ``SessionLog``...) load on first use, with protobuf."""

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

_MESSAGES = ("Event", "SessionLog", "Summary", "SummaryDescription", "TaggedRunMetadata")

__all__ = [
    "Event", "FileWriter", "FileWriterCache", "SessionLog", "Summary", "SummaryDescription", "TaggedRunMetadata",
    "audio", "get_summary_description", "histogram", "image", "merge", "merge_all", "scalar", "tensor_summary",
    "text",
]


def __getattr__(name):
    if name in ("FileWriter", "FileWriterCache"):
        from numflow.summary import writer

        return getattr(writer, name)
    if name in _MESSAGES:
        from numflow.framework.graph_io import message_class

        return message_class(name)
    raise AttributeError(f"module 'numflow.summary' has no attribute '{name}'")
