"""top_k (op ``TopKV2``) and in_top_k (op ``InTopKV2``), with TensorFlow's shapes, errors and ties.

``TopKV2``'s gradient scatters the incoming gradient back to the columns the op picked (an
``UnsortedSegmentSum`` over the flattened positions, the sum TensorFlow's ``ScatterNd`` computes,
as the picked positions of a row are distinct). Kernels: ``numflow_kernels/reference_topk.py`` and
``cpu/topk.py``.
"""

import collections

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import REAL
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_input_dtype, check_rank, merge_dims, static_value

_INDEX_TYPES = (dtypes.int16, dtypes.int32, dtypes.int64)
TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])  # TensorFlow's name for top_k's pair


@declare("TopKV2")
def _top_k_infer(op):
    x, k = op.inputs
    check_dtype(x, REAL, "input")
    check_dtype(k, _INDEX_TYPES, "k")
    check_rank(x.shape, 1, at_least=True)
    check_rank(k.shape, 0)
    value = static_value(k)
    k_dim = None if value is None else int(value)
    if k_dim is not None and k_dim < 0:
        raise ValueError(f"Dimension size, given by scalar input 1, must be non-negative but is {k_dim}")
    index_type = op._attrs["index_type"]
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None)), (index_type, TensorShape(None))]
    last = x.shape.dim_values[-1]
    if last is not None and k_dim is not None and last < k_dim:
        raise ValueError(f"input must have last dimension >= k = {k_dim} but is {last}")
    shape = TensorShape(x.shape.dim_values[:-1] + [k_dim])
    return [(x.dtype, shape), (index_type, shape)]


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002 - TensorFlow's names
    """The ``k`` largest entries of the last axis of ``input`` and their indices (op ``TopKV2``).

    With ``sorted`` the values come largest first; equal values come lower index first.

    >>> import numflow as tf
    >>> values, indices = tf.nn.top_k([3.0, 1.0, 3.0, 2.0], k=2)
    >>> [v.tolist() for v in tf.Session().run([values, indices])]
    [[3.0, 3.0], [0, 2]]
    """
    index_type = dtypes.as_dtype(index_type)
    if index_type not in _INDEX_TYPES:
        raise TypeError(f"Value passed to parameter 'index_type' has DataType {index_type.name} not in list of "
                        "allowed values: int16, int32, int64")
    with get_default_graph().name_scope(name or "TopKV2") as scope:
        x = convert_to_tensor(input, name="input")
        k = convert_to_tensor(k, name="k", preferred_dtype=dtypes.int32)
        attrs = {"sorted": bool(sorted), "index_type": index_type}
        return TopKV2(*_out("TopKV2", [x, k], attrs, name=scope))


@register_gradient("TopKV2")
def _top_k_grad(op, grad, unused_indices_grad):
    x = op.inputs[0]
    indices = math_ops.cast(op.outputs[1], dtypes.int64)
    x_shape = array_ops.shape(x, out_type=dtypes.int64)
    columns = x_shape[-1]
    picked = array_ops.reshape(indices, array_ops.stack([-1, array_ops.shape(indices, out_type=dtypes.int64)[-1]]))
    rows = array_ops.shape(picked, out_type=dtypes.int64)[0]
    row_starts = array_ops.expand_dims(math_ops.range(rows, dtype=dtypes.int64) * columns, -1)
    positions = array_ops.reshape(picked + row_starts, [-1])
    flat = math_ops.unsorted_segment_sum(array_ops.reshape(grad, [-1]), positions, math_ops.reduce_prod(x_shape))
    dx = array_ops.reshape(flat, x_shape)
    dx.set_shape(x.shape)
    return [dx, None]


@declare("InTopKV2")
def _in_top_k_infer(op):
    predictions, targets, k = op.inputs
    check_input_dtype(predictions, dtypes.float32, "InTopKV2", "predictions")
    check_dtype(targets, INDEX_TYPES, "targets")
    check_rank(predictions.shape, 2)
    check_rank(targets.shape, 1)
    check_rank(k.shape, 0)
    batch = dimension_value(predictions.shape[0])
    target_batch = dimension_value(targets.shape[0])
    if batch is not None and target_batch is not None and batch != target_batch:
        raise ValueError(f"Dimensions must be equal, but are {batch} and {target_batch}")
    return [(dtypes.bool, TensorShape([merge_dims(batch, target_batch, 0, [batch], [target_batch])]))]


def in_top_k(predictions, targets, k, name=None):
    """Whether each ``targets[i]`` is among the ``k`` largest of ``predictions[i]`` (op ``InTopKV2``).

    Ties count in the target's favour; a row with a non-finite prediction, or a target out of
    range, gives False. ``predictions`` are float32, ``targets`` int32 or int64.

    >>> import numflow as tf
    >>> tf.Session().run(tf.nn.in_top_k([[0.1, 0.9, 0.9], [0.8, 0.1, 0.1]], [2, 1], 1)).tolist()
    [True, False]
    """
    with get_default_graph().name_scope(name or "in_top_k"):
        predictions = convert_to_tensor(predictions, name="predictions", preferred_dtype=dtypes.float32)
        targets = convert_to_tensor(targets, name="targets", preferred_dtype=dtypes.int32)
        with get_default_graph().name_scope("InTopKV2") as scope:
            k = convert_to_tensor(k, name="k", dtype=targets.dtype.base_dtype)
            return _out("InTopKV2", [predictions, targets, k], name=scope)[0]
