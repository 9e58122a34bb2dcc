"""Segment reductions: the sum, mean, max, min or product of the rows of ``data`` that share a segment id.

Sorted segments (ops ``SegmentSum``, ``SegmentMean``, ``SegmentMax``, ``SegmentMin``, ``SegmentProd``)
take one non-decreasing, non-negative id per row of ``data``; the output has ``segment_ids[-1] + 1``
rows, an id left out gives a row of zeros. Unsorted segments (ops ``UnsortedSegmentMax``,
``UnsortedSegmentMin``, ``UnsortedSegmentProd``, with ``UnsortedSegmentSum`` in ``math_ops``) take ids of
the shape of a prefix of ``data``'s shape, in any order; negative ids are dropped, and an empty
segment holds the reduction's identity (the lowest value for max, the highest for min, 1 for prod).
``unsorted_segment_mean`` and ``unsorted_segment_sqrt_n`` are built from ``UnsortedSegmentSum`` as
TensorFlow builds them. Gradients are TensorFlow's (``math_grad.py``).
"""

from numflow.framework import dtypes
from numflow.framework import registry as _registry
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import REAL
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank

_SORTED = ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd")
_UNSORTED = ("UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")


def _segment_infer(op):
    data, segment_ids = op.inputs
    check_dtype(data, REAL, "data")
    check_dtype(segment_ids, INDEX_TYPES, "segment_ids")
    check_rank(data.shape, 1, at_least=True)
    check_rank(segment_ids.shape, 1)
    if data.shape.ndims is None:
        return [(data.dtype, TensorShape(None))]
    return [(data.dtype, TensorShape([None] + data.shape.dim_values[1:]))]


for _op_type in _SORTED:
    declare(_op_type)(_segment_infer)
for _op_type in _UNSORTED:
    declare(_op_type)(_registry.get("UnsortedSegmentSum").infer)


