"""Ops that repeat, extend or cut up a tensor: ``tile`` (op ``Tile``), ``pad`` (ops ``Pad``, ``PadV2``,
``MirrorPad``) and ``split`` (ops ``Split``, ``SplitV``)."""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import Dimension, TensorShape
from numflow.ops.array_ops import shape_tensor
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import (
    INDEX_TYPES,
    _out,
    _typed_operand,
    check_dtype,
    check_rank,
    check_same_dtype,
    shape_from_tensor,
    static_value,
)


# -- tiling -----------------------------------------------------------------------------------
def _multiply_dims(a, b):
    """A product of dimensions as TensorFlow's shape inference takes it: 0 and 1 decide even an unknown."""
    if a == 0 or b == 0:
        return 0
    if a == 1 or b == 1:
        return b if a == 1 else a
    return None if a is None or b is None else a * b


@declare("Tile")
def _tile_infer(op):
    x, multiples = op.inputs
    check_dtype(multiples, INDEX_TYPES, "multiples")
    check_rank(multiples.shape, 1)
    times = shape_from_tensor(multiples)
    if times.ndims is None:
        return [(x.dtype, TensorShape(None if x.shape.ndims is None else [None] * x.shape.ndims))]
    if x.shape.ndims is not None and x.shape.ndims != times.ndims:
        raise ValueError(f"Shape must be rank {x.shape.ndims} but is rank {times.ndims}")
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * times.ndims
    return [(x.dtype, TensorShape([_multiply_dims(d, m) for d, m in zip(dims, times.dim_values)]))]


