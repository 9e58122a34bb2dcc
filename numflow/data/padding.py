"""``padded_batch``'s inputs: the padded shape and the padding value of each component, as
TensorFlow's ``PaddedBatchDatasetV2`` takes them (an int64 vector with -1 for "the batch's largest",
and a scalar of the component's dtype)."""

from numflow.data import structure
from numflow.data.structure import Spec
from numflow.framework import dtypes
from numflow.framework.graph import Tensor
from numflow.framework.shapes import TensorShape, as_shape
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.op_util import shape_from_tensor


def padded_batch_inputs(specs, padded_shapes, padding_values):
    """``(shape tensors, value tensors, padded specs)`` for the elements ``specs``.

    Raises
    ------
    ValueError
        A padded shape of another rank than its component, or smaller where the component's size is
        known; a component of unknown rank with no padded shape.
    """
    flat = structure.flatten(specs)
    if padded_shapes is None:
        shapes = [s.shape for s in flat]
        if any(s.ndims is None for s in shapes):
            raise ValueError("You must provide `padded_shapes` argument because component has unknown rank.")
    else:
        shapes = [_padded_shape(s) for s in structure.flatten_up_to(specs, padded_shapes, "padded_shapes")]
    shape_tensors = [s if isinstance(s, Tensor) else constant([-1 if d is None else d for d in s.as_list()],
                                                              dtypes.int64) for s in shapes]
    shapes = [shape_from_tensor(s) if isinstance(s, Tensor) else s for s in shapes]
    for spec, shape in zip(flat, shapes):
        if not shape.is_compatible_with(spec.shape) and not _pads(shape, spec.shape):
            raise ValueError(f"The padded shape {shape} is not compatible with the shape {spec.shape} of the "
                             "corresponding input component.")
    if padding_values is None:
        values = [b"" if s.dtype == dtypes.string else 0 for s in flat]
    else:
        values = structure.flatten_up_to(specs, padding_values, "padding_values")
    value_tensors = [convert_to_tensor(v, dtype=s.dtype, name="padding_value") for v, s in zip(values, flat)]
    padded = [Spec(s.dtype, TensorShape(shape.as_list())) for s, shape in zip(flat, shapes)]
    return shape_tensors, value_tensors, structure.pack(specs, padded)


def _padded_shape(shape):
    """A padded shape as a TensorShape, or as an int64 vector where it holds tensors (a size
    computed in the graph, unknown to the static shape)."""
    try:
        return as_shape(shape)
    except (TypeError, ValueError):
        tensor = convert_to_tensor(shape, dtype=dtypes.int64)
        if tensor.shape.ndims not in (None, 1):
            raise ValueError(f"Padded shape {shape} must be a `tf.int64` vector tensor, but its shape was "
                             f"{tensor.shape}.") from None
        return tensor


def _pads(padded, shape):
    """Whether ``padded`` is as large as ``shape`` in each known dimension, of the same rank."""
    if shape.ndims is None:
        return True
    if padded.ndims != shape.ndims:
        return False
    return all(p is None or s is None or p >= s for p, s in zip(padded.as_list(), shape.as_list()))
