"""Placeholders, identity, shapes, and ops that create, reshape, stack or join arrays. Slicing
(``slice_ops``), gathering and selecting (``selection_ops``), and tiling, padding and splitting
(``tile_pad_split_ops``) have their own modules, whose functions are importable from here too.

Shape arguments (of ``zeros``, ``ones``, ``fill``, ``reshape``) may be Python lists, numpy arrays,
fully defined TensorShapes, integer tensors such as ``tf.shape(x)``, or lists mixing Python ints and
scalar tensors (packed into one tensor, as TensorFlow does). The static shape of the result is read
from the shape tensor where it is known at build time (:func:`shape_from_tensor`).
"""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import Dimension, TensorShape, as_shape, dims_text
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.constant_op import constant, convert_to_tensor, index_dtype, is_tensor
from numflow.ops.op_util import (
    INDEX_TYPES,
    _out,
    check_dtype,
    check_list_dtypes,
    check_rank,
    merge_dims,
    shape_from_tensor,
    static_value,
)

newaxis = None


def _contains_tensor(value):
    return isinstance(value, list | tuple) and any(
        isinstance(v, Tensor) or hasattr(v, "_as_tensor") or _contains_tensor(v) for v in value
    )


def shape_tensor(value, name="shape"):
    """A 1-D int32/int64 tensor for a shape argument (list, array, TensorShape, tensor, or a mix, Dimensions
    included)."""
    if _contains_tensor(value):
        return stack(list(value), name=name)
    return convert_to_tensor(value, name=name, preferred_dtype=dtypes.int32)


# -- placeholders, identity, shape ------------------------------------------------------------
@declare("Placeholder")
def _placeholder_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


def placeholder(dtype, shape=None, name=None):
    """A tensor whose value must be fed at run time: ``sess.run(y, feed_dict={x: value})``."""
    try:
        shape = as_shape(shape)
    except (TypeError, ValueError) as e:
        raise type(e)(f"Error converting shape to a TensorShape: {e}.") from None
    attrs = {"dtype": dtypes.as_dtype(dtype), "shape": shape}
    return get_default_graph().create_op("Placeholder", [], attrs, name=name or "Placeholder").outputs[0]


@declare("PlaceholderWithDefault")
def _placeholder_with_default_infer(op):
    x = op.inputs[0]
    shape = op._attrs["shape"]
    if not shape.is_compatible_with(x.shape):
        raise ValueError(f"Shape {shape} is not compatible with the default value's shape {x.shape}")
    return [(x.dtype, shape)]


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` unless a value is fed in its place."""
    x = convert_to_tensor(input)
    return get_default_graph().create_op(
        "PlaceholderWithDefault", [x], {"shape": as_shape(shape)}, name=name or "PlaceholderWithDefault"
    ).outputs[0]


def _same_as_input(op):
    x = op._inputs[0]
    return [(x._dtype, x._shape)]


for _op_type in ("Identity", "StopGradient", "ZerosLike"):
    declare(_op_type)(_same_as_input)


def identity(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """A tensor with the same value as ``input`` (its own op: a place for control dependencies)."""
    x = convert_to_tensor(input)
    return get_default_graph().create_op("Identity", [x], name=name or "Identity").outputs[0]


def stop_gradient(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` unchanged, but gradients do not flow through it (op ``StopGradient``)."""
    with get_default_graph().name_scope(name or "StopGradient") as scope:
        x = convert_to_tensor(input, name="input")
        return _out("StopGradient", [x], name=scope)[0]


@declare("Shape")
def _shape_infer(op):
    x = op.inputs[0]
    return [(op._attrs["out_type"], TensorShape([x.shape.ndims]))]


def shape(input, name=None, out_type=dtypes.int32):  # noqa: A002 - TensorFlow's argument name
    """The shape of ``input`` as a 1-D integer tensor: a constant when known at build time, as in
    TensorFlow, else a ``Shape`` op."""
    out_type = dtypes.as_dtype(out_type)
    with get_default_graph().name_scope(name or "Shape") as scope:
        if isinstance(input, SparseTensor):
            dense_shape = input.dense_shape
            return _out("Cast", [dense_shape], {"DstT": out_type, "SrcT": dense_shape.dtype}, name="Cast")[0]
        x = convert_to_tensor(input)
        if x.shape.is_fully_defined():
            return constant(x.shape.as_list(), dtype=out_type, name=scope)
        return _out("Shape", [x], {"out_type": out_type}, name=scope)[0]


@declare("Rank")
def _rank_infer(op):
    return [(dtypes.int32, TensorShape([]))]


def rank(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The number of dimensions of ``input``: a constant when known at build time, else a ``Rank`` op."""
    with get_default_graph().name_scope(name or "Rank") as scope:
        x = convert_to_tensor(input)
        if x.shape.ndims is not None:
            return constant(x.shape.ndims, dtype=dtypes.int32, name=scope)
        return _out("Rank", [x], name=scope)[0]


