"""Constants and tensor conversion: how Python values become tensors, with TensorFlow's dtype rules."""

import math
import numbers

import numpy as np

from numflow.framework import dtypes, errors
from numflow.framework.graph import Tensor, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import Dimension, TensorShape, dimension_values


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
        return _int_dtype(value, value)
    if isinstance(value, numbers.Real):
        return dtypes.float32
    if isinstance(value, numbers.Complex):
        return dtypes.complex128
    if isinstance(value, str | bytes):
        return dtypes.string
    if type(value) is Dimension:
        raise _DimensionWithoutDtype
    if isinstance(value, list | tuple):
        if not value:
            return dtypes.float32
        kinds = [_infer_dtype(v) for v in value]
        if any(k == dtypes.string for k in kinds):
            return dtypes.string
        if any(k.is_complex for k in kinds):
            return max((k for k in kinds if k.is_complex), key=lambda d: d.size)
        if any(k.is_floating for k in kinds):
            return max((k for k in kinds if k.is_floating), key=lambda d: d.size)
        if any(k in (dtypes.int64, dtypes.uint64) for k in kinds):
            ints = list(python_ints(value))
            return _int_dtype(min(ints), max(ints), value)
        return kinds[0]
    raise _Unconvertible


class _DimensionWithoutDtype(TypeError):
    """A Dimension in a value converted without a dtype: TensorFlow refuses it (the caller says which value)."""


class _Unconvertible(TypeError):
    """A value of no dtype TensorFlow knows, in a value converted without a dtype (the caller says which value)."""


def _int_dtype(low, high, value=None):
    """TensorFlow's dtype for Python integers from ``low`` to ``high``: int32, else int64, else uint64."""
    for dtype in (dtypes.int32, dtypes.int64, dtypes.uint64):
        if dtype.min <= low and high <= dtype.max:
            return dtype
    raise TypeError(f"Failed to convert elements of {value if value is not None else high} to Tensor: an "
                    "integer outside the range of int64 and uint64. Consider casting elements to a supported type.")


def python_ints(value):
    """The Python (or numpy scalar) integers in ``value``, a number or nested lists and tuples of them, and
    the sizes of the known Dimensions in it."""
    if isinstance(value, list | tuple):
        for v in value:
            yield from python_ints(v)
    elif isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_):
        yield int(value)
    elif type(value) is Dimension and value.value is not None:
        yield value.value


