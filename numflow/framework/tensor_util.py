"""``tf.make_tensor_proto`` and ``tf.make_ndarray``: numpy values to and from ``TensorProto`` messages,
written as TensorFlow's ``tensor_util`` writes them (raw ``tensor_content`` for a numeric tensor of
several elements given in full, else the typed ``*_val`` fields, which a reader fills out to the shape
by repeating the last value). Protobuf is imported on first use, not with numflow.

>>> import numflow as tf
>>> tf.make_ndarray(tf.make_tensor_proto([1, 2], shape=[3])).tolist()
[1, 2, 2]
"""

import math

import numpy as np


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A ``TensorProto`` holding ``values``.

    Parameters
    ----------
    values : array_like
        The values (not a Tensor).
    dtype : DType, optional
        Their type (default: inferred as ``tf.constant`` infers it).
    shape : list of int, optional
        The tensor's shape; ``values`` may hold fewer elements (the last one repeats when read).
    verify_shape : bool
        Require ``values`` to have exactly ``shape``.
    allow_broadcast : bool
        Allow a scalar or one-element ``values`` for any ``shape``, but otherwise require its size.

    Returns
    -------
    TensorProto

    Raises
    ------
    TypeError
        For a Tensor, or values whose shape ``verify_shape``/``allow_broadcast`` refuse.
    ValueError
        For more values than ``shape`` holds.
    """
    from numflow.framework.attr_values import tensor_to_proto
    from numflow.ops.constant_op import is_tensor, to_numpy
    from numflow.protos import tensor_pb2

    if isinstance(values, tensor_pb2.TensorProto):
        return values
    if is_tensor(values):
        raise TypeError("Expected any non-tensor type, but got a tensor instead.")
    shape = None if shape is None else [int(d) for d in shape]
    size = None if shape is None else math.prod(shape)
    if size == 0:  # the values are ignored, as TensorFlow ignores them
        return tensor_to_proto(np.empty(shape, to_numpy([], dtype).dtype), dtype)
    array = to_numpy(values, dtype)
    if shape is None:
        return tensor_to_proto(array, dtype)
    if allow_broadcast:
        if array.shape not in ((1,), ()) and array.size != size:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
    else:
        if verify_shape and array.shape != tuple(shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
        if array.size > size:
            raise ValueError(f"Too many elements provided. Takes at most {size}, but got {array.size}.")
    return tensor_to_proto(array, dtype, shape=shape)


def make_ndarray(tensor):
    """The numpy array a ``TensorProto`` holds (strings as an object array of bytes).

    Parameters
    ----------
    tensor : TensorProto

    Returns
    -------
    numpy.ndarray
    """
    from numflow.framework.attr_values import tensor_from_proto

    return tensor_from_proto(tensor)
