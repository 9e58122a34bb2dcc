"""Slicing: ``tensor[key]`` and ``strided_slice`` (op ``StridedSlice``), with TensorFlow's masks, and
``slice`` (op ``Slice``), a block given by its start and size.

A key entry is an int (an index: its dimension is dropped), a slice (steps of either sign, bounds
clamped as Python does), ``...`` or ``tf.newaxis``; ints and slice bounds may be scalar int32/int64
tensors. The key becomes three packed 1-D tensors (begin, end, strides) and five bit masks, one bit
per entry, exactly as TensorFlow encodes it, so a ``StridedSliceGrad`` can be built from the op.

>>> import numflow as tf
>>> x = tf.placeholder(tf.float32, [None, 4, 5])
>>> x[:, ::-1, 2].shape.as_list(), x[..., tf.newaxis].shape.as_list()
([None, 4], [None, 4, 5, 1])
>>> x[0, 1:3].op.get_attr("shrink_axis_mask")
1
"""

import builtins
import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import Dimension, TensorShape, dimension_value
from numflow.ops.array_ops import _contains_tensor, shape_tensor, stack
from numflow.ops.constant_op import constant, convert_to_tensor, ints_fit, is_tensor
from numflow.ops.math_ops import cast
from numflow.ops.op_util import (
    INDEX_TYPES,
    _out,
    check_dtype,
    check_rank,
    check_same_dtype,
    merge_dims,
    shape_from_tensor,
    static_value,
)

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def dense_slice_spec(ndim, count, masks):
    """Map each of ``count`` slice entries to a dimension of an ``ndim``-D input (TF's dense spec).

    Returns ``(kinds, dims)``: kind ``"..."`` (ellipsis), ``"new"`` (newaxis), ``"index"`` (a shrunk
    index) or ``"slice"``; dims, the input dimension of each index or slice entry (None otherwise).
    Raises ValueError for two ellipses or more indices than dimensions.
    """
    ellipsis, new, shrink = masks["ellipsis_mask"], masks["new_axis_mask"], masks["shrink_axis_mask"]
    kinds = []
    for i in range(count):
        bit = 1 << i
        kind = "..." if ellipsis & bit else "new" if new & bit else "index" if shrink & bit else "slice"
        kinds.append(kind)
    if kinds.count("...") > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    real = [k in ("index", "slice") for k in kinds]
    split = kinds.index("...") if "..." in kinds else count
    dims = [None] * count
    for i in range(count):
        if real[i]:
            dims[i] = sum(real[:i]) if i < split else ndim - sum(real[i:])
    if sum(real) > ndim:
        if ndim == 0:
            raise ValueError("Attempting to slice scalar input.")
        raise ValueError(f"Index out of range using input dim {ndim}; input has only {ndim} dims")
    return kinds, dims


@declare("StridedSlice")
def _strided_slice_infer(op):
    x, begin, end, strides = op.inputs
    for t, param in ((begin, "begin"), (end, "end"), (strides, "strides")):
        check_dtype(t, INDEX_TYPES, param)
        check_rank(t.shape, 1)
    count = begin.shape.dim_values[0] if begin.shape.ndims == 1 else None
    if x.shape.ndims is None or count is None:
        return [(x.dtype, TensorShape(None))]
    values = [static_value(t) for t in (begin, end, strides)]
    if values[2] is not None:
        for i, s in enumerate(values[2].tolist()):
            if s == 0:
                raise ValueError(f"strides[{i}] must be non-zero")
    kinds, dims = dense_slice_spec(x.shape.ndims, count, op._attrs)
    sizes = x.shape.dim_values
    out = []
    covered = {d for d in dims if d is not None}
    ellipsis_dims = [d for d in range(x.shape.ndims) if d not in covered]
    for i, kind in enumerate(kinds):
        if kind == "...":
            out.extend(sizes[d] for d in ellipsis_dims)
            ellipsis_dims = []
        elif kind == "new":
            out.append(1)
        else:
            out.extend(_slice_size(sizes[dims[i]], dims[i], i, kind, values, op._attrs))
    out.extend(sizes[d] for d in ellipsis_dims)
    return [(x.dtype, TensorShape(out))]


def _slice_size(size, dim, i, kind, values, attrs):
    b, e, s = (None if v is None else int(v[i]) for v in values)
    if kind == "index":
        if size is not None and b is not None and not -size <= b < size:
            raise ValueError(f"slice index {b + size if b < 0 else b} of dimension {dim} out of bounds.")
        return []
    begin_masked, end_masked = attrs["begin_mask"] >> i & 1, attrs["end_mask"] >> i & 1
    if size is None or s is None or (b is None and not begin_masked) or (e is None and not end_masked):
        return [None]
    return [len(range(*builtins.slice(None if begin_masked else b, None if end_masked else e, s).indices(size)))]


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, name=None):
    """The elements of ``input_`` from ``begin`` to ``end`` by ``strides``, with TF's slice masks."""
    with get_default_graph().name_scope(name or "StridedSlice") as scope:
        x = convert_to_tensor(input_, name="input")
        begin = shape_tensor(begin, name="begin")
        end = shape_tensor(end, name="end")
        if strides is None:
            strides = [1] * (dimension_value(begin.shape[0]) or 0)
        strides = shape_tensor(strides, name="strides")
        attrs = dict(zip(_MASKS, (begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)))
        return _out("StridedSlice", [x, begin, end, strides], attrs, name=scope)[0]


