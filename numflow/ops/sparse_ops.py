"""Sparse tensors in graphs: sparse_placeholder, sparse_to_dense (op ``SparseToDense``) and
sparse_tensor_to_dense. Kernels: ``numflow_kernels/reference_sparse.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape, dimension_value
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor, is_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, shape_from_tensor, static_value


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor of placeholders, fed with a ``SparseTensorValue`` (or ``(indices, values, shape)``).

    Its ``dense_shape`` is a placeholder too, defaulting to ``shape`` (``None`` entries become -1)
    when ``shape`` is given; the SparseTensor's static shape is ``shape``.
    """
    shape_name = f"{name}/shape" if name is not None else None
    if shape is None:
        dense_shape = array_ops.placeholder(dtypes.int64, [None], name=shape_name)
        static, rank = TensorShape(None), None
    else:
        if is_tensor(shape):
            shape = convert_to_tensor(shape)
            rank, static = dimension_value(shape.shape[0]), shape_from_tensor(shape)
        else:
            static = TensorShape(shape)
            dims = static.as_list()
            rank = len(dims)
            shape = convert_to_tensor([-1 if d is None else d for d in dims], dtype=dtypes.int64,
                                      name=f"{name}/shape_default" if name is not None else None)
        dense_shape = array_ops.placeholder_with_default(shape, shape.shape, name=shape_name)
    values = array_ops.placeholder(dtype, [None], name=f"{name}/values" if name is not None else None)
    indices = array_ops.placeholder(dtypes.int64, [None, rank], name=f"{name}/indices" if name is not None else None)
    result = SparseTensor(indices, values, dense_shape)
    result.set_shape(static)
    return result


@declare("SparseToDense")
def _sparse_to_dense_infer(op):
    indices, output_shape, values, default = op.inputs
    check_dtype(indices, INDEX_TYPES, "sparse_indices")
    if output_shape.dtype.base_dtype != indices.dtype.base_dtype:
        raise TypeError(f"Input 'output_shape' of 'SparseToDense' Op has type {output_shape.dtype.base_dtype.name} "
                        f"that does not match type {indices.dtype.base_dtype.name} of argument 'sparse_indices'.")
    check_rank(output_shape.shape, 1)
    check_rank(default.shape, 0)
    if values.dtype.base_dtype != default.dtype.base_dtype:
        raise TypeError(f"Input 'default_value' of 'SparseToDense' Op has type {default.dtype.base_dtype.name} that "
                        f"does not match type {values.dtype.base_dtype.name} of argument 'sparse_values'.")
    return [(values.dtype, shape_from_tensor(output_shape))]


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True, name=None):
    """A dense tensor of ``output_shape`` holding ``default_value`` but at ``sparse_indices`` (0-D, 1-D or
    ``[N, rank]``), which get ``sparse_values`` (a scalar or ``[N]``). With ``validate_indices`` the
    indices must be sorted in row-major order without repeats, as TensorFlow checks."""
    with get_default_graph().name_scope(name or "SparseToDense") as scope:
        indices = convert_to_tensor(sparse_indices, name="sparse_indices")
        shape = convert_to_tensor(output_shape, name="output_shape", dtype=indices.dtype.base_dtype) \
            if not is_tensor(output_shape) else convert_to_tensor(output_shape)
        values = convert_to_tensor(sparse_values, name="sparse_values")
        default = convert_to_tensor(default_value, name="default_value", dtype=values.dtype.base_dtype)
        attrs = {"validate_indices": bool(validate_indices)}
        return _out("SparseToDense", [indices, shape, values, default], attrs, name=scope)[0]


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor ``sp_input`` stands for (``default_value``, 0 by default, where it has no value)."""
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp_input).__name__}")
    default_value = default_value if default_value is not None else \
        sp_input.dtype.as_numpy_dtype(0) if sp_input.dtype != dtypes.string else b""
    out = sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values, default_value, validate_indices,
                          name=name)
    out.set_shape(sp_input.shape)
    return out


@register_gradient("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    """TensorFlow's: the values get ``grad`` at their indices; the default value the rest of its sum."""
    indices, output_shape, values, _ = op.inputs
    indices = math_ops.cast(indices, dtypes.int64)
    shape = math_ops.cast(output_shape, dtypes.int64)
    if indices.shape.ndims == 2:
        rank = indices.shape.dim_values[1]
        rank = rank if rank is not None else dimension_value(output_shape.shape[0])
        if rank is None:
            raise ValueError(f"The gradient of {op.name} needs the rank of its output; it is unknown.")
        strides = [math_ops.reduce_prod(shape[i + 1:]) for i in range(rank)]
        flat = math_ops.reduce_sum(indices * array_ops.stack(strides), axis=1)
    else:
        flat = array_ops.reshape(indices, [-1])
    picked = array_ops.gather(array_ops.reshape(grad, [-1]), flat)
    values_grad = picked if values.shape.ndims != 0 else math_ops.reduce_sum(picked)
    default_grad = math_ops.reduce_sum(grad) - math_ops.reduce_sum(picked)
    return [None, None, values_grad, default_grad]