# -- creating arrays --------------------------------------------------------------------------
@declare("Fill")
def _fill_infer(op):
    dims, value = op.inputs
    check_dtype(dims, INDEX_TYPES, "dims")
    check_rank(dims.shape, 1)
    check_rank(value.shape, 0)
    known = static_value(dims)
    if known is not None and np.any(known < 0):
        raise ValueError("Fill dimensions must be >= 0")
    return [(value.dtype, shape_from_tensor(dims))]


def fill(dims, value, name=None):
    """A tensor of shape ``dims`` with every element ``value`` (op ``Fill``)."""
    with get_default_graph().name_scope(name or "Fill") as scope:
        dims = shape_tensor(dims, name="dims")
        value = convert_to_tensor(value, name="value")
        return _out("Fill", [dims, value], name=scope)[0]


# Below this many elements zeros/ones are a constant, above a Fill (TensorFlow's rule, keeping graphs small).
_CONSTANT_IF_SMALLER = 1000


def _static_dims(shape):
    """A Python shape argument (Dimensions included) as a list of ints."""
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
        return shape.as_list()
    if type(shape) is Dimension:
        if shape.value is None:
            raise ValueError(f"Cannot convert unknown Dimension {shape} to a Tensor.")
        shape = shape.value
    elif isinstance(shape, list | tuple):
        shape = [int(d) if type(d) is Dimension else d for d in shape]  # TypeError for an unknown one
    arr = np.asarray(shape)
    if arr.ndim > 1:
        raise ValueError(f"Shape must be rank 1 but is rank {arr.ndim}")
    dims = []
    for d in np.atleast_1d(arr).tolist() if arr.size or arr.ndim == 0 else []:
        if not isinstance(d, numbers.Real) or isinstance(d, bool):
            raise TypeError(f"Failed to convert elements of {shape!r} to Tensor: shapes hold integers.")
        if not 0 <= d < 1 << 63:
            raise ValueError(f"Invalid value in tensor used for shape: {int(d)}"
                             + (" (a dimension is at most 2**63 - 1)" if d > 0 else ""))
        dims.append(int(d))
    return dims


def _filled(shape, dtype, one, name):
    dtype = dtypes.as_dtype(dtype).base_dtype
    if dtype == dtypes.string:
        value = 1 if one else ""
    elif dtype == dtypes.bool:
        value = one
    else:
        value = int(one)
    with get_default_graph().name_scope(name) as scope:
        if not (isinstance(shape, Tensor) or hasattr(shape, "_as_tensor") or _contains_tensor(shape)):
            dims = _static_dims(shape)
            if int(np.prod(dims)) < _CONSTANT_IF_SMALLER:
                return constant(value, dtype=dtype, shape=dims, name=scope)
            shape = constant(dims, dtype=index_dtype(dims), name="shape_as_tensor")
        else:
            shape = shape_tensor(shape, name="packed")
        if shape.shape.ndims == 0:
            shape = reshape(shape, [-1])
        return fill(shape, constant(value, dtype=dtype), name=scope)


