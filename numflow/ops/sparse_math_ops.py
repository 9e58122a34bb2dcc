"""Arithmetic on SparseTensors: sparse_tensor_dense_matmul (op ``SparseTensorDenseMatMul``), sparse_add
(``SparseAdd``, or ``SparseTensorDenseAdd`` with a dense operand), sparse_reorder, sparse_reshape and the
reductions sparse_reduce_sum/_max (and their ``_sparse`` twins), with TensorFlow's gradients.
Kernels: ``numflow_kernels/reference_sparse_math.py``."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, shape_from_tensor, static_value

_SPARSE = (SparseTensor, SparseTensorValue)


def as_sparse(value):
    """``value`` as a SparseTensor (a SparseTensorValue becomes constants), else TensorFlow's TypeError."""
    if isinstance(value, SparseTensorValue):
        return SparseTensor.from_value(value)
    if not isinstance(value, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(value).__name__}")
    return value


def check_sparse_inputs(indices, values, shape):
    """TensorFlow's build-time checks of a SparseTensor's three tensors: int64 [N, rank], [N] and [rank]."""
    check_dtype(indices, (dtypes.int64,), "indices")
    check_rank(indices.shape, 2)
    check_rank(values.shape, 1)
    check_rank(shape.shape, 1)


# -- SparseTensorDenseMatMul ---------------------------------------------------------------------
@declare("SparseTensorDenseMatMul")
def _matmul_infer(op):
    indices, values, a_shape, b = op.inputs
    check_dtype(indices, INDEX_TYPES, "Tindices")
    check_rank(indices.shape, 2)
    check_rank(values.shape, 1)
    check_rank(a_shape.shape, 1)
    check_rank(b.shape, 2)
    a_dims = shape_from_tensor(a_shape).with_rank(2).dim_values if a_shape.shape.ndims == 1 else [None, None]
    adjoint_a, adjoint_b = op._attrs["adjoint_a"], op._attrs["adjoint_b"]
    rows, inner = a_dims[::-1] if adjoint_a else a_dims
    b_dims = b.shape.with_rank(2).dim_values
    inner_b, cols = b_dims[::-1] if adjoint_b else b_dims
    if None not in (inner, inner_b) and inner != inner_b:
        raise ValueError(f"Dimensions must be equal, but are {inner} and {inner_b}")
    return [(values.dtype, TensorShape([rows, cols]))]


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The dense product of the 2-D SparseTensor ``sp_a`` (or its adjoint) and the matrix ``b`` (or its adjoint).

    When ``b`` is the SparseTensor instead, the product is computed transposed, as TensorFlow does.

    >>> import numflow as tf
    >>> a = tf.SparseTensor([[0, 1], [2, 0]], [5.0, 6.0], [3, 2])
    >>> tf.Session().run(tf.sparse_tensor_dense_matmul(a, [[1.0], [2.0]])).tolist()
    [[10.0], [0.0], [6.0]]
    """
    if isinstance(b, _SPARSE):
        swapped = (adjoint_a, adjoint_b) if adjoint_a != adjoint_b else (not adjoint_a, not adjoint_b)
        return array_ops.transpose(sparse_tensor_dense_matmul(b, sp_a, *swapped))
    sp_a = as_sparse(sp_a)
    with get_default_graph().name_scope(name or "SparseTensorDenseMatMul"):
        b = convert_to_tensor(b, name="b")
        attrs = {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}
        return _out("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b], attrs,
                    name="SparseTensorDenseMatMul")[0]


@register_gradient("SparseTensorDenseMatMul")
def _matmul_grad(op, grad):
    """TensorFlow's: ``b``'s from the product with the other adjoint of ``a``; the values' from one small
    product per value, of ``grad``'s row and ``b``'s column at the value's position."""
    indices, values, a_shape, b = op.inputs
    adjoint_a, adjoint_b = op._attrs["adjoint_a"], op._attrs["adjoint_b"]
    if values.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError(f"SparseTensorDenseMatMul op received operands with different types: "
                        f"`{values.dtype.base_dtype.name}` and `{b.dtype.base_dtype.name}`.")
    b_grad = get_default_graph().create_op(
        "SparseTensorDenseMatMul", [indices, values, a_shape, grad],
        {"adjoint_a": not adjoint_a, "adjoint_b": False}, name="SparseTensorDenseMatMul").outputs[0]
    if adjoint_b:
        from numflow.ops.linalg_ops import matrix_transpose

        b_grad = matrix_transpose(b_grad, conjugate=True)
    rows, cols = indices[:, 0], indices[:, 1]
    from numflow.ops.selection_ops import gather

    parts_a = gather(grad, cols if adjoint_a else rows)
    parts_b = gather(array_ops.transpose(b) if adjoint_b else b, rows if adjoint_a else cols)
    # grad's part is a row, or a column to take the adjoint of; b's a column, or a row to take the adjoint of.
    part_a = array_ops.expand_dims(parts_a, -1 if adjoint_a else -2)
    part_b = array_ops.expand_dims(parts_b, -2 if adjoint_a == adjoint_b else -1)
    values_grad = math_ops.matmul(part_a, part_b, adjoint_a=adjoint_a, adjoint_b=adjoint_a == adjoint_b)
    return [None, array_ops.squeeze(values_grad, axis=[-2, -1]), None, b_grad]


