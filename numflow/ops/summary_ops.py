"""``tf.summary``'s ops: scalar, histogram, image, audio, text, tensor_summary, merge and merge_all.

Each function builds TensorFlow's op (``ScalarSummary``, ``HistogramSummary``, ``ImageSummary``,
``AudioSummaryV2``, ``TensorSummaryV2``, ``MergeSummary``) in a name scope named after the summary,
with its tag as a constant inside it, and adds the op's output to ``GraphKeys.SUMMARIES`` (or the
given collections), as TensorFlow 1.x does::

    loss = tf.summary.scalar("loss", x)     # op "loss", tag "loss"; inside scope "a": "a/loss"
    tf.summary.scalar("loss", y)            # op "loss_1", tag "loss_1"
    tf.summary.scalar("w", z, family="f")   # op "f/w", tag "f/f/w": TensorBoard groups it under "f"

Each output is a string scalar holding a serialized ``tensorflow.Summary`` (``numflow.runtime.summary_kernels``).
"""

import contextlib
import re

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import GraphKeys, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import check_dtype

_REAL = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64,
         dtypes.uint16, dtypes.float16, dtypes.uint32, dtypes.uint64)
_IMAGE = (dtypes.uint8, dtypes.float32, dtypes.float16, dtypes.float64)
_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")
_SCALAR_STRING = [(dtypes.string, TensorShape([]))]


def _string_scalar(op):
    return _SCALAR_STRING


for _type in ("ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummaryV2", "TensorSummaryV2"):
    declare(_type)(_string_scalar)


@declare("MergeSummary")
def _merge_infer(op):
    for t in op._inputs:
        if t.dtype.base_dtype != dtypes.string:
            raise TypeError(f"Tensors in list passed to 'inputs' of 'MergeSummary' Op have types "
                            f"[{', '.join(i.dtype.base_dtype.name for i in op._inputs)}] that do not match "
                            "expected type string.")
    return _SCALAR_STRING


def clean_tag(name):
    """``name`` with characters TensorBoard does not take in a tag replaced by ``_``, and no leading ``/``."""
    if name is None:
        return None
    return _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


@contextlib.contextmanager
def summary_scope(name, family=None, default_name=None, values=None):
    """A name scope for a summary op; yields ``(tag, scope)`` as TensorFlow's ``summary_scope`` does."""
    from numflow.framework.collections_api import name_scope

    name, family = clean_tag(name), clean_tag(family)
    base = name if family is None else f"{family}/{name}"
    with name_scope(base, default_name, values) as scope:
        tag = scope.rstrip("/")
        yield (tag if family is None else f"{family}/{tag}"), scope


def _collect(value, collections, default):
    graph = value.graph
    for key in default if collections is None else collections:
        graph.add_to_collection(key, value)


def _summary_op(op_type, scope, tag, tensor, collections, allowed=None, tag_name="tag", tensor_name="tensor",
                extra=(), attrs=None):
    """The summary op of ``tensor`` named after its ``scope``: its tag a constant in it, its output in
    ``collections`` (default ``GraphKeys.SUMMARIES``); TensorFlow's TypeError for a dtype not ``allowed``."""
    tag = constant(tag, name=tag_name)
    tensor = convert_to_tensor(tensor, name=tensor_name)
    if allowed is not None:
        check_dtype(tensor, allowed, tensor_name)
    value = get_default_graph().create_op(op_type, [tag, tensor, *extra], attrs, name=scope).outputs[0]
    _collect(value, collections, [GraphKeys.SUMMARIES])
    return value


def scalar(name, tensor, collections=None, family=None):
    """A summary of one real number (``tf.summary.scalar``): TensorBoard's scalars tab.

    Parameters
    ----------
    name : str
        The op's name and, with its scope, the tag.
    tensor : Tensor or value
        A real scalar.
    collections : list of str, optional
        Where to add the summary (default ``[GraphKeys.SUMMARIES]``).
    family : str, optional
        A prefix of the tag and the op's scope: TensorBoard's group.

    Returns
    -------
    Tensor
        A string scalar: the serialized ``Summary``.
    """
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        return _summary_op("ScalarSummary", scope, tag, tensor, collections, _REAL, "tags", "values")


