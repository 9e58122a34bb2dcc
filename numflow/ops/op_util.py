"""Helpers the op families share: dtype and rank checks and conversions in TensorFlow's words, and what is
known of a tensor at build time (its value, or the shape a shape tensor describes)."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import constant_value, get_default_graph
from numflow.framework.kernel_context import kernel_context
from numflow.framework.shapes import TensorShape, dims_text
from numflow.ops.constant_op import convert_to_tensor, is_tensor

INDEX_TYPES = (dtypes.int32, dtypes.int64)


def check_dtype(tensor, allowed, param="x"):
    """Raise TensorFlow's TypeError unless ``tensor``'s dtype is one of ``allowed``."""
    dtype = tensor.dtype.base_dtype
    if dtype not in allowed:
        names = ", ".join(d.name for d in allowed)
        raise TypeError(
            f"Value passed to parameter '{param}' has DataType {dtype.name} not in list of allowed values: "
            f"{names}"
        )


def check_input_dtype(tensor, expected, op_type, param):
    """Raise TensorFlow's TypeError unless input ``param`` of an ``op_type`` op has the one dtype it takes."""
    dtype = tensor.dtype.base_dtype
    if dtype != expected:
        raise TypeError(f"Input '{param}' of '{op_type}' Op has type {dtype.name} that does not match expected type "
                        f"of {expected.name}.")


def check_same_dtype(a, b, op_type, name_a, name_b):
    """Raise TensorFlow's TypeError when inputs ``a`` and ``b`` of one type attr differ."""
    if a.dtype._base is not b.dtype._base:  # DTypes are one object each: identity is equality
        raise TypeError(
            f"Input '{name_b}' of '{op_type}' Op has type {b.dtype.base_dtype.name} that does not match "
            f"type {a.dtype.base_dtype.name} of argument '{name_a}'."
        )


def check_list_dtypes(tensors, op_type):
    kinds = [t.dtype.base_dtype for t in tensors]
    if len(set(kinds)) > 1:
        raise TypeError(
            f"Tensors in list passed to 'values' of '{op_type}' Op have types "
            f"[{', '.join(k.name for k in kinds)}] that don't all match."
        )


def check_rank(shape, rank, at_least=False):
    """Raise TensorFlow's ValueError when ``shape`` has a known rank other than ``rank``."""
    n = shape.ndims
    if n is not None and (n < rank if at_least else n != rank):
        raise ValueError(f"Shape must be {'at least ' if at_least else ''}rank {rank} but is rank {n}")


def merge_dims(a, b, i, shape_a, shape_b):
    """Dimension ``i`` of two shapes that must agree; ValueError in TensorFlow's words when not."""
    if a is not None and b is not None and a != b:
        raise ValueError(
            f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
            f"{dims_text(shape_a)} and {dims_text(shape_b)}."
        )
    return a if a is not None else b


def _out(op_type, inputs, attrs=None, name=None):
    return get_default_graph().create_op(op_type, inputs, attrs, name=name).outputs


def _typed_operand(op_type, value, dtype, name):
    """``value`` converted to ``dtype`` (one type attr with the other operand), in TensorFlow's words when not."""
    if is_tensor(value):
        return convert_to_tensor(value, name=name)
    try:
        return convert_to_tensor(value, dtype=dtype, name=name)
    except TypeError as e:
        raise TypeError(f"Expected {dtype.name} passed to parameter '{name}' of op '{op_type}', got {value!r} of "
                        f"type '{type(value).__name__}' instead. Error: {e}") from None


# Ops whose small outputs static_value computes from static inputs by running their reference kernel,
# as TensorFlow's shape inference evaluates small constant subgraphs (``tf.shape(c)[0] * 2``).
_FOLDABLE = frozenset({
    "StridedSlice", "AddV2", "Sub", "Mul", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Neg", "ConcatV2",
    "Sum", "Prod", "Max", "Min", "Reshape", "ExpandDims", "Squeeze", "Range", "Fill", "Transpose", "Slice", "Tile",
    "GatherV2",
})
_FOLD_LIMIT = 64


def static_value(tensor):
    """``tensor``'s value as a numpy array when it is known at build time, else None."""
    value = constant_value(tensor)
    if value is not None:
        return np.asarray(value)
    op = tensor.op
    if op.type == "Pack":
        values = [static_value(t) for t in op.inputs]
        if all(v is not None for v in values):
            return np.stack(values, axis=op._attrs["axis"])
    elif op.type in ("Identity", "StopGradient"):
        return static_value(op.inputs[0])
    elif op.type == "Cast":
        value = static_value(op.inputs[0])
        return None if value is None else value.astype(op._attrs["DstT"].as_numpy_dtype)
    elif op.type in _FOLDABLE and (tensor.shape.num_elements() or _FOLD_LIMIT + 1) <= _FOLD_LIMIT:
        values = [static_value(t) for t in op.inputs]
        if all(v is not None for v in values):
            return _fold(op, values)
    return None


def _fold(op, values):
    from numflow_kernels import registry

    ctx = kernel_context(op)
    try:
        return np.asarray(registry.reference(op.type)(ctx, *values))
    except Exception:  # noqa: BLE001 - an op that would fail at run time has no static value
        return None


def shape_from_tensor(tensor):
    """The (partial) shape that the 1-D integer ``tensor`` describes, as TF's constant_value_as_shape.

    A -1 or an unknown element is an unknown dimension; ``tf.shape(x)`` gives ``x``'s static shape.
    """
    if tensor.shape.ndims != 1:
        return TensorShape(None)
    value = static_value(tensor)
    if value is not None:
        return TensorShape([_shape_dim(d) for d in value.tolist()])
    op = tensor.op
    if op.type == "Shape":
        return op.inputs[0].shape
    if op.type == "Pack" and op._attrs["axis"] == 0:
        dims = [static_value(t) for t in op.inputs]
        return TensorShape([None if d is None else _shape_dim(int(d)) for d in dims])
    if op.type == "ConcatV2":
        result = TensorShape([])
        for t in op.inputs[:-1]:
            result = result.concatenate(shape_from_tensor(t))
        return result
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        sliced = _sliced_shape(op)
        if sliced is not None:
            return sliced
    n = tensor.shape.dim_values[0]
    return TensorShape(None if n is None else [None] * n)


def _shape_dim(d):
    if d < -1:
        raise ValueError(f"Invalid value in tensor used for shape: {d}")
    return None if d == -1 else d


def _sliced_shape(op):
    """``tf.shape(x)[a:b:c]`` as a partial shape, when the slice is a plain one of constants."""
    shape = op.inputs[0].op.inputs[0].shape
    spec = [static_value(t) for t in op.inputs[1:]]
    a = op._attrs
    if shape.ndims is None or any(v is None or v.shape != (1,) for v in spec):
        return None
    if a["ellipsis_mask"] or a["new_axis_mask"] or a["shrink_axis_mask"]:
        return None
    begin = None if a["begin_mask"] & 1 else int(spec[0][0])
    end = None if a["end_mask"] & 1 else int(spec[1][0])
    return TensorShape(shape.dim_values[begin:end:int(spec[2][0])])


def shape_or_constant(x, name="Shape"):
    """``tf.shape(x)`` as TensorFlow's graph mode builds it: a constant named ``name`` when ``x``'s shape
    is fully known, else a ``Shape`` op."""
    from numflow.ops import array_ops

    if x.shape.is_fully_defined():
        return array_ops.constant(x.shape.as_list(), dtype=dtypes.int32, name=name)
    return array_ops.shape(x, name=name)