def ints_fit(value, dtype):
    """Whether ``value`` converts to the integer ``dtype`` exactly: every integer in it within the
    dtype's range (a numpy array must hold integers too). True for any value when ``dtype`` is no integer."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_integer:
        return True
    if isinstance(value, np.ndarray | np.generic):
        if value.dtype.kind not in "iu":
            return False
        return value.size == 0 or dtype.min <= int(value.min()) and int(value.max()) <= dtype.max
    return all(dtype.min <= v <= dtype.max for v in python_ints(value))


def index_dtype(value):
    """int32 when every integer of ``value`` fits it, else int64: TensorFlow's rule for shapes and
    indices ("int64 if needed"), so that no dimension or index ever wraps around."""
    return dtypes.int32 if ints_fit(value, dtypes.int32) else dtypes.int64


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
        if type(v) is Dimension and dtype.is_integer:
            int(v)  # TypeError for an unknown Dimension
            continue
        if dtype.is_integer:
            ok = isinstance(v, numbers.Integral)
        elif dtype.is_floating:
            ok = isinstance(v, numbers.Real)
        elif dtype.is_complex:
            ok = isinstance(v, numbers.Complex)
        elif dtype == dtypes.bool:
            ok = isinstance(v, bool | np.bool_)
        elif dtype == dtypes.string:
            ok = isinstance(v, str | bytes)
        if not ok:
            raise TypeError(f"Expected {dtype.name}, but got {v} of type '{type(v).__name__}'.")


def to_numpy(value, dtype=None):
    """``value`` as a numpy array of ``dtype`` (inferred as TF does when None)."""
    if value is None:  # a branch or a helper that returned nothing, say
        raise ValueError("None values not supported.")
    if dtype is None:
        try:
            dtype = _infer_dtype(value)
        except _DimensionWithoutDtype:
            raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a "
                            "supported type (a Dimension converts to an integer dtype only).") from None
        except _Unconvertible:
            raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a "
                            "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                            "TF dtypes.") from None
    else:
        dtype = dtypes.as_dtype(dtype)
        if not isinstance(value, np.ndarray | np.generic):
            _check_convertible(value, dtype)
    if dtype == dtypes.string:
        arr = np.asarray(value, dtype=object)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else bytes(s), otypes=[object])(arr) \
            if arr.size else arr
    arr = np.asarray(value)
    if arr.dtype == object and dtype.is_integer:  # Dimensions in a list, known ones (checked above)
        arr = np.asarray(dimension_values(value))
    if arr.dtype.kind in "SUO":
        raise TypeError(f"Expected {dtype.name}, but got {value} of type '{type(value).__name__}'.")
    np_dtype = dtype.as_numpy_dtype
    if arr.dtype != np_dtype:
        # As TensorFlow: numpy values are cast, and Python integers wrap around the type's range.
        with np.errstate(over="ignore", invalid="ignore"):
            arr = arr.astype(np_dtype)
    return arr


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """A tensor holding ``value``, of ``shape`` when given: TensorFlow 1's rules fill a shape larger
    than the value with copies of its last element (zeros for an empty value).

    >>> import numflow as tf
    >>> tf.Session().run(tf.constant([1, 2], shape=[2, 2])).tolist()
    [[1, 2], [2, 2]]

    Raises
    ------
    ValueError
        When ``value`` has more elements than ``shape`` holds.
    TypeError
        When ``verify_shape`` is set and ``value``'s shape is not ``shape``.
    ResourceExhaustedError
        When the value of ``shape`` does not fit in memory.
    """
    arr = to_numpy(value, dtype)
    if shape is not None:
        shape = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else np.atleast_1d(shape))] \
            if not (isinstance(shape, list | tuple) and len(shape) == 0) else []
        arr = _shaped(arr, shape, verify_shape)
    arr = np.ascontiguousarray(arr) if arr.ndim else arr.copy()
    arr.flags.writeable = False
    graph = get_default_graph()
    op = graph.create_op("Const", [], {"value": arr, "dtype": dtypes.as_dtype(arr.dtype if arr.dtype != object
                                                                                  else "string")}, name=name)
    return op.outputs[0]


def _shaped(arr, shape, verify_shape):
    """``arr`` reshaped to ``shape``, or filled out to it with copies of its last element."""
    size = math.prod(shape)
    if size == 0:
        return np.empty(shape, dtype=arr.dtype)
    if verify_shape and list(arr.shape) != shape:
        raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {arr.shape}.")
    if arr.size > size:
        raise ValueError(f"Too many elements provided. Takes at most {size}, but got {arr.size}.")
    if arr.size == size:
        return arr.reshape(shape)
    try:
        out = np.empty(size, dtype=arr.dtype)
    except (MemoryError, ValueError) as e:
        if not errors.is_out_of_memory(e):
            raise
        raise errors.ResourceExhaustedError(
            None, None, f"OOM when allocating tensor with shape{shape} and type {arr.dtype.name} for a constant: {e}"
        ) from None
    flat = arr.reshape(-1)
    out[:flat.size] = flat
    out[flat.size:] = flat[-1] if flat.size else b"" if arr.dtype == object else np.zeros((), arr.dtype)
    return out.reshape(shape)


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None):
    """``value`` as a Tensor: tensors pass through; variables give their value; Python values become constants.

    ``preferred_dtype`` is used when ``value`` converts to it: a Python integer outside its range
    (an axis or dimension of ``2**40`` for int32) takes the inferred dtype instead.

    Raises
    ------
    ValueError
        When ``value`` is a tensor of another dtype than ``dtype`` (TensorFlow's message).
    TypeError
        When a Python value cannot be represented in ``dtype`` (``Expected int32, got 1.5 ...``).
    """
    preferred_dtype = preferred_dtype or dtype_hint
    if preferred_dtype is not None and not ints_fit(value, preferred_dtype):
        preferred_dtype = None  # as a failed conversion: TF's inference gives int64 (never a wrapped int32)
    if isinstance(value, Tensor):
        tensor = value
    elif type(value) is Dimension or isinstance(value, TensorShape):
        return _shape_as_tensor(value, dtype or _int_or_none(preferred_dtype), name)
    elif hasattr(value, "_as_tensor"):
        tensor = value._as_tensor(dtype)
    elif hasattr(value, "_as_graph_element") and isinstance(value._as_graph_element(), Tensor):
        tensor = value._as_graph_element()
    elif isinstance(value, list | tuple) and _holds_tensor(value):
        if dtype is not None and dtypes.as_dtype(dtype) != _first_tensor_dtype(value):
            value = _cast_tensors(value, dtypes.as_dtype(dtype))
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


def _int_or_none(dtype):
    return dtype if dtype is not None and dtypes.as_dtype(dtype) in (dtypes.int32, dtypes.int64) else None


def _shape_as_tensor(value, dtype, name):
    """A Dimension or TensorShape as an int32 tensor (int64 when a size needs it), as TensorFlow converts them."""
    if type(value) is Dimension:
        what, sizes = "Dimension", value.value
        if sizes is None:
            raise ValueError(f"Cannot convert unknown Dimension {value} to a Tensor.")
    else:
        what = "TensorShape"
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
        sizes = value.as_list()
    if dtype is None:
        dtype = index_dtype(sizes)
    elif dtypes.as_dtype(dtype) not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Cannot convert {what} {value} to dtype <dtype: '{dtypes.as_dtype(dtype).name}'>. Allowed "
                        "dtypes are tf.int32 and tf.int64.")
    elif not ints_fit(sizes, dtype):
        raise ValueError(f"Cannot convert {what} {value} to dtype int32; a dimension is too large. Consider using "
                         "tf.int64.")
    return constant(sizes, dtype=dtype, name=name or "shape_as_tensor")


def _holds_tensor(value):
    return any(is_tensor(v) or isinstance(v, list | tuple) and _holds_tensor(v) for v in value)


def _autopack(values, dtype, name):
    """A list holding tensors, as one tensor stacked from its elements (TensorFlow's autopacking)."""
    from numflow.ops.array_ops import stack

    if dtype is None:
        dtype = _first_tensor_dtype(values)
    with get_default_graph().name_scope(name) as scope:  # as TF: packed/1 (a constant), packed (the Pack)
        elements = [
            v if is_tensor(v) else _autopack(v, dtype, str(i)) if isinstance(v, list | tuple) and _holds_tensor(v)
            else convert_to_tensor(v, dtype=dtype, name=str(i))
            for i, v in enumerate(values)
        ]
        return stack(elements, name=scope)


def _cast_tensors(values, dtype):
    """``values`` with each tensor in them cast to ``dtype`` (as TensorFlow does before packing to another
    dtype)."""
    from numflow.ops.math_ops import cast

    return [_cast_tensors(v, dtype) if isinstance(v, list | tuple)
            else cast(v, dtype) if is_tensor(v) and convert_to_tensor(v).dtype.base_dtype != dtype else v
            for v in values]


def _first_tensor_dtype(values):
    for v in values:
        if is_tensor(v):
            return convert_to_tensor(v).dtype.base_dtype
        if isinstance(v, list | tuple) and _holds_tensor(v):
            return _first_tensor_dtype(v)
    return None


def is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")
