"""``setdiff1d`` (op ``ListDiff``): the values of one vector missing from another, and where they are; and
``tf.sets``: the intersection, union and difference of the sets along the last dimension of dense or
sparse tensors (ops ``DenseToDenseSetOperation``, ``DenseToSparseSetOperation``,
``SparseToSparseSetOperation``) and their sizes (op ``SetSize``). Kernels: ``numflow_kernels/reference_arrays.py``
and ``numflow_kernels/reference_sets.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, _typed_operand, check_rank


@declare("ListDiff")
def _list_diff_infer(op):
    x, y = op.inputs
    check_rank(x.shape, 1)
    check_rank(y.shape, 1)
    index_dtype = op._attrs["out_idx"]
    if index_dtype not in INDEX_TYPES:
        raise TypeError(f"Value passed to parameter 'out_idx' has DataType {index_dtype.name} not in list of "
                        "allowed values: int32, int64")
    return [(x.dtype, TensorShape([None])), (index_dtype, TensorShape([None]))]


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """The values of the 1-D ``x`` not in ``y``, in ``x``'s order (repeats kept), and their positions in ``x``.

    >>> import numflow as tf
    >>> out, idx = tf.setdiff1d([1, 2, 3, 4, 5, 2], [2, 4])
    >>> [a.tolist() for a in tf.Session().run([out, idx])]
    [[1, 3, 5], [0, 2, 4]]
    """
    with get_default_graph().name_scope(name or "ListDiff") as scope:
        x = convert_to_tensor(x, name="x")
        y = _typed_operand("ListDiff", y, x.dtype.base_dtype, "y")
        return tuple(_out("ListDiff", [x, y], {"out_idx": dtypes.as_dtype(index_dtype)}, name=scope))


def listdiff(x, y, out_idx=None, name=None):
    """TensorFlow 1's spelling of :func:`setdiff1d`, ``out_idx`` its ``index_dtype``."""
    return setdiff1d(x, y, out_idx or dtypes.int32, name)


_SET_DTYPES = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.string)


def _sparse_result_infer(rank):
    """The indices, values and dense shape of a sparse result of ``rank(op)``; the values' dtype is the inputs'."""
    def infer(op):
        r = rank(op)
        return [(dtypes.int64, TensorShape([None, r])), (op.inputs[0 if op.type == "DenseToDenseSetOperation"
                                                                   else -2].dtype, TensorShape([None])),
                (dtypes.int64, TensorShape([r]))]

    return infer


def _dense_rank(op):
    check_rank(op.inputs[0].shape, 2, at_least=True)
    return op.inputs[0].shape.ndims


def _sparse_rank(op):
    return dimension_value(op.inputs[-1].shape[0]) if op.inputs[-1].shape.ndims == 1 else None


@declare("DenseToDenseSetOperation")
def _dense_dense_infer(op):
    a, b = op.inputs
    check_rank(b.shape, 2, at_least=True)
    if a.shape.ndims is not None and b.shape.ndims is not None:
        groups_a, groups_b = a.shape.dim_values[:-1], b.shape.dim_values[:-1]
        for i, (m, n) in enumerate(zip(groups_a, groups_b)):
            if m is not None and n is not None and m != n:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {m} and {n}. Shapes are "
                                 f"{TensorShape(groups_a)} and {TensorShape(groups_b)}.")
    return _sparse_result_infer(_dense_rank)(op)


declare("DenseToSparseSetOperation")(_sparse_result_infer(_dense_rank))
declare("SparseToSparseSetOperation")(_sparse_result_infer(_sparse_rank))


@declare("SetSize")
def _set_size_infer(op):
    return [(dtypes.int32, TensorShape(None))]


def _sparse_or_dense(value, name):
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    return value if isinstance(value, SparseTensor) else convert_to_tensor(value, name=name)


def set_size(a, validate_indices=True):
    """The number of distinct values in each set (along the last dimension) of the SparseTensor ``a``.

    >>> import numflow as tf
    >>> sp = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [7, 7, 2], [2, 3])
    >>> tf.Session().run(tf.sets.set_size(sp)).tolist()
    [1, 1]
    """
    a = _sparse_or_dense(a, "a")
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    if a.values.dtype.base_dtype not in _SET_DTYPES:
        raise TypeError(f"Invalid dtype `{a.values.dtype}` not in supported dtypes: `{_SET_DTYPES}`.")
    return _out("SetSize", [a.indices, a.values, a.dense_shape], {"validate_indices": bool(validate_indices)},
                name="SetSize")[0]


def _set_inputs(a, b):
    a = _sparse_or_dense(a, "a")
    if a.dtype.base_dtype not in _SET_DTYPES:
        raise TypeError(f"Unexpected dtype {a.dtype}.")
    b = _sparse_or_dense(b, "b")
    if b.dtype.base_dtype != a.dtype.base_dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _set_operation(a, b, set_operation, validate_indices):
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        outputs = _out("SparseToSparseSetOperation", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                      b.dense_shape], attrs, name="SparseToSparseSetOperation")
    elif isinstance(b, SparseTensor):
        outputs = _out("DenseToSparseSetOperation", [a, b.indices, b.values, b.dense_shape], attrs,
                       name="DenseToSparseSetOperation")
    else:
        outputs = _out("DenseToDenseSetOperation", [a, b], attrs, name="DenseToDenseSetOperation")
    return SparseTensor(*outputs)


def set_intersection(a, b, validate_indices=True):
    """The values in both of the sets along the last dimension of ``a`` and ``b`` (dense or sparse), sorted,
    as a SparseTensor of ``a``'s rank whose last dimension is the largest result's size."""
    a, b, _ = _set_inputs(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_difference(a, b, aminusb=True, validate_indices=True):
    """The values of each set of ``a`` missing from ``b``'s (``b - a`` with ``aminusb=False``)."""
    a, b, flipped = _set_inputs(a, b)
    return _set_operation(a, b, "a-b" if aminusb != flipped else "b-a", validate_indices)


def set_union(a, b, validate_indices=True):
    """The values in either of the sets along the last dimension of ``a`` and ``b``."""
    a, b, _ = _set_inputs(a, b)
    return _set_operation(a, b, "union", validate_indices)