# -- sparse segment reductions ------------------------------------------------------------------
_SEGMENT_REDUCTIONS = {"SparseSegmentSum": "sum", "SparseSegmentMean": "mean", "SparseSegmentSqrtN": "sqrtn"}


def _segment_inputs(op):
    data, indices, segment_ids = op.inputs[:3]
    check_dtype(indices, INDEX_TYPES, "indices")
    check_dtype(segment_ids, INDEX_TYPES, "segment_ids")
    check_rank(indices.shape, 1)
    check_rank(segment_ids.shape, 1)
    a, b = dimension_value(indices.shape[0]), dimension_value(segment_ids.shape[0])
    if None not in (a, b) and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return data


def _rows_of(shape, first):
    return TensorShape(None) if shape.ndims is None else TensorShape([first]).concatenate(shape[1:])


@declare("SparseSegmentSum")
@declare("SparseSegmentMean")
@declare("SparseSegmentSqrtN")
def _segment_reduction_infer(op):
    data = _segment_inputs(op)
    check_rank(data.shape, 1, at_least=True)
    if op.type != "SparseSegmentSum":
        check_dtype(data, (dtypes.float16, dtypes.float32, dtypes.float64), "data")
    return [(data.dtype, _rows_of(data.shape, None))]


@declare("SparseSegmentSumGrad")
@declare("SparseSegmentMeanGrad")
@declare("SparseSegmentSqrtNGrad")
def _segment_grad_infer(op):
    grad = _segment_inputs(op)
    rows = static_value(op.inputs[3])
    return [(grad.dtype, _rows_of(grad.shape, None if rows is None else int(rows)))]


@declare("SparseSegmentSumGradV2")
@declare("SparseSegmentMeanGradV2")
@declare("SparseSegmentSqrtNGradV2")
def _segment_grad_v2_infer(op):
    grad = _segment_inputs(op)
    return [(grad.dtype, _rows_of(grad.shape, None)), (op.inputs[1].dtype, TensorShape([None]))]


def _segment_reduction(op_type, data, indices, segment_ids, name, num_segments, sparse_gradient):
    if num_segments is not None:
        raise NotImplementedError(f"{op_type} with num_segments is not supported by numflow.")
    with get_default_graph().name_scope(name or op_type) as scope:
        data = convert_to_tensor(data, name="data")
        indices = convert_to_tensor(indices, name="indices")
        segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
        attrs = {"sparse_gradient": bool(sparse_gradient)}
        return _out(op_type, [data, indices, segment_ids], attrs, name=scope)[0]


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """``output[s] = sum(data[indices[i]] for i where segment_ids[i] == s)``; ``segment_ids`` sorted, rows
    up to ``segment_ids[-1]`` (op ``SparseSegmentSum``). With ``sparse_gradient`` the gradient with
    respect to ``data`` is an IndexedSlices over the distinct ``indices``.

    >>> import numflow as tf
    >>> c = tf.constant([[1, 2], [3, 4], [5, 6]])
    >>> tf.Session().run(tf.sparse_segment_sum(c, [0, 2, 1], [0, 0, 1])).tolist()
    [[6, 8], [3, 4]]
    """
    return _segment_reduction("SparseSegmentSum", data, indices, segment_ids, name, num_segments, sparse_gradient)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """As :func:`sparse_segment_sum`, divided by each segment's count (op ``SparseSegmentMean``)."""
    return _segment_reduction("SparseSegmentMean", data, indices, segment_ids, name, num_segments, sparse_gradient)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """As :func:`sparse_segment_sum`, divided by the square root of each segment's count (op ``SparseSegmentSqrtN``)."""
    return _segment_reduction("SparseSegmentSqrtN", data, indices, segment_ids, name, num_segments, sparse_gradient)


def _segment_grad(op, grad):
    """TensorFlow's: an IndexedSlices from the GradV2 op with ``sparse_gradient``, else the dense Grad op."""
    data, indices, segment_ids = op.inputs
    data_shape = array_ops.shape(data)
    graph = get_default_graph()
    inputs = [grad, indices, segment_ids, math_ops.cast(data_shape[0], dtypes.int32)]
    if op._attrs.get("sparse_gradient"):
        values, unique = graph.create_op(op.type + "GradV2", inputs, name=op.type + "GradV2").outputs
        return [IndexedSlices(values, unique, data_shape), None, None]
    return [graph.create_op(op.type + "Grad", inputs, name=op.type + "Grad").outputs[0], None, None]


for _op_type in _SEGMENT_REDUCTIONS:
    register_gradient(_op_type)(_segment_grad)
