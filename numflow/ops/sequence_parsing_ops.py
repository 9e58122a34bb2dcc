"""Parsing ``tf.train.SequenceExample`` records: ``tf.io.parse_sequence_example`` and
``tf.io.parse_single_sequence_example`` (also top-level), both one ``ParseSequenceExampleV2`` op as in
TensorFlow 2.21, with its names, static shapes and messages. A record's ``context`` is parsed as an
``Example``'s features are; its ``feature_lists`` give one row (frame) per feature of a list.

>>> import numflow as tf
>>> record = tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
...     "w": tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))
...                                        for v in (3, 4)])}))
>>> with tf.Graph().as_default():
...     _, lists = tf.io.parse_single_sequence_example(
...         record.SerializeToString(), sequence_features={"w": tf.io.FixedLenSequenceFeature([], tf.int64)})
...     tf.Session().run(lists["w"]).tolist()
[3, 4]
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out
from numflow.ops.parsing_config import (
    FixedLenFeature,
    FixedLenSequenceFeature,
    ParseOpParams,
    VarLenFeature,
    check_parsed_types,
)
from numflow.ops.parsing_ops import _assert_scalar
from numflow.runtime import sequence_parsing_kernels  # noqa: F401  (the kernel, registered by import)

_KEY_INPUTS = ("context_sparse_keys", "context_dense_keys", "context_ragged_keys", "feature_list_sparse_keys",
               "feature_list_dense_keys", "feature_list_ragged_keys")


@declare("ParseSequenceExampleV2")
def _parse_sequence_example_infer(op):
    """Context sparse parts and dense values, then the feature lists' sparse parts, dense values and
    lengths; led by the batch dimension when ``serialized`` is a vector."""
    a = op._attrs
    rank = op.inputs[0].shape.ndims
    if rank is not None and rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {rank}")
    for types, what in ((a["context_sparse_types"], "context_sparse_types"), (a["Tcontext_dense"], "Tcontext_dense"),
                        (a["feature_list_sparse_types"], "feature_list_sparse_types"),
                        (a["feature_list_dense_types"], "feature_list_dense_types")):
        check_parsed_types(types, what)
    lead = TensorShape(None) if rank is None else op.inputs[0].shape
    width = None if rank is None else rank + 1

    def sparse(types, index_width):
        n = len(types)
        return ([(dtypes.int64, TensorShape([None, index_width]))] * n + [(t, TensorShape([None])) for t in types]
                + [(dtypes.int64, TensorShape([index_width]))] * n)

    lists = a["feature_list_dense_types"]
    return (sparse(a["context_sparse_types"], width)
            + [(t, lead.concatenate(s)) for t, s in zip(a["Tcontext_dense"], a["context_dense_shapes"])]
            + sparse(a["feature_list_sparse_types"], None if width is None else width + 1)
            + [(t, lead.concatenate([None]).concatenate(s)) for t, s in zip(lists, a["feature_list_dense_shapes"])]
            + [(dtypes.int64, lead)] * len(lists))


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """Parse a batch of serialized ``SequenceExample`` protos (op ``ParseSequenceExampleV2``).

    Parameters
    ----------
    serialized : string Tensor
        A vector of serialized ``SequenceExample`` protos.
    context_features : dict, optional
        Key -> ``FixedLenFeature`` or ``VarLenFeature``: the features of each record's ``context``.
    sequence_features : dict, optional
        Key -> ``FixedLenSequenceFeature`` or ``VarLenFeature``: the lists of each record's
        ``feature_lists``, one row per frame (padded with zeros or ``""`` to the longest record).
    example_names : string Tensor, optional
        The records' names, used in error messages.
    name : str, optional
        The name scope (default ``ParseSequenceExample``).

    Returns
    -------
    tuple of dict
        The context key -> value, the feature list key -> value (``SparseTensor`` for a
        ``VarLenFeature``), and each dense feature list's number of frames per record.
    """
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    context, lists = _params(context_features, sequence_features)
    with get_default_graph().name_scope(name or "ParseSequenceExample"):
        return _parse_raw(serialized, example_names, context, lists, name)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """Parse one serialized ``SequenceExample`` proto (a scalar): as :func:`parse_sequence_example`,
    without the batch dimension and the lengths.

    Returns
    -------
    tuple of dict
        The context key -> value and the feature list key -> value.
    """
    if not (context_features or sequence_features):
        raise ValueError("Both context_features and sequence_features are None, but at least one should have "
                         "values.")
    context, lists = _params(context_features, sequence_features)
    graph = get_default_graph()
    with graph.name_scope(name or "ParseSingleSequenceExample"):
        with graph.name_scope(name or "ParseSingleExample"):
            serialized = _assert_scalar(convert_to_tensor(serialized, name="serialized"), "serialized")
        return _parse_raw(serialized, example_name, context, lists, name)[:2]


def _params(context_features, sequence_features):
    context = ParseOpParams.from_features(context_features, (VarLenFeature, FixedLenFeature))
    lists = ParseOpParams.from_features(sequence_features, (VarLenFeature, FixedLenSequenceFeature))
    for key in lists.dense_defaults:
        raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
    return context, lists


def _parse_raw(serialized, names, context, lists, name):
    """The ``ParseSequenceExampleV2`` op of ``context`` and ``lists`` (``ParseOpParams``), its outputs
    as the three dicts of :func:`parse_sequence_example`."""
    graph = get_default_graph()
    with graph.name_scope(name or "ParseSequenceExample"):
        serialized = convert_to_tensor(serialized, name="serialized")
        defaults = context.dense_default_tensors()
        with graph.name_scope(name or "ParseSequenceExampleV2") as scope:
            inputs = [serialized, convert_to_tensor([] if names is None else names, dtype=dtypes.string,
                                                    name="debug_name")]
            keys = (context.sparse_keys, context.dense_keys, [], lists.sparse_keys, lists.dense_keys, [])
            inputs += [convert_to_tensor(k, dtype=dtypes.string, name=what) for k, what in zip(keys, _KEY_INPUTS)]
            inputs.append(convert_to_tensor([k in lists.missing_assumed_empty for k in lists.dense_keys],
                                            dtype=dtypes.bool, name="feature_list_dense_missing_assumed_empty"))
            attrs = {"Ncontext_sparse": len(context.sparse_keys), "Tcontext_dense": context.dense_types,
                     "Nfeature_list_sparse": len(lists.sparse_keys), "Nfeature_list_dense": len(lists.dense_keys),
                     "context_sparse_types": context.sparse_types, "context_ragged_value_types": [],
                     "context_ragged_split_types": [], "feature_list_dense_types": lists.dense_types,
                     "feature_list_sparse_types": lists.sparse_types, "feature_list_ragged_value_types": [],
                     "feature_list_ragged_split_types": [], "context_dense_shapes": context.dense_shapes,
                     "feature_list_dense_shapes": lists.dense_shapes}
            outputs = list(_out("ParseSequenceExampleV2", inputs + defaults, attrs, name=scope))
    context_out = _take(outputs, context)
    lists_out = _take(outputs, lists)
    return context_out, lists_out, dict(zip(lists.dense_keys, outputs))


def _take(outputs, params):
    """Pop ``params``' sparse parts and dense values off the front of ``outputs``, as a key -> value dict."""
    n, m = len(params.sparse_keys), len(params.dense_keys)
    sparse = [SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i]) for i in range(n)]
    dense = outputs[3 * n:3 * n + m]
    del outputs[:3 * n + m]
    return dict(zip(params.sparse_keys + params.dense_keys, sparse + dense))


not_differentiable("ParseSequenceExampleV2")