def _slice_index(value):
    if isinstance(value, numbers.Integral | Dimension) and not isinstance(value, bool | np.bool_):
        return int(value)
    if isinstance(value, Tensor) and value.dtype.base_dtype in INDEX_TYPES and value.shape.ndims in (0, None):
        return value
    raise TypeError(
        "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 "
        f"tensors are valid indices, got {value!r}"
    )


def _slice_helper(tensor, slice_spec, var=None):
    """``tensor[slice_spec]``: ints, slices (any step), ``...``, ``tf.newaxis``, scalar int tensors."""
    tensor = convert_to_tensor(tensor)
    if not isinstance(slice_spec, list | tuple):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    masks = dict.fromkeys(_MASKS, 0)
    for i, s in enumerate(slice_spec):
        bit = 1 << i
        if isinstance(s, builtins.slice):
            # An open end or step takes the dtype of the slice's tensors (int64 over int32), as in TensorFlow.
            kinds = {t.dtype.base_dtype for t in (s.start, s.stop, s.step) if isinstance(t, Tensor)}
            dtype = dtypes.int64 if dtypes.int64 in kinds else dtypes.int32 if dtypes.int32 in kinds else None
            for part, out, mask in ((s.start, begin, "begin_mask"), (s.stop, end, "end_mask")):
                part = dimension_value(part)  # an unknown Dimension is an open end, as TensorFlow reads it
                if part is None:
                    out.append(0 if dtype is None else constant(0, dtype=dtype))
                    masks[mask] |= bit
                else:
                    out.append(_slice_index(part))
            step = dimension_value(s.step)
            strides.append(_slice_index(step) if step is not None else 1 if dtype is None else constant(1, dtype=dtype))
        elif s is Ellipsis or s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            masks["ellipsis_mask" if s is Ellipsis else "new_axis_mask"] |= bit
        else:
            index = _slice_index(s)
            begin.append(index)
            end.append(index + 1)
            strides.append(constant(1, dtype=dtypes.int64) if isinstance(index, Tensor) and
                           index.dtype.base_dtype == dtypes.int64 else 1)
            masks["shrink_axis_mask"] |= bit
    with get_default_graph().name_scope("strided_slice") as scope:
        if begin:
            packed = [stack(begin, name="stack"), stack(end, name="stack_1"), stack(strides, name="stack_2")]
            if any(p.dtype == dtypes.int64 for p in packed):  # one index dtype for all three, as TensorFlow casts
                packed = [cast(p, dtypes.int64) for p in packed]
        else:
            packed = [constant([], dtype=dtypes.int32)] * 3
        return _out("StridedSlice", [tensor, *packed], masks, name=scope)[0]


@declare("Slice")
def _slice_infer(op):
    x, begin, size = op.inputs
    check_dtype(begin, INDEX_TYPES, "begin")
    check_same_dtype(begin, size, "Slice", "begin", "size")
    check_rank(begin.shape, 1)
    check_rank(size.shape, 1)
    n = merge_dims(begin.shape.dim_values[0] if begin.shape.ndims == 1 else None,
                   size.shape.dim_values[0] if size.shape.ndims == 1 else None,
                   0, begin.shape.dim_values, size.shape.dim_values)
    if n is not None:
        check_rank(x.shape, n)
    rank = x.shape.ndims if x.shape.ndims is not None else n
    if rank is None:
        return [(x.dtype, TensorShape(None))]
    sizes = static_value(size)
    if sizes is None:
        partial = shape_from_tensor(size)
        return [(x.dtype, partial if partial.ndims is not None else TensorShape([None] * rank))]
    starts = static_value(begin)
    dims = x.shape.dim_values if x.shape.ndims is not None else [None] * rank
    out = []
    for i, s in enumerate(sizes.tolist()):
        if s < -1:
            raise ValueError(f"Invalid value in tensor used for shape: {s}")
        if s >= 0:
            out.append(s)
        elif dims[i] is None or starts is None:
            out.append(None)
        elif dims[i] < int(starts[i]):
            raise ValueError(f"Negative dimension size caused by subtracting {int(starts[i])} from {dims[i]}")
        else:
            out.append(dims[i] - int(starts[i]))
    return [(x.dtype, TensorShape(out))]


def _index_tensor_like(value, like, name):
    """``value`` as an index tensor of ``like``'s dtype when it is a Python value (one ``Index`` attr)."""
    if is_tensor(value) or _contains_tensor(value):
        return shape_tensor(value, name=name)
    if not ints_fit(value, like.dtype.base_dtype):
        raise ValueError(f"{name} {value!r} does not fit {like.dtype.base_dtype.name}, the dtype of the indices "
                         "before it: pass those as int64")
    return convert_to_tensor(value, dtype=like.dtype.base_dtype, name=name)


def slice(input_, begin, size, name=None):  # noqa: A001 - TensorFlow's public name
    """The block of ``input_`` starting at ``begin`` with extent ``size``; a size of -1 takes the rest of that
    dimension (op ``Slice``).

    >>> import numflow as tf
    >>> tf.slice(tf.placeholder(tf.float32, [None, 5]), [0, 1], [-1, 3]).shape.as_list()
    [None, 3]
    """
    with get_default_graph().name_scope(name or "Slice") as scope:
        x = convert_to_tensor(input_, name="input")
        begin = shape_tensor(begin, name="begin")
        if begin.dtype == dtypes.int32 and not (is_tensor(size) or _contains_tensor(size)) and \
                not ints_fit(size, dtypes.int32):
            begin = cast(begin, dtypes.int64)  # TF would wrap the size to begin's int32
        size = _index_tensor_like(size, begin, "size")
        return _out("Slice", [x, begin, size], name=scope)[0]


Tensor.__getitem__ = _slice_helper  # the graph layer leaves indexing to this module
