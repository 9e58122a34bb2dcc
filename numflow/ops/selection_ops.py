"""Ops that pick elements by index or by condition: ``gather`` (op ``GatherV2``), ``where`` and ``where_v2``
(ops ``Where``, ``Select``, ``SelectV2``) and ``one_hot`` (op ``OneHot``)."""

import collections

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, broadcast_shapes
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import (
    INDEX_TYPES,
    _out,
    _typed_operand,
    check_dtype,
    check_input_dtype,
    check_rank,
    check_same_dtype,
    merge_dims,
    static_value,
)

_GATHER_INDEX_TYPES = (dtypes.int16, dtypes.int32, dtypes.int64)


def batch_dims_from_front(batch_dims, indices_rank, where):
    """``batch_dims`` counted from the front (a negative one from the rank of the indices)."""
    if batch_dims >= 0:
        return batch_dims
    if indices_rank is None:
        raise ValueError(f"{where}: a negative batch_dims ({batch_dims}) needs the rank of the indices")
    return batch_dims + indices_rank


@declare("GatherV2")
def _gather_infer(op):
    params, indices, axis = op.inputs
    check_dtype(indices, _GATHER_INDEX_TYPES, "indices")
    check_dtype(axis, INDEX_TYPES, "axis")
    check_rank(axis.shape, 0)
    check_rank(params.shape, 1, at_least=True)
    rank = params.shape.ndims
    b = batch_dims_from_front(op._attrs.get("batch_dims", 0), indices.shape.ndims, op.name)
    if indices.shape.ndims is not None and b > indices.shape.ndims:
        raise ValueError(f"Shape must be at least rank {b} but is rank {indices.shape.ndims}")
    if rank is not None and b >= rank:
        raise ValueError(f"Shape must be at least rank {b + 1} but is rank {rank}")
    a = static_value(axis)
    if a is not None and rank is not None:
        a = int(a)
        if not -rank <= a < rank:
            raise ValueError(f"Shape must be at least rank {a + 1 if a >= 0 else -a} but is rank {rank}")
        a %= rank
        if a < b:
            raise ValueError(f"batch_dims ({b}) must be less than or equal to axis ({a}) in {op.name}")
    if rank is None or indices.shape.ndims is None:
        return [(params.dtype, TensorShape(None))]
    if a is None:
        return [(params.dtype, TensorShape([None] * (rank - 1 + indices.shape.ndims - b)))]
    dims = params.shape.dim_values
    batch = [merge_dims(p, i, d, dims, indices.shape.dim_values)
             for d, (p, i) in enumerate(zip(dims[:b], indices.shape.dim_values[:b]))]
    return [(params.dtype, TensorShape(batch + dims[b:a] + indices.shape.dim_values[b:] + dims[a + 1:]))]


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """The slices of ``params`` along ``axis`` (default ``batch_dims``) at ``indices`` (op ``GatherV2``).

    The result has shape ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]``.
    With ``batch_dims`` b, the first b dimensions of ``params`` and ``indices`` are batches: each batch
    element gathers from its own slice of ``params`` (``result[i, j] = params[i, indices[i, j]]`` for
    b = 1). An index outside ``[0, params.shape[axis])`` fails at run time with InvalidArgumentError.
    ``validate_indices`` is ignored, as in TensorFlow.

    The gradient with respect to ``params`` is an ``IndexedSlices`` along axis 0 without batch
    dimensions (the incoming gradient's rows and the flattened ``indices``, as TensorFlow gives it), a
    dense tensor otherwise.

    >>> import numflow as tf
    >>> p = tf.placeholder(tf.float32, [5, 4, 3])
    >>> tf.gather(p, [[0, 2]], axis=1).shape.as_list()
    [5, 1, 2, 3]
    >>> tf.gather(p, tf.zeros([5, 2], tf.int32), batch_dims=1).shape.as_list()
    [5, 2, 3]
    """
    del validate_indices
    with get_default_graph().name_scope(name or "GatherV2") as scope:
        params = convert_to_tensor(params, name="params")
        indices = convert_to_tensor(indices, name="indices")
        axis = convert_to_tensor(batch_dims if axis is None else axis, name="axis", preferred_dtype=dtypes.int32)
        return _out("GatherV2", [params, indices, axis], {"batch_dims": int(batch_dims)}, name=scope)[0]