def histogram(name, values, collections=None, family=None):
    """A histogram of every element of ``values`` (``tf.summary.histogram``), in TensorFlow's buckets."""
    with summary_scope(name, family, default_name="HistogramSummary", values=[values]) as (tag, scope):
        return _summary_op("HistogramSummary", scope, tag, values, collections, _REAL, tensor_name="values")


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """Up to ``max_outputs`` images of a ``[batch, height, width, 1|3|4]`` tensor, as PNGs (``tf.summary.image``).

    Float images are scaled to [0, 255] per image (around 128 when some value is negative).
    """
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        return _summary_op("ImageSummary", scope, tag, tensor, collections, _IMAGE,
                           attrs={"max_images": int(max_outputs), "bad_color": np.array([255, 0, 0, 255], np.uint8)})


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """Up to ``max_outputs`` clips of a ``[batch, frames(, channels)]`` float tensor in [-1, 1], as WAV."""
    with summary_scope(name, family=family, values=[tensor]) as (tag, scope):
        sample_rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        return _summary_op("AudioSummaryV2", scope, tag, tensor, collections, (dtypes.float32,),
                           extra=[sample_rate], attrs={"max_outputs": int(max_outputs)})


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None,
                   family=None, display_name=None):
    """A whole tensor as a summary (``tf.summary.tensor_summary``), with its ``SummaryMetadata``."""
    from numflow.protos import summary_pb2

    if summary_metadata is None:
        summary_metadata = summary_pb2.SummaryMetadata()
    elif not isinstance(summary_metadata, summary_pb2.SummaryMetadata):  # TensorFlow's message of it
        summary_metadata = summary_pb2.SummaryMetadata.FromString(summary_metadata.SerializeToString())
    if summary_description is not None:
        summary_metadata.summary_description = summary_description
    if display_name is not None:
        summary_metadata.display_name = display_name
    serialized = summary_metadata.SerializeToString()
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        tensor = convert_to_tensor(tensor, name="tensor")
        metadata = constant(serialized, name="serialized_summary_metadata")
        return _summary_op("TensorSummaryV2", scope, tag, tensor, collections, extra=[metadata],
                           attrs={"T": tensor.dtype.base_dtype})


def text(name, tensor, collections=None):
    """A string tensor as text for TensorBoard's text tab (``tf.summary.text``; Markdown is rendered)."""
    from numflow.protos import summary_pb2

    tensor = convert_to_tensor(tensor)
    if tensor.dtype.base_dtype != dtypes.string:
        raise ValueError(f"Expected tensor {tensor.name} to have dtype string, got {tensor.dtype!r}")
    metadata = summary_pb2.SummaryMetadata(plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name="text"))
    return tensor_summary(name, tensor, summary_metadata=metadata, collections=collections)


def merge(inputs, collections=None, name=None):
    """One summary holding the values of ``inputs`` (``tf.summary.merge``); a duplicate tag fails at run time.

    Raises
    ------
    ValueError
        ``inputs`` is empty.
    """
    from numflow.framework.collections_api import name_scope

    inputs = [convert_to_tensor(t) for t in inputs]
    if not inputs:
        raise ValueError("List argument 'inputs' to 'MergeSummary' Op with length 0 shorter than minimum length 1.")
    name = clean_tag(name)
    with name_scope(name, "Merge", inputs):
        value = get_default_graph().create_op("MergeSummary", inputs, {"N": len(inputs)}, name=name).outputs[0]
        _collect(value, collections, [])
    return value


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """``merge`` of every summary in collection ``key`` (matching ``scope``); None when there is none."""
    summaries = get_default_graph().get_collection(key, scope=scope)
    return merge(summaries, name=name) if summaries else None


def get_summary_description(node_def):
    """The ``SummaryDescription`` of a ``TensorSummary`` node (its JSON ``description`` attr).

    Raises
    ------
    ValueError
        For a node of another op type (``tensor_summary`` builds ``TensorSummaryV2``, which has none).
    """
    from google.protobuf import json_format

    from numflow.protos import summary_pb2

    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    description = node_def.attr["description"]
    description = getattr(description, "s", description)
    description = description.decode() if isinstance(description, bytes) else str(description)
    return json_format.Parse(description, summary_pb2.SummaryDescription())