# -- SparseReorder, SparseReshape -----------------------------------------------------------------
@declare("SparseReorder")
def _reorder_infer(op):
    indices, values, shape = op.inputs
    check_sparse_inputs(indices, values, shape)
    return [(dtypes.int64, indices.shape), (values.dtype, values.shape)]


def sparse_reorder(sp_input, name=None):
    """``sp_input`` with its indices (and values) in row-major order (op ``SparseReorder``)."""
    sp_input = as_sparse(sp_input)
    indices, values = _out("SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                           name=name or "SparseReorder")
    if sp_input.shape.is_fully_defined():
        return SparseTensor(indices, values, sp_input.shape.as_list())
    result = SparseTensor(indices, values, array_ops.identity(sp_input.dense_shape))
    result.set_shape(sp_input.shape)
    return result


@declare("SparseReshape")
def _reshape_infer(op):
    indices, shape, new_shape = op.inputs
    check_rank(indices.shape, 2)
    check_rank(shape.shape, 1)
    check_rank(new_shape.shape, 1)
    rank = dimension_value(new_shape.shape[0]) if new_shape.shape.ndims == 1 else None
    rows = dimension_value(indices.shape[0]) if indices.shape.ndims == 2 else None
    return [(dtypes.int64, TensorShape([rows, rank])), (dtypes.int64, TensorShape([rank]))]


def sparse_reshape(sp_input, shape, name=None):
    """``sp_input`` as a SparseTensor of ``shape`` (one dimension may be -1), its values in the same
    row-major order (op ``SparseReshape``); the static shape when both shapes are known, as TensorFlow."""
    sp_input = as_sparse(sp_input)
    shape = math_ops.cast(shape, dtypes.int64)
    with get_default_graph().name_scope(name or "SparseReshape") as scope:
        indices, out_shape = _out("SparseReshape", [sp_input.indices, sp_input.dense_shape, shape], name=scope)
        wanted = shape_from_tensor(shape)
        if wanted.ndims is not None and sp_input.shape.is_fully_defined():
            dims = wanted.as_list()
            by_user = static_value(shape)
            if by_user is not None and sum(int(d) == -1 for d in by_user) > 1:
                raise ValueError(f"At most one dimension can be inferred (-1). Found: {_np_list(by_user)}")
            size = int(np.prod(sp_input.shape.as_list()))
            implied = [i for i, d in enumerate(dims) if d is None]
            if len(implied) == 1 and 0 not in dims:
                known = int(np.prod([d for d in dims if d is not None]))
                dims = dims[:implied[0]] + [size // known] + dims[implied[0] + 1:]
            if not implied or (len(implied) == 1 and 0 not in dims):
                if int(np.prod(dims)) != size:
                    raise ValueError(f"Cannot reshape a tensor with {size} elements to shape "
                                     f"{_none_list(wanted.as_list())} ({int(np.prod(dims))} elements).")
                out_shape = convert_to_tensor(dims, dtype=dtypes.int64)
        return SparseTensor(indices, array_ops.identity(sp_input.values), out_shape)


def _np_list(values):
    return "[" + " ".join(str(int(v)) for v in values) + "]"


def _none_list(dims):
    return "[" + ", ".join("None" if d is None else str(d) for d in dims) + "]"


# -- SparseAdd, SparseTensorDenseAdd ---------------------------------------------------------------
@declare("SparseAdd")
def _add_infer(op):
    a_indices, a_values, a_shape, b_indices, b_values, b_shape, threshold = op.inputs
    check_sparse_inputs(a_indices, a_values, a_shape)
    check_sparse_inputs(b_indices, b_values, b_shape)
    check_rank(threshold.shape, 0)
    rank = dimension_value(a_shape.shape[0]) if a_shape.shape.ndims == 1 else None
    return [(dtypes.int64, TensorShape([None, rank])), (a_values.dtype, TensorShape([None])),
            (dtypes.int64, a_shape.shape)]


@declare("SparseAddGrad")
def _add_grad_infer(op):
    grad, a_indices, b_indices, _ = op.inputs
    return [(grad.dtype, TensorShape([dimension_value(a_indices.shape[0]) if a_indices.shape.ndims else None])),
            (grad.dtype, TensorShape([dimension_value(b_indices.shape[0]) if b_indices.shape.ndims else None]))]


@declare("SparseTensorDenseAdd")
def _dense_add_infer(op):
    indices, values, shape, dense = op.inputs
    check_dtype(indices, INDEX_TYPES, "Tindices")
    check_rank(values.shape, 1)
    return [(values.dtype, dense.shape)]


def sparse_add(a, b, threshold=None, thresh=None):
    """``a + b`` where one or both are SparseTensors: a SparseTensor (op ``SparseAdd``, dropping sums whose
    magnitude is below ``threshold``), or a dense tensor when the other is dense (``SparseTensorDenseAdd``).

    >>> import numflow as tf
    >>> a = tf.SparseTensor([[0, 1]], [5.0], [2, 2])
    >>> tf.Session().run(tf.sparse_add(a, tf.ones([2, 2]))).tolist()
    [[1.0, 6.0], [1.0, 1.0]]
    """
    if threshold is not None and thresh is not None:
        raise ValueError("Cannot specify both 'threshold' and 'thresh'")
    threshold = threshold if threshold is not None else thresh if thresh is not None else 0
    if not isinstance(a, _SPARSE) and not isinstance(b, _SPARSE):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if isinstance(a, _SPARSE) and isinstance(b, _SPARSE):
        a, b = as_sparse(a), as_sparse(b)
        real = a.values.dtype.base_dtype.real_dtype
        threshold = convert_to_tensor(threshold, dtype=real, name="threshold")
        indices, values, shape = _out("SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                    b.dense_shape, threshold], name="SparseAdd")
        a.shape.assert_is_compatible_with(b.shape)
        static = a.shape.merge_with(b.shape)
        return SparseTensor(indices, values, static.as_list() if static.is_fully_defined() else shape)
    if isinstance(b, _SPARSE):
        a, b = b, a
    a = as_sparse(a)
    return _out("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, convert_to_tensor(b)],
                name="SparseTensorDenseAdd")[0]


@register_gradient("SparseAdd")
def _add_grad(op, *grads):
    """TensorFlow's: each sum's gradient goes back to the operand values it came from (``SparseAddGrad``)."""
    values_grad = grads[1]
    a_grad, b_grad = get_default_graph().create_op(
        "SparseAddGrad", [values_grad, op.inputs[0], op.inputs[3], op.outputs[0]], name="SparseAddGrad").outputs
    a_grad.set_shape(op.inputs[1].shape)
    b_grad.set_shape(op.inputs[4].shape)
    return [None, a_grad, None, None, b_grad, None, None]


@register_gradient("SparseTensorDenseAdd")
def _dense_add_grad(op, grad):
    """TensorFlow's: the dense operand gets ``grad``; the values ``grad`` at their indices."""
    from numflow.ops.scatter_ops import gather_nd

    return [None, gather_nd(grad, op.inputs[0]), None, grad]


# -- reductions ----------------------------------------------------------------------------------
def _reduced_shape(op):
    """The static shape of a reduction when the dense shape and the axes are constants, as TensorFlow."""
    shape, axes = static_value(op.inputs[2]), static_value(op.inputs[3])
    if shape is None or axes is None:
        return TensorShape(None)
    rank = len(shape)
    axes = {int(a) % rank if -rank <= int(a) < rank else int(a) for a in np.reshape(axes, [-1])}
    keep = op._attrs["keep_dims"]
    return TensorShape([1 if i in axes else int(d) for i, d in enumerate(shape) if keep or i not in axes])


@declare("SparseReduceSum")
@declare("SparseReduceMax")
def _reduce_infer(op):
    indices, values, shape, axes = op.inputs
    check_sparse_inputs(indices, values, shape)
    check_dtype(axes, (dtypes.int32,), "reduction_axes")
    return [(values.dtype, _reduced_shape(op))]


@declare("SparseReduceSumSparse")
@declare("SparseReduceMaxSparse")
def _reduce_sparse_infer(op):
    indices, values, shape, axes = op.inputs
    check_sparse_inputs(indices, values, shape)
    check_dtype(axes, (dtypes.int32,), "reduction_axes")
    return [(dtypes.int64, TensorShape([None, None])), (values.dtype, TensorShape([None])),
            (dtypes.int64, TensorShape([None]))]


def _reduction_axes(sp_input, axis):
    """The axes to reduce, as TensorFlow's ``_ReductionDims``: all of them for None (a constant range when
    the rank is known, else ``range(size(dense_shape))``)."""
    if axis is not None:
        return axis
    rank = sp_input.shape.ndims
    if rank is not None:
        return convert_to_tensor(np.arange(rank, dtype=np.int32))
    from numflow.ops.sequence_ops import size

    return math_ops.range(0, size(sp_input.dense_shape, name="Rank"), 1)


def _keepdims(keepdims, keep_dims):
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    return bool(keepdims if keepdims is not None else keep_dims)


def _reduce(op_type, sp_input, axis, keepdims, reduction_axes, keep_dims):
    if axis is not None and reduction_axes is not None:
        raise ValueError("Cannot specify both 'axis' and 'reduction_axes'")
    sp_input = as_sparse(sp_input)
    axes = _reduction_axes(sp_input, axis if axis is not None else reduction_axes)
    with get_default_graph().name_scope(op_type) as scope:
        if not is_tensor(axes):
            axes = convert_to_tensor(axes, dtype=dtypes.int32, name="reduction_axes")
        outs = _out(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape, axes],
                    {"keep_dims": _keepdims(keepdims, keep_dims)}, name=scope)
    return outs[0] if len(outs) == 1 else SparseTensor(*outs)


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """The dense sum of ``sp_input``'s values over ``axis`` (all axes when None; op ``SparseReduceSum``)."""
    return _reduce("SparseReduceSum", sp_input, axis, keepdims, reduction_axes, keep_dims)


def sparse_reduce_sum_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """As :func:`sparse_reduce_sum`, the result a SparseTensor (op ``SparseReduceSumSparse``)."""
    return _reduce("SparseReduceSumSparse", sp_input, axis, keepdims, reduction_axes, keep_dims)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """The dense maximum of ``sp_input``'s values over ``axis``, the implicit zeros left out
    (op ``SparseReduceMax``)."""
    return _reduce("SparseReduceMax", sp_input, axis, keepdims, reduction_axes, keep_dims)


def sparse_reduce_max_sparse(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None):
    """As :func:`sparse_reduce_max`, the result a SparseTensor (op ``SparseReduceMaxSparse``)."""
    return _reduce("SparseReduceMaxSparse", sp_input, axis, keepdims, reduction_axes, keep_dims)


@register_gradient("SparseReduceSum")
def _reduce_sum_grad(op, grad):
    """TensorFlow's: each value gets the gradient of the output element it was summed into."""
    indices, _, shape, axes = op.inputs
    from numflow.ops.data_flow_ops import dynamic_stitch
    from numflow.ops.scatter_ops import gather_nd
    from numflow.ops.sequence_ops import size

    rank = size(shape)
    axes = math_ops.floormod(math_ops.add(axes, rank), rank)
    kept_shape = dynamic_stitch([math_ops.range(rank), axes], [shape, array_ops.ones_like(axes, dtype=dtypes.int64)])
    scale = math_ops.floordiv(shape, kept_shape)
    return [None, gather_nd(array_ops.reshape(grad, kept_shape), math_ops.floordiv(indices, scale)), None, None]


@register_gradient("SparseReorder")
def _reorder_grad(op, _, values_grad):
    """TensorFlow's: the values' gradient, put back in the input's order by reordering their positions."""
    from numflow.ops.selection_ops import gather

    indices, _, shape = op.inputs
    positions = math_ops.range(array_ops.shape(indices)[0])
    order = _out("SparseReorder", [indices, positions, shape], name="SparseReorder")[1]
    return [None, gather(values_grad, _out("InvertPermutation", [order], name="InvertPermutation")[0]), None]