@declare("Where")
def _where_infer(op):
    x = op.inputs[0]
    return [(dtypes.int64, TensorShape([None, x.shape.ndims]))]


def _merge_shapes(a, b):
    """The merge of two static shapes, with TensorFlow's messages when they conflict."""
    if a.ndims is None or b.ndims is None:
        return a if b.ndims is None else b
    if a.ndims != b.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}")
    da, db = a.dim_values, b.dim_values
    return TensorShape([merge_dims(p, q, i, da, db) for i, (p, q) in enumerate(zip(da, db))])


def _check_condition(op, condition):
    check_input_dtype(condition, dtypes.bool, op.type, "condition")


@declare("Select")
def _select_infer(op):
    condition, t, e = op.inputs
    _check_condition(op, condition)
    check_same_dtype(t, e, "Select", "t", "e")
    data = _merge_shapes(t.shape, e.shape)
    cond = condition.shape
    if cond.ndims is None or data.ndims is None or cond.ndims == 0:
        return [(t.dtype, data)]
    if cond.ndims != 1 or data.ndims == 0:
        return [(t.dtype, _merge_shapes(data, cond))]
    _merge_shapes(cond, TensorShape(data.dim_values[:1]))
    return [(t.dtype, data)]


@declare("SelectV2")
def _select_v2_infer(op):
    condition, t, e = op.inputs
    _check_condition(op, condition)
    check_same_dtype(t, e, "SelectV2", "t", "e")
    return [(t.dtype, broadcast_shapes(broadcast_shapes(condition.shape, t.shape), e.shape))]


def _select(op_type, condition, x, y, name):
    with get_default_graph().name_scope(name or op_type) as scope:
        condition = convert_to_tensor(condition, name="condition", preferred_dtype=dtypes.bool)
        if is_tensor(x) or not is_tensor(y):
            t = convert_to_tensor(x, name="t")
            e = _typed_operand(op_type, y, t.dtype.base_dtype, "e")
        else:
            e = convert_to_tensor(y, name="e")
            t = _typed_operand(op_type, x, e.dtype.base_dtype, "t")
        return _out(op_type, [condition, t, e], {"T": t.dtype.base_dtype}, name=scope)[0]


def _where_indices(condition, name):
    with get_default_graph().name_scope(name or "Where") as scope:
        condition = convert_to_tensor(condition, name="condition", preferred_dtype=dtypes.bool)
        return _out("Where", [condition], name=scope)[0]


