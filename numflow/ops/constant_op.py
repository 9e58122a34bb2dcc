"""Constants and tensor conversion: how Python values become tensors, with TensorFlow's dtype rules."""

import numbers

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.shapes import TensorShape
from numflow.ops.registry import declare


@declare("Const")
def _const_infer(op):
    value = op._attrs["value"]
    return [(op._attrs["dtype"], TensorShape(value.shape))]


def _infer_dtype(value):
    """TensorFlow's default dtype for a Python or numpy value (float32, int32, bool, string...)."""
    if isinstance(value, np.ndarray | np.generic):
        if value.dtype.kind in "SUO":
            return dtypes.string
        return dtypes.as_dtype(value.dtype)
    if isinstance(value, bool | np.bool_):
        return dtypes.bool
    if isinstance(value, numbers.Integral):
        return dtypes.int32 if -(2**31) <= value < 2**31 else dtypes.int64
    if isinstance(value, numbers.Real):
        return dtypes.float32
    if isinstance(value, str | bytes):
        return dtypes.string
    if isinstance(value, list | tuple):
        if not value:
            return dtypes.float32
        kinds = [_infer_dtype(v) for v in value]
        if any(k == dtypes.string for k in kinds):
            return dtypes.string
        if any(k.is_floating for k in kinds):
            return max((k for k in kinds if k.is_floating), key=lambda d: d.size)
        if any(k == dtypes.int64 for k in kinds):
            return dtypes.int64
        return kinds[0]
    raise TypeError(f"Failed to convert object of type {type(value)} to Tensor. Contents: {value!r}.")


def _check_convertible(value, dtype):
    """Raise TF's TypeError when Python ``value`` cannot become ``dtype`` without losing information."""
    flat = value if isinstance(value, list | tuple) else [value]
    for v in flat:
        if isinstance(v, list | tuple):
            _check_convertible(v, dtype)
            continue
        ok = True
        if isinstance(v, np.ndarray | np.generic):
            continue
        if dtype.is_integer:
            ok = isinstance(v, numbers.Integral)
        elif dtype.is_floating:
            ok = isinstance(v, numbers.Real)
        elif dtype == dtypes.bool:
            ok = isinstance(v, bool | np.bool_)
        elif dtype == dtypes.string:
            ok = isinstance(v, str | bytes)
        if not ok:
            raise TypeError(f"Expected {dtype.name}, but got {v} of type '{type(v).__name__}'.")


def to_numpy(value, dtype=None):
    """``value`` as a numpy array of ``dtype`` (inferred as TF does when None)."""
    if dtype is None:
        dtype = _infer_dtype(value)
    else:
        dtype = dtypes.as_dtype(dtype)
        if not isinstance(value, np.ndarray | np.generic):
            _check_convertible(value, dtype)
    if dtype == dtypes.string:
        arr = np.asarray(value, dtype=object)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else bytes(s), otypes=[object])(arr) \
            if arr.size else arr
    arr = np.asarray(value)
    if arr.dtype.kind in "SUO":
        raise TypeError(f"Expected {dtype.name}, but got {value} of type '{type(value).__name__}'.")
    np_dtype = dtype.as_numpy_dtype
    if arr.dtype != np_dtype:
        # As TensorFlow: numpy values are cast, and Python integers wrap around the type's range.
        with np.errstate(over="ignore", invalid="ignore"):
            arr = arr.astype(np_dtype)
    return arr


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """A tensor holding ``value`` (broadcast or reshaped to ``shape`` when given)."""
    arr = to_numpy(value, dtype)
    if shape is not None:
        shape = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else np.atleast_1d(shape))] \
            if not (isinstance(shape, list | tuple) and len(shape) == 0) else []
        if arr.size == 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {arr.shape}.")
        elif arr.size == int(np.prod(shape)):
            arr = arr.reshape(shape)
        else:
            raise TypeError(
                f"Eager execution of tf.constant with unsupported shape. Tensor {value!r} (converted from "
                f"{value!r}) has {arr.size} elements, but got `shape` {tuple(shape)} with "
                f"{int(np.prod(shape))} elements)."
            )
    arr = np.ascontiguousarray(arr) if arr.ndim else arr.copy()
    arr.flags.writeable = False
    graph = get_default_graph()
    op = graph.create_op("Const", [], {"value": arr, "dtype": dtypes.as_dtype(arr.dtype if arr.dtype != object
                                                                                  else "string")}, name=name)
    return op.outputs[0]


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """``value`` as a Tensor: tensors pass through; variables give their value; Python values become constants.

    Raises
    ------
    ValueError
        When ``value`` is a tensor of another dtype than ``dtype`` (TensorFlow's message).
    TypeError
        When a Python value cannot be represented in ``dtype`` (``Expected int32, got 1.5 ...``).
    """
    preferred_dtype = preferred_dtype or dtype_hint
    if isinstance(value, Tensor):
        tensor = value
    elif hasattr(value, "_as_tensor"):
        tensor = value._as_tensor(dtype)
    elif hasattr(value, "_as_graph_element") and isinstance(value._as_graph_element(), Tensor):
        tensor = value._as_graph_element()
    elif isinstance(value, list | tuple) and _holds_tensor(value):
        tensor = _autopack(value, dtype, name or "packed")
    else:
        if dtype is None and preferred_dtype is not None:
            try:
                return constant(value, dtype=preferred_dtype, name=name or "Const")
            except (TypeError, ValueError):
                pass
        return constant(value, dtype=dtype, name=name or "Const")
    if dtype is not None and tensor.dtype != dtypes.as_dtype(dtype):
        raise ValueError(
            f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with dtype "
            f"{tensor.dtype.name}: {tensor!r}"
        )
    return tensor


def _holds_tensor(value):
    return any(is_tensor(v) or isinstance(v, list | tuple) and _holds_tensor(v) for v in value)


def _autopack(values, dtype, name):
    """A list holding tensors, as one tensor stacked from its elements (TensorFlow's autopacking)."""
    from numflow.ops.array_ops import stack

    if dtype is None:
        dtype = _first_tensor_dtype(values)
    elements = [
        _autopack(v, dtype, "packed") if isinstance(v, list | tuple) and _holds_tensor(v)
        else convert_to_tensor(v, dtype=dtype)
        for v in values
    ]
    return stack(elements, name=name)


def _first_tensor_dtype(values):
    for v in values:
        if is_tensor(v):
            return convert_to_tensor(v).dtype.base_dtype
        if isinstance(v, list | tuple) and _holds_tensor(v):
            return _first_tensor_dtype(v)
    return None


def is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")
