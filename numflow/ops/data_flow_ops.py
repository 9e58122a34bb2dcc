"""dynamic_partition (op ``DynamicPartition``) and dynamic_stitch (``DynamicStitch``, and
``ParallelDynamicStitch``, which partitioned embedding lookups use), with TensorFlow's shapes and
gradients. Kernels: ``numflow_kernels/reference_partition.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.indexed_slices import IndexedSlices
from numflow.framework.registry import declare, register_gradient
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_list_dtypes, static_value


def _check_int32(tensor, op_type, name):
    if tensor.dtype.base_dtype != dtypes.int32:
        raise TypeError(f"Input '{name}' of '{op_type}' Op has type {tensor.dtype.base_dtype.name} that does not match "
                        "expected type of int32.")


def _suffix(data, prefix, what):
    """``data``'s shape after the dimensions of ``prefix`` (which it must start with), else None (unknown)."""
    if prefix.ndims is None:
        return None
    if data.ndims is None:
        return TensorShape(None)
    if data.ndims < prefix.ndims:
        raise ValueError(f"Shape must be at least rank {prefix.ndims} but is rank {data.ndims}")
    for i, (a, b) in enumerate(zip(data.dim_values, prefix.dim_values)):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"{data} and {prefix} ({what}).")
    return TensorShape(data.dim_values[prefix.ndims:])


@declare("DynamicPartition")
def _dynamic_partition_infer(op):
    data, partitions = op.inputs
    _check_int32(partitions, "DynamicPartition", "partitions")
    rest = _suffix(data.shape, partitions.shape, "data and partitions")
    shape = TensorShape(None) if rest is None else TensorShape([None]).concatenate(rest)
    return [(data.dtype, shape)] * op._attrs["num_partitions"]


def dynamic_partition(data, partitions, num_partitions, name=None):
    """``data`` split into ``num_partitions`` tensors: output i holds, in order, the slices of ``data`` where
    ``partitions`` (int32, of a prefix of ``data``'s shape) is i."""
    if int(num_partitions) < 1:
        raise ValueError(f"Attr 'num_partitions' of value {int(num_partitions)} must be at least minimum 1")
    with get_default_graph().name_scope(name or "DynamicPartition") as scope:
        data = convert_to_tensor(data, name="data")
        partitions = convert_to_tensor(partitions, name="partitions", preferred_dtype=dtypes.int32)
        return _out("DynamicPartition", [data, partitions], {"num_partitions": int(num_partitions)}, name=scope)


def _stitch_infer(op):
    n = op._attrs["N"]
    indices, data = op.inputs[:n], op.inputs[n:]
    check_list_dtypes(data, op.type)
    for t in indices:
        _check_int32(t, op.type, "indices")
    rest, largest, constant = TensorShape(None), -1, True
    for i, d in zip(indices, data):
        value = static_value(i)
        constant = constant and value is not None
        if value is not None and value.size:
            largest = max(largest, int(value.max()))
        suffix = _suffix(d.shape, i.shape, "data and indices")
        if suffix is not None:
            if not rest.is_compatible_with(suffix):
                raise ValueError(f"Shapes {rest} and {suffix} are not compatible")
            rest = rest.merge_with(suffix)
    return [(data[0].dtype, TensorShape([largest + 1 if constant else None]).concatenate(rest))]


declare("DynamicStitch")(_stitch_infer)
declare("ParallelDynamicStitch")(_stitch_infer)


def _stitch(op_type, indices, data, name):
    if len(indices) != len(data) or not indices:
        raise ValueError(f"List argument 'indices' to '{op_type}' Op with length {len(indices)} must match length "
                         f"{len(data)} of argument 'data'.")
    with get_default_graph().name_scope(name or op_type) as scope:
        indices = [convert_to_tensor(t, name=f"indices_{k}", preferred_dtype=dtypes.int32)
                   for k, t in enumerate(indices)]
        data = [convert_to_tensor(t, name=f"data_{k}") for k, t in enumerate(data)]
        return _out(op_type, indices + data, {"N": len(indices)}, name=scope)[0]


def dynamic_stitch(indices, data, name=None):
    """``merged[indices[m][i]] = data[m][i]`` over every list element m (later ones win a repeated index);
    ``merged`` has ``max(indices) + 1`` rows."""
    return _stitch("DynamicStitch", list(indices), list(data), name)


def parallel_dynamic_stitch(indices, data, name=None):
    """:func:`dynamic_stitch` where a repeated index may take any of its values (op ``ParallelDynamicStitch``)."""
    return _stitch("ParallelDynamicStitch", list(indices), list(data), name)


@register_gradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
    data, partitions = op.inputs
    prefix = array_ops.shape(partitions)
    original = array_ops.reshape(math_ops.range(math_ops.reduce_prod(prefix)), prefix)
    pieces = dynamic_partition(original, partitions, op._attrs["num_partitions"])
    stitched = parallel_dynamic_stitch(pieces, grads)
    return [array_ops.reshape(stitched, array_ops.shape(data)), None]


def _stitch_grad(op, grad):
    n = op._attrs["N"]
    if isinstance(grad, IndexedSlices):
        rows = array_ops.shape(op.outputs[0])[0]
        grad = math_ops.unsorted_segment_sum(grad.values, grad.indices, rows)
    return [None] * n + [array_ops.gather(grad, i) for i in op.inputs[:n]]


_stitch_grad.takes_indexed_slices = True
register_gradient("DynamicStitch")(_stitch_grad)
register_gradient("ParallelDynamicStitch")(_stitch_grad)
