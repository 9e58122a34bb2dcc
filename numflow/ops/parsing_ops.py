"""Parsing ``tf.train.Example`` records: ``tf.parse_example`` and ``tf.parse_single_example`` (also in
``tf.io``), both one ``ParseExampleV2`` op as in TensorFlow 2.21, with its names, static shapes and
messages. The features to parse are described by ``parsing_config``'s feature classes.

>>> import numflow as tf
>>> example = tf.train.Example(features=tf.train.Features(feature={
...     "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
>>> with tf.Graph().as_default():
...     parsed = tf.parse_single_example(example.SerializeToString(), {"x": tf.FixedLenFeature([2], tf.float32)})
...     with tf.Session() as sess:
...         parsed["x"].name, sess.run(parsed["x"]).tolist()
('ParseSingleExample/ParseExample/ParseExampleV2:0', [1.0, 2.0])
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out
from numflow.ops.parsing_config import ParseOpParams, check_parsed_types, prepend_none_dimension
from numflow.runtime import parsing_kernels  # noqa: F401  (the parse kernel, registered by import)


@declare("ParseExampleV2")
def _parse_example_infer(op):
    """Sparse indices, values and dense shapes, then the dense values: led by the batch dimension when
    ``serialized`` is a vector, without it when a scalar."""
    a = op._attrs
    rank = op.inputs[0].shape.ndims
    if rank is not None and rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {rank}")
    check_parsed_types(a["sparse_types"], "sparse_types")
    check_parsed_types(a["Tdense"], "Tdense")
    lead = TensorShape(None) if rank is None else op.inputs[0].shape
    index_width = None if rank is None else rank + 1
    n = a["num_sparse"]
    return ([(dtypes.int64, TensorShape([None, index_width]))] * n
            + [(t, TensorShape([None])) for t in a["sparse_types"]]
            + [(dtypes.int64, TensorShape([index_width]))] * n
            + [(t, lead.concatenate(s)) for t, s in zip(a["Tdense"], a["dense_shapes"])])


def parse_example(serialized, features, name=None, example_names=None):
    """Parse a batch of serialized ``Example`` protos (op ``ParseExampleV2``).

    Parameters
    ----------
    serialized : string Tensor
        A vector of serialized ``Example`` protos (a scalar parses one, without the batch dimension).
    features : dict
        Feature key -> ``FixedLenFeature``, ``VarLenFeature`` or ``FixedLenSequenceFeature``.
    name : str, optional
        The name scope (default ``ParseExample``).
    example_names : string Tensor, optional
        The examples' names, used in error messages.

    Returns
    -------
    dict
        Feature key -> ``Tensor`` (fixed and sequence features) or ``SparseTensor`` (VarLenFeature).
    """
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    params = ParseOpParams.from_features(prepend_none_dimension(features))
    graph = get_default_graph()
    with graph.name_scope(name or "ParseExample"):
        serialized = convert_to_tensor(serialized, name="serialized")
        defaults = params.dense_default_tensors()
        with graph.name_scope(name or "ParseExampleV2") as scope:
            inputs = [serialized, convert_to_tensor([] if example_names is None else example_names,
                                                    dtype=dtypes.string, name="names")]
            inputs += [convert_to_tensor(keys, dtype=dtypes.string, name=what) for keys, what in (
                (params.sparse_keys, "sparse_keys"), (params.dense_keys, "dense_keys"), ([], "ragged_keys"))]
            attrs = {"Tdense": params.dense_types, "num_sparse": len(params.sparse_keys),
                     "sparse_types": params.sparse_types, "ragged_value_types": [], "ragged_split_types": [],
                     "dense_shapes": params.dense_shapes}
            outputs = _out("ParseExampleV2", inputs + defaults, attrs, name=scope)
    n = len(params.sparse_keys)
    sparse = [SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i]) for i in range(n)]
    return dict(zip(params.sparse_keys + params.dense_keys, sparse + list(outputs[3 * n:])))


def parse_single_example(serialized, features, name=None, example_names=None):
    """Parse one serialized ``Example`` proto (a scalar): as :func:`parse_example`, without the batch
    dimension (op ``ParseExampleV2`` under the name scope ``ParseSingleExample``)."""
    if features is None:
        raise ValueError("Invalid argument: features cannot be None.")
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    with get_default_graph().name_scope(name or "ParseSingleExample"):
        serialized = _assert_scalar(convert_to_tensor(serialized, name="serialized"), "serialized")
        return parse_example(serialized, features, name, example_names)


def _assert_scalar(value, name):
    """``value``, checked to be a scalar: when built if its rank is known, else when run (an ``Assert``
    named ``<Name>IsScalar`` before an ``Identity``, as TensorFlow checks it)."""
    rank = value.shape.ndims
    if rank == 0:
        return value
    if rank is not None:
        raise ValueError(f"Input {name} must be a scalar")
    from numflow.ops.array_ops import rank as rank_of
    from numflow.ops.check_ops import Assert
    from numflow.ops.control_flow_ops import with_dependencies
    from numflow.ops.math_ops import equal

    check = Assert(equal(rank_of(value), 0), [f"Input {name} must be a scalar"], name=f"{name.capitalize()}IsScalar")
    result = with_dependencies([check], value, name=f"{name}Dependencies")
    result.set_shape([])
    return result


not_differentiable("ParseExampleV2")