def _make_sorted(op_type, public_name, what):
    def fn(data, segment_ids, name=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            data = convert_to_tensor(data, name="data")
            segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
            return _out(op_type, [data, segment_ids], name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"""The {what} of the rows of ``data`` in each segment of the sorted ``segment_ids``
    (op ``{op_type}``).

    ``segment_ids`` holds one id per row of ``data``, non-decreasing and non-negative (else
    InvalidArgumentError at run time); the output has ``segment_ids[-1] + 1`` rows, and a segment
    without rows gives zeros."""
    return fn


segment_sum = _make_sorted("SegmentSum", "segment_sum", "sum")
segment_mean = _make_sorted("SegmentMean", "segment_mean", "mean")
segment_max = _make_sorted("SegmentMax", "segment_max", "maximum")
segment_min = _make_sorted("SegmentMin", "segment_min", "minimum")
segment_prod = _make_sorted("SegmentProd", "segment_prod", "product")


def _unsorted_inputs(data, segment_ids, num_segments):
    data = convert_to_tensor(data, name="data")
    segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
    num_segments = convert_to_tensor(num_segments, name="num_segments", preferred_dtype=dtypes.int32)
    return data, segment_ids, num_segments


def _make_unsorted(op_type, public_name, what, empty):
    def fn(data, segment_ids, num_segments, name=None):
        with get_default_graph().name_scope(name or op_type) as scope:
            return _out(op_type, list(_unsorted_inputs(data, segment_ids, num_segments)), name=scope)[0]

    fn.__name__ = public_name
    fn.__doc__ = f"""The {what} of the elements of ``data`` in each of ``num_segments`` segments (op ``{op_type}``).

    ``segment_ids`` has the shape of a prefix of ``data``'s dimensions, in any order; negative ids
    are dropped, ids from ``num_segments`` up fail at run time. An empty segment gives {empty}."""
    return fn


unsorted_segment_max = _make_unsorted("UnsortedSegmentMax", "unsorted_segment_max", "maximum",
                                      "the dtype's lowest value")
unsorted_segment_min = _make_unsorted("UnsortedSegmentMin", "unsorted_segment_min", "minimum",
                                      "the dtype's highest value")
unsorted_segment_prod = _make_unsorted("UnsortedSegmentProd", "unsorted_segment_prod", "product", "1")


def _segment_counts(data, segment_ids, num_segments):
    """How many rows each segment has (at least 1), shaped to broadcast over the segments' rows."""
    ones = array_ops.ones(array_ops.shape(segment_ids), dtype=data.dtype.base_dtype)
    n = math_ops.unsorted_segment_sum(ones, segment_ids, num_segments)
    trailing = array_ops.ones(array_ops.expand_dims(array_ops.rank(data) - array_ops.rank(segment_ids), 0),
                              dtype=num_segments.dtype.base_dtype)
    broadcastable = array_ops.concat([array_ops.expand_dims(num_segments, 0), trailing], axis=0)
    return math_ops.maximum(array_ops.reshape(n, broadcastable), 1)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The mean of each unsorted segment: ``unsorted_segment_sum`` over the segment's size (0 when empty).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.unsorted_segment_mean([1.0, 2.0, 6.0], [1, 1, 0], 3)).tolist()
    [6.0, 1.5, 0.0]
    """
    with get_default_graph().name_scope(name or "UnsortedSegmentMean"):
        data, segment_ids, num_segments = _unsorted_inputs(data, segment_ids, num_segments)
        n = _segment_counts(data, segment_ids, num_segments)
        return math_ops.truediv(math_ops.unsorted_segment_sum(data, segment_ids, num_segments), n)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """The sum of each unsorted segment over the square root of its size (0 when empty)."""
    with get_default_graph().name_scope(name or "UnsortedSegmentSqrtN"):
        data, segment_ids, num_segments = _unsorted_inputs(data, segment_ids, num_segments)
        n = _segment_counts(data, segment_ids, num_segments)
        return math_ops.truediv(math_ops.unsorted_segment_sum(data, segment_ids, num_segments), math_ops.sqrt(n))


# -- gradients (TensorFlow's math_grad.py) -------------------------------------------------------------
@gradient("SegmentSum")
def _segment_sum_grad(op, grad):
    return [array_ops.gather(grad, op.inputs[1]), None]


@gradient("SegmentMean")
def _segment_mean_grad(op, grad):
    data, segment_ids = op.inputs
    ones_shape = array_ops.concat([array_ops.shape(segment_ids),
                                   array_ops.ones(array_ops.expand_dims(array_ops.rank(data) - 1, 0),
                                                  dtype=dtypes.int32)], 0)
    ones = array_ops.ones(ones_shape, dtype=grad.dtype.base_dtype)
    scaled = math_ops.truediv(grad, segment_sum(ones, segment_ids))
    return [array_ops.gather(scaled, segment_ids), None]


@gradient("SegmentMax", "SegmentMin")
def _segment_min_or_max_grad(op, grad):
    """The gradient of each segment split evenly between the rows equal to its extremum."""
    data, segment_ids = op.inputs
    zeros = array_ops.zeros_like(data)
    is_selected = math_ops.equal(data, array_ops.gather(op.outputs[0], segment_ids))
    num_selected = segment_sum(math_ops.cast(is_selected, grad.dtype.base_dtype), segment_ids)
    gathered = array_ops.gather(math_ops.truediv(grad, num_selected), segment_ids)
    return [array_ops.where_v2(is_selected, gathered, zeros), None]


def _product_grad(op, grad, segment_sum_of, segment_prod_of, gather_dropping_negatives):
    """The gradient of a segment product: ``prod / x`` for a nonzero ``x``, the product of the others for
    the one zero of its segment, and 0 where a segment holds several zeros (TensorFlow's three cases)."""
    data, segment_ids = op.inputs[:2]
    is_zero = math_ops.equal(data, array_ops.zeros([], dtype=data.dtype.base_dtype))
    num_zeros = segment_sum_of(math_ops.cast(is_zero, dtypes.int32))
    grad = array_ops.where_v2(math_ops.greater(num_zeros, 1), array_ops.zeros_like(grad), grad)
    non_zero_data = array_ops.where_v2(is_zero, array_ops.ones_like(data), data)
    clipped = math_ops.maximum(segment_ids, array_ops.zeros_like(segment_ids))
    gathered_prod = array_ops.gather(op.outputs[0], clipped)
    gathered_non_zero_prod = array_ops.gather(segment_prod_of(non_zero_data), clipped)
    partial = array_ops.where_v2(is_zero, gathered_non_zero_prod, math_ops.truediv(gathered_prod, data))
    return math_ops.multiply(gather_dropping_negatives(grad, clipped), partial)


@gradient("SegmentProd")
def _segment_prod_grad(op, grad):
    segment_ids = op.inputs[1]
    dx = _product_grad(op, grad, lambda x: segment_sum(x, segment_ids), lambda x: segment_prod(x, segment_ids),
                       lambda g, clipped: array_ops.gather(g, segment_ids))
    return [dx, None]


def _gather_drop_negatives(params, segment_ids, clipped, data):
    """``params`` gathered at the clipped ids, zero where an id is negative, broadcast over ``data``'s rows."""
    gathered = array_ops.gather(params, clipped)
    kept = math_ops.greater_equal(segment_ids, 0)
    for _ in range((data.shape.ndims or 0) - (segment_ids.shape.ndims or 0)):
        kept = array_ops.expand_dims(kept, -1)
    return array_ops.where_v2(kept, gathered, array_ops.zeros([], dtype=gathered.dtype.base_dtype)), kept


@gradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op, grad):
    data, segment_ids, num_segments = op.inputs
    dx = _product_grad(op, grad, lambda x: math_ops.unsorted_segment_sum(x, segment_ids, num_segments),
                       lambda x: unsorted_segment_prod(x, segment_ids, num_segments),
                       lambda g, clipped: _gather_drop_negatives(g, segment_ids, clipped, data)[0])
    return [dx, None, None]


@gradient("UnsortedSegmentMax", "UnsortedSegmentMin")
def _unsorted_segment_min_or_max_grad(op, grad):
    data, segment_ids, num_segments = op.inputs
    clipped = math_ops.maximum(segment_ids, array_ops.zeros_like(segment_ids))
    gathered_outputs, kept = _gather_drop_negatives(op.outputs[0], segment_ids, clipped, data)
    is_selected = math_ops.logical_and(math_ops.equal(data, gathered_outputs), kept)
    num_selected = math_ops.unsorted_segment_sum(math_ops.cast(is_selected, grad.dtype.base_dtype), segment_ids,
                                                 num_segments)
    gathered, _ = _gather_drop_negatives(math_ops.truediv(grad, num_selected), segment_ids, clipped, data)
    return [array_ops.where_v2(is_selected, gathered, array_ops.zeros_like(gathered)), None, None]