def tile(input, multiples, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` repeated ``multiples[i]`` times along each dimension ``i`` (op ``Tile``).

    >>> import numflow as tf
    >>> tf.tile(tf.placeholder(tf.float32, [None, 3]), [2, 3]).shape.as_list()
    [None, 9]
    """
    with get_default_graph().name_scope(name or "Tile") as scope:
        x = convert_to_tensor(input, name="input")
        multiples = shape_tensor(multiples, name="multiples")
        return _out("Tile", [x, multiples], name=scope)[0]


# -- padding ----------------------------------------------------------------------------------
def _check_paddings(x, paddings):
    """The static shape of ``x`` padded by ``paddings`` (``[rank, 2]``), with TensorFlow's checks."""
    check_dtype(paddings, INDEX_TYPES, "paddings")
    check_rank(paddings.shape, 2)
    n = None
    if paddings.shape.ndims == 2:
        n, columns = paddings.shape.dim_values
        if columns is not None and columns != 2:
            raise ValueError(f"Dimension must be 2 but is {columns}")
    if n is not None:
        check_rank(x.shape, n)
    rank = x.shape.ndims if x.shape.ndims is not None else n
    if rank is None:
        return TensorShape(None)
    amounts = static_value(paddings)
    if amounts is None:
        return TensorShape([None] * rank)
    if np.any(amounts < 0):
        raise ValueError("Paddings must be non-negative")
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * rank
    return TensorShape([None if d is None else d + int(before) + int(after)
                        for d, (before, after) in zip(dims, amounts)])


@declare("Pad")
def _pad_infer(op):
    x, paddings = op.inputs
    return [(x.dtype, _check_paddings(x, paddings))]


@declare("PadV2")
def _pad_v2_infer(op):
    x, paddings, constant_values = op.inputs
    check_same_dtype(x, constant_values, "PadV2", "input", "constant_values")
    return [(x.dtype, _check_paddings(x, paddings))]


@declare("MirrorPad")
def _mirror_pad_infer(op):
    x, paddings = op.inputs
    return [(x.dtype, _check_paddings(x, paddings))]


_PAD_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """``tensor`` with ``paddings[i] = [before, after]`` elements added on either side of dimension ``i``.

    ``mode`` "CONSTANT" fills them with ``constant_values`` (op ``Pad`` for a Python zero, else ``PadV2``);
    "REFLECT" mirrors the tensor without its edge, "SYMMETRIC" with it (op ``MirrorPad``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.pad([[1, 2, 3]], [[0, 0], [2, 2]], mode="REFLECT")).tolist()
    [[3, 2, 1, 2, 3, 2, 1]]
    """
    mode = mode.upper()
    if mode not in _PAD_MODES:
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f"Received `mode` = {mode}")
    zero = (mode == "CONSTANT" and not is_tensor(constant_values) and np.ndim(constant_values) == 0
            and constant_values == 0)
    op_type = "Pad" if zero else "PadV2" if mode == "CONSTANT" else "MirrorPad"
    with get_default_graph().name_scope(name or op_type) as scope:
        x = convert_to_tensor(tensor, name="input")
        paddings = convert_to_tensor(paddings, name="paddings", preferred_dtype=dtypes.int32)
        if op_type == "MirrorPad":
            return _out(op_type, [x, paddings], {"mode": mode}, name=scope)[0]
        if op_type == "Pad":
            return _out(op_type, [x, paddings], name=scope)[0]
        value = _typed_operand(op_type, constant_values, x.dtype.base_dtype, "constant_values")
        return _out(op_type, [x, paddings, value], name=scope)[0]


# -- splitting --------------------------------------------------------------------------------
def _split_axis(axis, rank):
    """The static split axis in ``[0, rank)``, or None when it is known only at run time."""
    check_dtype(axis, INDEX_TYPES, "split_dim")
    if axis.shape.ndims not in (None, 0):
        raise ValueError(f"Input must be scalar but has rank {axis.shape.ndims}")
    a = static_value(axis)
    if a is None or rank is None:
        return None
    a = int(a)
    if not -rank <= a < rank:
        raise ValueError(f"Dimension size, given by scalar input {a} must be in range [{-rank}, {rank})")
    return a % rank


@declare("Split")
def _split_infer(op):
    axis, x = op.inputs
    num = op._attrs["num_split"]
    a = _split_axis(axis, x.shape.ndims)
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))] * num
    dims = x.shape.dim_values
    if a is None:
        return [(x.dtype, TensorShape([None] * len(dims)))] * num
    if dims[a] is not None:
        if dims[a] % num:
            raise ValueError(f"Dimension size must be evenly divisible by {num} but is {dims[a]}")
        dims[a] //= num
    return [(x.dtype, TensorShape(dims))] * num


@declare("SplitV")
def _split_v_infer(op):
    x, size_splits, axis = op.inputs
    num = op._attrs["num_split"]
    check_dtype(size_splits, INDEX_TYPES, "size_splits")
    rank = x.shape.ndims
    if rank == 0:
        raise ValueError("Can't split scalars")
    a = _split_axis(axis, rank)
    if rank is None:
        return [(x.dtype, TensorShape(None))] * num
    sizes = static_value(size_splits)
    if a is None:
        return [(x.dtype, TensorShape([None] * rank))] * num
    dims = x.shape.dim_values
    if sizes is None:
        return [(x.dtype, TensorShape(dims[:a] + [None] + dims[a + 1:]))] * num
    sizes = sizes.tolist()
    if len(sizes) != num:
        raise ValueError("Length of size_splits should be equal to num_outputs")
    if sizes.count(-1) > 1:
        raise ValueError("size_splits can only have one -1")
    total = sum(s for s in sizes if s != -1)
    out = []
    for i, s in enumerate(sizes):
        if s == -1 and dims[a] is not None:
            s = dims[a] - total
        if s < -1 or (s == -1 and dims[a] is not None):
            raise ValueError(f"Split size at index {i} must be >= 0. Got: {s}")
        out.append((x.dtype, TensorShape(dims[:a] + [None if s == -1 else s] + dims[a + 1:])))
    if dims[a] is not None and (total > dims[a] if -1 in sizes else total != dims[a]):
        raise ValueError(f"can't split axis of size {dims[a]} into pieces of size [{','.join(map(str, sizes))}]")
    return out


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """``value`` cut along ``axis`` into ``num_or_size_splits`` equal parts (op ``Split``), or into parts of
    the sizes listed, one of which may be -1 for the rest (op ``SplitV``). Returns a list of tensors.

    >>> import numflow as tf
    >>> [t.name for t in tf.split(tf.zeros([2, 6]), [1, -1, 2], axis=1)]
    ['split:0', 'split:1', 'split:2']
    """
    graph = get_default_graph()
    if isinstance(num_or_size_splits, numbers.Integral | Dimension) and not isinstance(num_or_size_splits, bool):
        count = int(num_or_size_splits)
        if count < 1:
            raise ValueError(f"Attr 'num_split' of 'Split' Op passed {count} less than minimum 1.")
        with graph.name_scope(name or "split") as scope:
            axis = convert_to_tensor(axis, name="split_dim", preferred_dtype=dtypes.int32)
            x = convert_to_tensor(value, name="value")
            return _out("Split", [axis, x], {"num_split": count, "T": x.dtype.base_dtype}, name=scope)
    size_splits = convert_to_tensor(num_or_size_splits, preferred_dtype=dtypes.int32)
    if size_splits.shape.ndims == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         f"Argument provided: {num_or_size_splits}")
    if num is None:
        num = size_splits.shape.dim_values[0] if size_splits.shape.ndims == 1 else None
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {num_or_size_splits}")
    with graph.name_scope(name or "split") as scope:
        x = convert_to_tensor(value, name="value")
        axis = convert_to_tensor(axis, name="split_dim", preferred_dtype=dtypes.int32)
        return _out("SplitV", [x, size_splits, axis], {"num_split": int(num)}, name=scope)
