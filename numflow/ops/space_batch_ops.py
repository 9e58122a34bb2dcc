"""``SpaceToBatchND`` and ``BatchToSpaceND``: the reshapes that turn a dilated convolution or pool into a
plain one over a bigger batch (``with_space_to_batch``), with static shapes and each other as gradient.

``space_to_batch_nd(x, block_shape, paddings)`` zero-pads the ``M`` dimensions after the batch by
``paddings`` ([M, 2]) and moves each ``block_shape`` interleave into the batch: ``[batch, *padded,
*rest]`` becomes ``[batch * prod(block), *(padded / block), *rest]``. ``batch_to_space_nd(x,
block_shape, crops)`` is its inverse, then removes ``crops``. Kernels: ``reference_conv.py``.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import gradient
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, static_value


def _block_infer(op):
    x, block, pairs = op.inputs
    to_batch = op.type == "SpaceToBatchND"
    check_dtype(block, INDEX_TYPES, "block_shape")
    check_dtype(pairs, INDEX_TYPES, "paddings" if to_batch else "crops")
    check_rank(block.shape, 1)
    check_rank(pairs.shape, 2)
    block_v, pairs_v = static_value(block), static_value(pairs)
    if x.shape.ndims is None or block_v is None or pairs_v is None:
        return [(x.dtype, TensorShape(None) if x.shape.ndims is None else TensorShape([None] * x.shape.ndims))]
    m = len(block_v)
    if x.shape.ndims < m + 1:
        raise ValueError(f"Shape must be at least rank {m + 1} but is rank {x.shape.ndims}")
    if any(b < 1 for b in block_v):
        raise ValueError(f"block_shape must be positive, got {block_v.tolist()}")
    dims = x.shape.dim_values
    prod = int(np.prod(block_v))
    out = list(dims)
    if to_batch:
        out[0] = None if dims[0] is None else dims[0] * prod
        for i, b in enumerate(block_v):
            d = dims[1 + i]
            if d is not None:
                padded = d + int(pairs_v[i][0]) + int(pairs_v[i][1])
                if padded % b:
                    raise ValueError(f"Dimension size must be evenly divisible by {b} but is {padded}")
                out[1 + i] = padded // b
    else:
        if dims[0] is not None and dims[0] % prod:
            raise ValueError(f"batch is not divisible by product of block sizes: {dims[0]} vs {prod}")
        out[0] = None if dims[0] is None else dims[0] // prod
        for i, b in enumerate(block_v):
            d = dims[1 + i]
            out[1 + i] = None if d is None else d * int(b) - int(pairs_v[i][0]) - int(pairs_v[i][1])
    return [(x.dtype, TensorShape(out))]


declare("SpaceToBatchND")(_block_infer)
declare("BatchToSpaceND")(_block_infer)


def _build(op_type, x, block_shape, pairs, pairs_name, name):
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(x, name="input")
        block = convert_to_tensor(np.asarray(block_shape, np.int32) if not hasattr(block_shape, "op")
                                  else block_shape, name="block_shape")
        pairs = convert_to_tensor(np.asarray(pairs, np.int32) if not hasattr(pairs, "op") else pairs,
                                  name=pairs_name)
        return _out(op_type, [x, block, pairs], name=scope)[0]


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input``'s spatial blocks moved into the batch dimension (op ``SpaceToBatchND``)."""
    return _build("SpaceToBatchND", input, block_shape, paddings, "paddings", name)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002 - TensorFlow's argument name
    """The inverse of :func:`space_to_batch_nd`, then ``crops`` removed (op ``BatchToSpaceND``)."""
    return _build("BatchToSpaceND", input, block_shape, crops, "crops", name)


def _block_size(block_size, block_shape):
    if block_size is not None and block_shape is not None:
        raise ValueError("Cannot specify both 'block_shape' and 'block_size'")
    size = block_shape if block_size is None else block_size
    return np.array([size, size], np.int64)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """TensorFlow 1's 4-D :func:`space_to_batch_nd` with a square ``block_size``."""
    result = space_to_batch_nd(input, _block_size(block_size, block_shape), paddings, name=name)
    result.set_shape(result.shape.with_rank(4))
    return result


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """TensorFlow 1's 4-D :func:`batch_to_space_nd` with a square ``block_size``."""
    result = batch_to_space_nd(input, _block_size(block_size, block_shape), crops, name=name)
    result.set_shape(result.shape.with_rank(4))
    return result


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """``(paddings, crops)`` that make ``input_shape`` (plus ``base_paddings``) divisible by
    ``block_shape``, for :func:`space_to_batch_nd` and then :func:`batch_to_space_nd`; computed
    here when all three are known, else in the graph."""
    from numflow.ops.array_ops import stack, zeros

    with get_default_graph().name_scope(name or "required_space_to_batch_paddings"):
        input_shape = convert_to_tensor(input_shape, dtype=dtypes.int32, name="input_shape")
        block_shape = convert_to_tensor(block_shape, dtype=dtypes.int32, name="block_shape")
        if not block_shape.shape.is_fully_defined():
            raise ValueError(f"Shape {block_shape.shape} is not fully defined")
        check_rank(block_shape.shape, 1)
        count = block_shape.shape.dim_values[0]
        if count == 0:
            return zeros([0, 2], dtypes.int32), zeros([0, 2], dtypes.int32)
        if base_paddings is None:
            base_paddings = zeros([count, 2], dtypes.int32)
        else:
            base_paddings = convert_to_tensor(base_paddings, dtype=dtypes.int32, name="base_paddings")
        known = [static_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(v is not None for v in known):
            block_shape, input_shape, base_paddings = known
        pad_start, pad_end = base_paddings[:, 0], base_paddings[:, 1]
        extra = (block_shape - (input_shape + pad_start + pad_end) % block_shape) % block_shape
        pad_end = pad_end + extra
        paddings = stack([[pad_start[i], pad_end[i]] for i in range(count)], name="paddings")
        crops = stack([[0, extra[i]] for i in range(count)], name="crops")
        return paddings, crops


@gradient("SpaceToBatchND")
def _space_to_batch_grad(op, grad):
    return [batch_to_space_nd(grad, op.inputs[1], op.inputs[2]), None, None]


@gradient("BatchToSpaceND")
def _batch_to_space_grad(op, grad):
    return [space_to_batch_nd(grad, op.inputs[1], op.inputs[2]), None, None]
