"""``SpaceToBatchND`` and ``BatchToSpaceND``: the reshapes that turn a dilated convolution or pool into a
plain one over a bigger batch (``with_space_to_batch``), with static shapes and each other as gradient.

``space_to_batch_nd(x, block_shape, paddings)`` zero-pads the ``M`` dimensions after the batch by
``paddings`` ([M, 2]) and moves each ``block_shape`` interleave into the batch: ``[batch, *padded,
*rest]`` becomes ``[batch * prod(block), *(padded / block), *rest]``. ``batch_to_space_nd(x,
block_shape, crops)`` is its inverse, then removes ``crops``. Kernels: ``reference_conv.py``.
"""

import numpy as np

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
                    raise ValueError(f"padded_shape[{i}]={padded} is not divisible by block_shape[{i}]={b}")
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


@gradient("SpaceToBatchND")
def _space_to_batch_grad(op, grad):
    return [batch_to_space_nd(grad, op.inputs[1], op.inputs[2]), None, None]


@gradient("BatchToSpaceND")
def _batch_to_space_grad(op, grad):
    return [space_to_batch_nd(grad, op.inputs[1], op.inputs[2]), None, None]