def zeros(shape, dtype=dtypes.float32, name=None):
    """A tensor of ``shape`` filled with zeros (``""`` for strings, False for bools).

    A small static shape gives a constant, a large one or a shape tensor a ``Fill``:

    >>> import numflow as tf
    >>> tf.zeros([2, 3]).op.type, tf.zeros([1000]).op.type
    ('Const', 'Fill')
    >>> tf.zeros(tf.shape(tf.placeholder(tf.float32, [None, 3]))).shape.as_list()
    [None, 3]
    """
    return _filled(shape, dtype, False, name or "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    """A tensor of ``shape`` filled with ones (True for bools)."""
    return _filled(shape, dtype, True, name or "ones")


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """Zeros with ``tensor``'s shape and (unless given) dtype."""
    with get_default_graph().name_scope(name or "zeros_like") as scope:
        x = convert_to_tensor(tensor, name="tensor")
        dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else x.dtype.base_dtype
        if optimize and x.shape.is_fully_defined():
            return zeros(x.shape, dtype, name=scope)
        if dtype != x.dtype.base_dtype:
            return zeros(shape(x, name="Shape"), dtype, name=scope)
        return _out("ZerosLike", [x], name=scope)[0]


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """Ones with ``tensor``'s shape and (unless given) dtype."""
    with get_default_graph().name_scope(name or "ones_like") as scope:
        x = convert_to_tensor(tensor, name="tensor")
        dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else x.dtype.base_dtype
        if optimize and x.shape.is_fully_defined():
            return ones(x.shape, dtype, name=scope)
        return ones(shape(x, name="Shape"), dtype, name=scope)


# -- reshaping --------------------------------------------------------------------------------
@declare("Reshape")
def _reshape_infer(op):
    x, target = op.inputs
    check_dtype(target, INDEX_TYPES, "shape")
    check_rank(target.shape, 1)
    out = shape_from_tensor(target)
    if out.ndims is None or x.shape.ndims is None:
        return [(x.dtype, out)]
    out_dims = out.dim_values
    unknown_out = [i for i, d in enumerate(out_dims) if d is None]
    known_out = int(np.prod([d for d in out_dims if d is not None]))
    known_in = int(np.prod([d for d in x.shape.dim_values if d is not None]))
    in_defined = x.shape.is_fully_defined()
    if in_defined and not unknown_out and known_in != known_out:
        raise ValueError(
            f"Cannot reshape a tensor with {known_in} elements to shape {dims_text(out_dims)} "
            f"({known_out} elements)"
        )
    if in_defined and len(unknown_out) == 1 and known_out > 0:
        if known_in % known_out:
            raise ValueError(f"Dimension size must be evenly divisible by {known_out} but is {known_in}")
        out_dims[unknown_out[0]] = known_in // known_out
    elif not in_defined and not unknown_out and known_in > 0 and known_out % known_in:
        raise ValueError(f"Dimension size must be evenly divisible by {known_in} but is {known_out}")
    return [(x.dtype, TensorShape(out_dims))]


def reshape(tensor, shape, name=None):
    """``tensor``'s elements in a new ``shape``; one dimension may be -1 (inferred).

    An impossible reshape fails when the graph is built if the sizes are known then, else at run time
    with InvalidArgumentError.

    >>> import numflow as tf
    >>> x = tf.placeholder(tf.float32, [None, 6])
    >>> tf.reshape(x, [-1, 2, 3]).shape.as_list()
    [None, 2, 3]
    >>> tf.reshape(x, [tf.shape(x)[0], 3, 2]).shape.as_list()
    [None, 3, 2]
    """
    with get_default_graph().name_scope(name or "Reshape") as scope:
        x = convert_to_tensor(tensor, name="tensor")
        if isinstance(shape, list | tuple) and not shape:
            # TensorFlow first converts an empty list as its default float32 and keeps that constant.
            convert_to_tensor(shape, dtype=dtypes.float32, name="shape")
        target = shape_tensor(shape, name="shape")
        return _out("Reshape", [x, target], name=scope)[0]


@declare("Transpose")
def _transpose_infer(op):
    x, perm = op.inputs
    check_dtype(perm, INDEX_TYPES, "perm")
    check_rank(perm.shape, 1)
    rank = x.shape.ndims
    n = perm.shape.dim_values[0] if perm.shape.ndims == 1 else None
    if rank is not None and n is not None and rank != n:
        raise ValueError(f"Dimension must be {rank} but is {n}")
    rank = rank if rank is not None else n
    if rank is None:
        return [(x.dtype, TensorShape(None))]
    value = static_value(perm)
    if value is None or x.shape.ndims is None:
        return [(x.dtype, TensorShape([None] * rank))]
    for p in value.tolist():
        if not -rank <= p < rank:
            raise ValueError(f"perm dim {p} is out of range of input rank {rank}")
    return [(x.dtype, TensorShape([x.shape.dim_values[p] for p in value.tolist()]))]


@declare("InvertPermutation")
def _invert_permutation_infer(op):
    (x,) = op.inputs
    check_dtype(x, INDEX_TYPES, "x")
    check_rank(x.shape, 1)
    return [(x.dtype, x.shape)]


def transpose(a, perm=None, name="transpose", conjugate=False):
    """``a`` with its dimensions permuted by ``perm`` (reversed when None); with ``conjugate``, a complex ``a``
    is also conjugated (op ``ConjugateTranspose``, declared in ``complex_ops``)."""
    with get_default_graph().name_scope(name or "transpose") as scope:
        x = convert_to_tensor(a, name="a")
        if perm is None:
            if x.shape.ndims is not None:
                perm = constant(np.arange(x.shape.ndims)[::-1].astype(np.int32), name="perm")
            else:
                from numflow.ops import math_ops

                r = rank(x)
                perm = math_ops.subtract(r - 1, math_ops.range(0, r, 1))
        else:
            perm = shape_tensor(perm, name="perm")
        op_type = "ConjugateTranspose" if conjugate and x.dtype.base_dtype.is_complex else "Transpose"
        return _out(op_type, [x, perm], name=scope)[0]


@declare("ExpandDims")
def _expand_dims_infer(op):
    x, dim = op.inputs
    check_dtype(dim, INDEX_TYPES, "dim")
    value = static_value(dim)
    if value is not None and value.size != 1:
        raise ValueError("'dim' input must be a tensor with a single value")
    if value is None or x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))]
    rank, d = x.shape.ndims, int(value.reshape(()))
    if not -rank - 1 <= d <= rank:
        raise ValueError(f"dim {d} not in the interval [{-rank - 1}, {rank}].")
    d = d % (rank + 1)
    dims = x.shape.dim_values
    return [(x.dtype, TensorShape(dims[:d] + [1] + dims[d:]))]


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` with a dimension of size 1 inserted at ``axis``."""
    if axis is None and dim is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    with get_default_graph().name_scope(name or "ExpandDims") as scope:
        x = convert_to_tensor(input, name="input")
        axis = convert_to_tensor(axis, name="dim", preferred_dtype=dtypes.int32)
        return _out("ExpandDims", [x, axis], name=scope)[0]


@declare("Squeeze")
def _squeeze_infer(op):
    x = op.inputs[0]
    axes = op._attrs["squeeze_dims"]
    rank = x.shape.ndims
    if rank is None:
        return [(x.dtype, TensorShape(None))]
    for i, a in enumerate(axes):
        if not -rank <= a < rank:
            raise ValueError(f"squeeze_dims[{i}] not in [{-rank},{rank}).")
    wanted = {a % rank for a in axes}
    dims = []
    for i, d in enumerate(x.shape.dim_values):
        if i in wanted:
            if d is not None and d != 1:
                raise ValueError(f"Can not squeeze dim[{i}], expected a dimension of 1, got {d}")
        elif not wanted and d is None:
            return [(x.dtype, TensorShape(None))]
        elif wanted or d != 1:
            dims.append(d)
    return [(x.dtype, TensorShape(dims))]


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 - TensorFlow's argument name
    """``input`` without its size-1 dimensions (only those in ``axis`` when given)."""
    if axis is None:
        axis = squeeze_dims
    if axis is None:
        axis = []
    elif isinstance(axis, numbers.Integral):
        axis = [axis]
    with get_default_graph().name_scope(name or "Squeeze") as scope:
        x = convert_to_tensor(input, name="input")
        return _out("Squeeze", [x], {"squeeze_dims": [int(a) for a in axis]}, name=scope)[0]


# -- joining and unstacking -------------------------------------------------------------------
@declare("ConcatV2")
def _concat_infer(op):
    values, axis = op.inputs[:-1], op.inputs[-1]
    check_list_dtypes(values, "ConcatV2")
    check_dtype(axis, INDEX_TYPES, "axis")
    check_rank(axis.shape, 0)
    known = [v.shape for v in values if v.shape.ndims is not None]
    dtype = values[0].dtype
    if not known:
        return [(dtype, TensorShape(None))]
    rank = known[0].ndims
    for s in known:
        check_rank(s, rank)
    if rank == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    value = static_value(axis)
    if value is None:
        return [(dtype, TensorShape([None] * rank))]
    a = int(value)
    if not -rank <= a < rank:
        raise ValueError(f"Shape must be at least rank {a + 1 if a >= 0 else -a} but is rank {rank}")
    a %= rank
    dims = known[0].dim_values
    total = 0
    for s in [v.shape.with_rank(rank) for v in values]:
        other = s.dim_values
        rest_a, rest_b = dims[:a] + dims[a + 1:], other[:a] + other[a + 1:]
        merged = [merge_dims(p, q, i, rest_a, rest_b) for i, (p, q) in enumerate(zip(rest_a, rest_b))]
        dims = merged[:a] + [None] + merged[a:]
        total = None if total is None or other[a] is None else total + other[a]
    dims[a] = total
    return [(dtype, TensorShape(dims))]


def concat(values, axis, name="concat"):
    """``values`` joined along the existing dimension ``axis`` (op ``ConcatV2``)."""
    if not isinstance(values, list | tuple):
        values = [values]
    graph = get_default_graph()
    if len(values) == 1:
        with graph.name_scope(name or "concat") as scope:
            axis_t = convert_to_tensor(axis, name="concat_dim", dtype=dtypes.int32)
            check_rank(axis_t.shape, 0)
            return identity(values[0], name=scope)
    if not values:
        raise ValueError(
            "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2."
        )
    with graph.name_scope(name or "concat") as scope:
        tensors = _convert_list(values, "values_")
        axis = convert_to_tensor(axis, name="axis", preferred_dtype=dtypes.int32)
        return _out("ConcatV2", [*tensors, axis], {"N": len(tensors)}, name=scope)[0]


def _convert_list(values, prefix):
    """Convert the items of a list input; Python values take the dtype of the tensors among them."""
    out = [convert_to_tensor(v) if is_tensor(v) else None for v in values]
    dtype = next((t.dtype.base_dtype for t in out if t is not None), None)
    return [t if t is not None else convert_to_tensor(v, dtype=dtype, name=f"{prefix}{i}")
            for i, (t, v) in enumerate(zip(out, values))]


@declare("Pack")
def _pack_infer(op):
    values = op.inputs
    check_list_dtypes(values, "Pack")
    merged = TensorShape(None)
    for v in values:
        if merged.ndims is not None and v.shape.ndims is not None:
            if merged.ndims != v.shape.ndims:
                raise ValueError(f"Shapes must be equal rank, but are {merged.ndims} and {v.shape.ndims}")
            merged = TensorShape([merge_dims(a, b, i, merged.dim_values, v.shape.dim_values)
                                  for i, (a, b) in enumerate(zip(merged.dim_values, v.shape.dim_values))])
        elif v.shape.ndims is not None:
            merged = v.shape
    axis = op._attrs["axis"]
    if merged.ndims is None:
        return [(values[0].dtype, TensorShape(None))]
    _check_axis(axis, merged.ndims + 1)
    dims = merged.dim_values
    axis %= merged.ndims + 1
    return [(values[0].dtype, TensorShape(dims[:axis] + [len(values)] + dims[axis:]))]


def _check_axis(axis, bound):
    if not -bound <= axis < bound:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-bound}, {bound})")


def stack(values, axis=0, name="stack"):
    """``values`` (tensors of one shape) joined along a new dimension ``axis`` (op ``Pack``)."""
    graph = get_default_graph()
    if is_tensor(values):
        return convert_to_tensor(values)
    if axis == 0 and not _contains_tensor(list(values)) and not any(type(v) is Dimension for v in values):
        return convert_to_tensor(values, name=name or "stack")
    with graph.name_scope(name or "stack") as scope:
        tensors = _convert_list(values, "")
        if tensors and tensors[0].shape.ndims is not None:
            _check_axis(axis, tensors[0].shape.ndims + 1)
        return _out("Pack", tensors, {"axis": int(axis), "N": len(tensors)}, name=scope)[0]


@declare("Unpack")
def _unpack_infer(op):
    x = op.inputs[0]
    num, axis = op._attrs["num"], op._attrs["axis"]
    if x.shape.ndims is None:
        return [(x.dtype, TensorShape(None))] * num
    _check_axis(axis, x.shape.ndims)
    axis %= x.shape.ndims
    dims = x.shape.dim_values
    if dims[axis] is not None and dims[axis] != num:
        raise ValueError(f"Dimension must be {num} but is {dims[axis]}")
    return [(x.dtype, TensorShape(dims[:axis] + dims[axis + 1:]))] * num


def unstack(value, num=None, axis=0, name="unstack"):
    """The slices of ``value`` along ``axis``, as a list of ``num`` tensors (op ``Unpack``)."""
    with get_default_graph().name_scope(name or "unstack") as scope:
        x = convert_to_tensor(value, name="value")
        if num is None:
            if x.shape.ndims is None:
                raise ValueError(f"Cannot infer argument `num` from shape {x.shape}")
            _check_axis(axis, x.shape.ndims)
            num = x.shape.dim_values[axis]
            if num is None:
                raise ValueError(f"Cannot infer argument `num` from shape {x.shape}")
        return _out("Unpack", [x], {"num": int(num), "axis": int(axis)}, name=scope)


# The other array families live in their own modules; their functions stay importable from here
# (``Tensor.__getitem__`` finds ``_slice_helper`` here).
from numflow.ops.selection_ops import gather, one_hot, where, where_v2  # noqa: E402, F401
from numflow.ops.slice_ops import _slice_helper, slice, strided_slice  # noqa: E402, F401
from numflow.ops.tile_pad_split_ops import pad, split, tile  # noqa: E402, F401