def where(condition, x=None, y=None, name=None):
    """With ``x`` and ``y``: the elements of ``x`` where ``condition`` holds, else those of ``y`` (op ``Select``).
    Without them: the int64 coordinates of the true (non-zero) elements of ``condition``, one row each
    (op ``Where``).

    ``condition`` has ``x``'s shape, or is a vector choosing whole rows of ``x`` (TensorFlow 1's rule;
    :func:`where_v2` broadcasts instead).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     sess.run(tf.where([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]])).tolist()
    [[1, 2], [7, 8]]
    """
    if x is None and y is None:
        return _where_indices(condition, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _select("Select", condition, x, y, name)


def where_v2(condition, x=None, y=None, name=None):
    """:func:`where`, but ``condition``, ``x`` and ``y`` broadcast against each other (op ``SelectV2``)."""
    if x is None and y is None:
        return _where_indices(condition, name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    return _select("SelectV2", condition, x, y, name)


@declare("OneHot")
def _one_hot_infer(op):
    indices, depth, on_value, off_value = op.inputs
    check_dtype(indices, (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64), "indices")
    check_dtype(depth, (dtypes.int32,), "depth")
    check_same_dtype(on_value, off_value, "OneHot", "on_value", "off_value")
    for t in (depth, on_value, off_value):
        check_rank(t.shape, 0)
    axis = op._attrs["axis"]
    if axis < -1:
        raise ValueError("axis must be >= -1")
    n = static_value(depth)
    if n is not None and n < 0:
        raise ValueError(f"Dimension size, given by scalar input 1, must be non-negative but is {int(n)}")
    if indices.shape.ndims is None:
        return [(on_value.dtype, TensorShape(None))]
    dims = indices.shape.dim_values
    at = len(dims) if axis == -1 else axis
    return [(on_value.dtype, TensorShape(dims[:at] + [None if n is None else int(n)] + dims[at:]))]


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A tensor with ``on_value`` where the new dimension ``axis`` (default: last) equals ``indices``, and
    ``off_value`` elsewhere; an index outside ``[0, depth)`` gives a row of ``off_value`` (op ``OneHot``).

    The dtype is ``dtype``, else that of ``on_value`` or ``off_value``, else float32.
    """
    with get_default_graph().name_scope(name or "one_hot") as scope:
        given = {}
        for key, value in (("on_value", on_value), ("off_value", off_value)):
            if value is not None:
                given[key] = convert_to_tensor(value, preferred_dtype=dtype)
        kinds = {key: t.dtype.base_dtype for key, t in given.items()}
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype).base_dtype
            for key, kind in kinds.items():
                if kind != dtype:
                    raise TypeError(f"dtype {_dtype_repr(kind)} of {key} does not match dtype parameter "
                                    f"{_dtype_repr(dtype)}")
        elif len(set(kinds.values())) > 1:
            raise TypeError(f"dtype {_dtype_repr(kinds['on_value'])} of on_value does not match dtype "
                            f"{_dtype_repr(kinds['off_value'])} of off_value")
        if dtype is None:
            dtype = next(iter(kinds.values()), dtypes.float32)
        on = given["on_value"] if "on_value" in given else convert_to_tensor(1, dtype=dtype, name="on_value")
        off = given["off_value"] if "off_value" in given else convert_to_tensor(0, dtype=dtype, name="off_value")
        indices = convert_to_tensor(indices, name="indices")
        depth = convert_to_tensor(depth, name="depth", preferred_dtype=dtypes.int32)
        axis = -1 if axis is None else int(axis)
        if not -(1 << 31) <= axis < 1 << 31:
            raise ValueError(f"Attr axis has value {axis} out of range for an int32")
        return _out("OneHot", [indices, depth, on, off], {"axis": axis, "T": dtype}, name=scope)[0]


def _dtype_repr(dtype):
    return f"<dtype: '{dtype.name}'>"


@declare("Unique")
def _unique_infer(op):
    (x,) = op.inputs
    check_rank(x.shape, 1)
    return [(x.dtype, TensorShape([None])), (op._attrs["out_idx"], x.shape)]


Unique = collections.namedtuple("Unique", ["y", "idx"])  # TensorFlow's name for unique's pair


def unique(x, out_idx=dtypes.int32, name=None):
    """``(y, idx)``: the distinct elements of the 1-D ``x`` in the order they first appear, and the
    position in ``y`` of each element of ``x`` (``x == gather(y, idx)``; op ``Unique``).

    >>> import numflow as tf
    >>> with tf.Session() as sess:
    ...     [a.tolist() for a in sess.run(tf.unique([4, 1, 4, 2]))]
    [[4, 1, 2], [0, 1, 0, 2]]
    """
    with get_default_graph().name_scope(name or "Unique") as scope:
        x = convert_to_tensor(x, name="x")
        out_idx = dtypes.as_dtype(out_idx)
        if out_idx not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Value for attr 'out_idx' of {out_idx.name} is not in the list of allowed values: "
                            "int32, int64")
        return Unique(*_out("Unique", [x], {"out_idx": out_idx}, name=scope))
