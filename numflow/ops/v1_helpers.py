"""TensorFlow 1's top-level helpers built from other ops: ``hessians``, ``add_check_numerics_ops``,
``op_scope``, ``no_regularizer`` and the conversions that let IndexedSlices and SparseTensors through.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from numflow.framework.sparse_tensor import SparseTensor, SparseTensorValue
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.sequence_ops import size


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """The Hessian of ``sum(ys)`` for each tensor of ``xs``, shaped ``x.shape + x.shape``, built as
    TensorFlow builds it (in the caller's name scope; ``name`` goes unused there too): a while loop over
    the elements of the flattened gradient, each iteration writing the gradient of one element into a
    TensorArray."""
    from numflow.ops import array_ops
    from numflow.ops.gradients import gradients
    from numflow.ops.tensor_array_ops import TensorArray
    from numflow.ops.while_loop import while_loop

    del name, colocate_gradients_with_ops, gate_gradients, aggregation_method
    xs = list(xs) if isinstance(xs, list | tuple) else [xs]
    found = []
    for gradient, x in zip(gradients(ys, xs), xs):
        gradient = array_ops.reshape(gradient, [-1])
        n = size(x)

        def body(j, result, gradient=gradient, x=x):
            return j + 1, result.write(j, gradients(gradient[j], x)[0])

        _, matrix = while_loop(lambda j, _, n=n: j < n, body, [constant(0, dtypes.int32), TensorArray(x.dtype, n)])
        shape = array_ops.shape(x)
        found.append(array_ops.reshape(matrix.stack(), array_ops.concat((shape, shape), 0)))
    return found


def add_check_numerics_ops():
    """A ``check_numerics`` on every float16/32/64 output of the default graph's ops, each after the one
    before, and a group of the last: running it fails on the first NaN or Inf, naming its op and output.
    ValueError for such an output in a cond or while loop, as TensorFlow's."""
    from numflow.ops import check_ops, control_flow_ops

    graph = get_default_graph()
    last = []
    for op in graph.get_operations():
        for output in op.outputs:
            if output.dtype.base_dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
                if op._control_flow_context is not None:
                    raise ValueError("`tf.add_check_numerics_ops() is not compatible with TensorFlow control flow "
                                     "operations such as `tf.cond()` or `tf.while_loop()`.")
                with graph.control_dependencies(last):
                    last = [check_ops.check_numerics(output, message=f"{op.name}:{output.value_index}")]
    return control_flow_ops.group(*last)


def op_scope(values, name, default_name=None):
    """The deprecated spelling of ``name_scope(name, default_name, values)``."""
    from numflow.framework.collections_api import name_scope

    return name_scope(name, default_name, values)


def no_regularizer(_):
    """The regularizer that adds no loss (``get_variable(regularizer=tf.no_regularizer)`` overrides a scope's)."""
    return None


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """``value`` as it is when an IndexedSlices, else ``convert_to_tensor``."""
    if isinstance(value, IndexedSlicesValue):
        value = IndexedSlices(convert_to_tensor(value.values), convert_to_tensor(value.indices),
                              None if value.dense_shape is None else convert_to_tensor(value.dense_shape))
    if isinstance(value, IndexedSlices):
        if dtype is not None and value.dtype.base_dtype != dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for IndexedSlices with dtype "
                             f"{value.dtype.name}: {value}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """``value`` as it is when a SparseTensor (a SparseTensorValue made one), else ``convert_to_tensor``."""
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype is not None and value.dtype.base_dtype != dtype:
            raise RuntimeError(f"Sparse dtype mismatch. Requested: {dtype.name},  Actual: {value.dtype.name}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)
