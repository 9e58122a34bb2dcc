"""Op attribute values between numflow's Python form and TensorFlow's ``AttrValue`` messages.

numflow keeps an attr as a plain value: ``str``, ``int``, ``float``, ``bool``, a
:class:`~numflow.framework.dtypes.DType`, a :class:`~numflow.framework.shapes.TensorShape`, a numpy
array (a tensor), or a list or tuple of those. A TensorFlow ``OpDef`` names each attr's type
(``"int"``, ``"list(type)"``...); without one (numflow's own ops) the type follows from the value.

Tensors are written as TensorFlow's ``make_tensor_proto`` writes them: the raw bytes in
``tensor_content`` for numeric tensors of more than one element, the typed ``*_val`` fields
otherwise, and a single value for a tensor filled with one value (:func:`splat_tensor_proto`).
"""

import math

import numpy as np

from numflow.framework import dtypes
from numflow.framework.shapes import TensorShape
from numflow.protos import attr_value_pb2, tensor_pb2, tensor_shape_pb2

# DataType numbers whose values TensorFlow writes as raw bytes when there are several of them (not
# uint16, 17: TensorFlow's ``_TENSOR_CONTENT_TYPES`` lacks it).
_CONTENT_TYPES = frozenset([1, 2, 3, 4, 5, 6, 9, 19, 22, 23])
# DataType number -> the TensorProto field holding its values one by one.
_VALUE_FIELDS = {1: "float_val", 2: "double_val", 3: "int_val", 4: "int_val", 5: "int_val", 6: "int_val",
                 17: "int_val", 9: "int64_val", 10: "bool_val", 7: "string_val", 19: "half_val",
                 22: "uint32_val", 23: "uint64_val", 8: "scomplex_val", 18: "dcomplex_val"}
_COMPLEX_TYPES = {8: np.float32, 18: np.float64}  # complex DataType -> its parts, stored interleaved
_LIST_FIELDS = ("s", "i", "f", "b", "type", "shape", "tensor")


class AttrError(ValueError):
    """An attr value that has no form on the other side (the caller names the op and attr)."""


# -- shapes -----------------------------------------------------------------------------------
def shape_to_proto(shape, proto=None):
    """A ``TensorShapeProto`` for a TensorShape (or list of dims, None for unknown)."""
    proto = proto if proto is not None else tensor_shape_pb2.TensorShapeProto()
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    if shape.ndims is None:
        proto.unknown_rank = True
        return proto
    for dim in shape.as_list():
        proto.dim.add(size=-1 if dim is None else dim)
    return proto


def shape_from_proto(proto):
    if proto.unknown_rank:
        return TensorShape(None)
    return TensorShape([None if d.size < 0 else d.size for d in proto.dim])


# -- tensors ----------------------------------------------------------------------------------
def _dtype_of(value):
    if value.dtype.kind in "SUO":
        return dtypes.string
    return dtypes.as_dtype(value.dtype)


def tensor_to_proto(value, dtype=None, proto=None, shape=None):
    """A ``TensorProto`` holding numpy ``value`` (of ``dtype``, default: the value's own), of ``shape``
    (default: the value's own; a larger one is filled out by repeating the last value when read)."""
    value = np.asarray(value)
    dtype = dtypes.as_dtype(dtype).base_dtype if dtype is not None else _dtype_of(value)
    proto = proto if proto is not None else tensor_pb2.TensorProto()
    enum = dtype.as_datatype_enum
    proto.dtype = enum
    proto.tensor_shape.SetInParent()
    shape = list(value.shape) if shape is None else list(shape)
    shape_to_proto(TensorShape(shape), proto.tensor_shape)
    if enum in _CONTENT_TYPES and value.size > 1 and value.size == math.prod(shape):
        proto.tensor_content = np.ascontiguousarray(value, dtype=dtype.as_numpy_dtype).astype(
            np.dtype(dtype.as_numpy_dtype).newbyteorder("<"), copy=False).tobytes()
        return proto
    _append_values(proto, enum, value.ravel())
    return proto


def splat_tensor_proto(scalar, dtype, shape):
    """A ``TensorProto`` of ``shape`` filled with ``scalar``: one value, as TF writes ``tf.zeros``."""
    dtype = dtypes.as_dtype(dtype).base_dtype
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum)
    proto.tensor_shape.SetInParent()
    shape_to_proto(shape, proto.tensor_shape)
    _append_values(proto, dtype.as_datatype_enum, np.asarray([scalar], dtype=dtype.as_numpy_dtype))
    return proto


def _append_values(proto, enum, flat):
    field = _VALUE_FIELDS.get(enum)
    if field is None:
        raise AttrError(f"tensors of type {dtypes.as_dtype(enum).name} have no GraphDef form in numflow")
    if enum == 19:  # float16 travels as its bits in int32s
        values = flat.astype(np.float16).view(np.uint16).astype(np.int32).tolist()
    elif enum == 7:
        values = [v if isinstance(v, bytes) else str(v).encode() for v in flat]
    elif enum in _COMPLEX_TYPES:
        values = np.ascontiguousarray(flat, np.complex64 if enum == 8 else np.complex128).view(
            _COMPLEX_TYPES[enum]).tolist()
    else:
        values = flat.tolist()
    getattr(proto, field).extend(values)


def tensor_from_proto(proto):
    """The numpy array a ``TensorProto`` holds (strings as an object array of bytes).

    Raises
    ------
    AttrError
        For an element type numflow has no dtype for, or values that do not fit the shape.
    """
    try:
        dtype = dtypes.as_dtype(proto.dtype)
    except TypeError:
        raise AttrError(f"tensors of DataType {proto.dtype} are not supported by numflow") from None
    shape = shape_from_proto(proto.tensor_shape)
    if not shape.is_fully_defined():
        raise AttrError(f"a constant tensor must have a fully defined shape, not {shape}")
    dims = tuple(shape.as_list())
    count = int(np.prod(dims, dtype=np.int64))
    np_dtype = np.dtype(dtype.as_numpy_dtype)
    if proto.tensor_content:
        if dtype is dtypes.string:
            raise AttrError("a string tensor cannot hold tensor_content")
        if len(proto.tensor_content) != count * np_dtype.itemsize:
            raise AttrError(f"tensor_content holds {len(proto.tensor_content)} bytes, not the "
                            f"{count * np_dtype.itemsize} of a {dtype.name} tensor of shape {list(dims)}")
        return np.frombuffer(proto.tensor_content, dtype=np_dtype.newbyteorder("<")).astype(np_dtype).reshape(dims)
    values = getattr(proto, _VALUE_FIELDS[dtype.as_datatype_enum])
    if dtype is dtypes.string:
        flat = np.empty(len(values), dtype=object)
        flat[:] = list(values)
    elif dtype is dtypes.float16:
        flat = np.asarray(values, dtype=np.int32).astype(np.uint16).view(np.float16)
    elif dtype.is_complex:
        parts = np.asarray(values, dtype=_COMPLEX_TYPES[dtype.as_datatype_enum])
        if len(parts) % 2:
            raise AttrError(f"a {dtype.name} tensor holds an odd number ({len(parts)}) of real and imaginary parts")
        flat = parts.view(np_dtype)
    else:
        flat = np.asarray(values, dtype=np_dtype)
    if len(flat) > count:
        raise AttrError(f"a {dtype.name} tensor of shape {list(dims)} holds {len(flat)} values")
    if len(flat) == count:
        return flat.reshape(dims)
    # Fewer values than elements: the last one repeats (none: zeros), as TF reads them.
    fill = flat[-1] if len(flat) else (b"" if dtype is dtypes.string else 0)
    out = np.empty(count, dtype=np_dtype) if dtype is dtypes.string else np.full(count, fill, dtype=np_dtype)
    if dtype is dtypes.string:
        out[:] = fill
    out[:len(flat)] = flat
    return out.reshape(dims)


# -- attr values ------------------------------------------------------------------------------
def _set_scalar(attr, kind, value):
    if kind == "string":
        attr.s = value if isinstance(value, bytes) else str(value).encode()
    elif kind == "int":
        attr.i = int(value)
    elif kind == "float":
        attr.f = float(value)
    elif kind == "bool":
        attr.b = bool(value)
    elif kind == "type":
        attr.type = dtypes.as_dtype(value).base_dtype.as_datatype_enum
    elif kind == "shape":
        attr.shape.SetInParent()
        shape_to_proto(value, attr.shape)
    elif kind == "tensor":
        if isinstance(value, tensor_pb2.TensorProto):
            attr.tensor.CopyFrom(value)
        else:
            tensor_to_proto(value, proto=attr.tensor)
    elif kind == "func" and isinstance(value, str):
        attr.func.name = value  # a function of the GraphDef's library, by name
    else:
        raise AttrError(f"attrs of type {kind} are not supported")


def _append_list(lst, kind, values):
    if kind == "string":
        lst.s.extend(v if isinstance(v, bytes) else str(v).encode() for v in values)
    elif kind == "int":
        lst.i.extend(int(v) for v in values)
    elif kind == "float":
        lst.f.extend(float(v) for v in values)
    elif kind == "bool":
        lst.b.extend(bool(v) for v in values)
    elif kind == "type":
        lst.type.extend(dtypes.as_dtype(v).base_dtype.as_datatype_enum for v in values)
    elif kind == "shape":
        for v in values:
            shape_to_proto(v, lst.shape.add())
    elif kind == "tensor":
        for v in values:
            tensor_to_proto(v, proto=lst.tensor.add())
    elif kind == "func" and all(isinstance(v, str) for v in values):
        for v in values:
            lst.func.add(name=v)
    else:
        raise AttrError(f"attrs of type list({kind}) are not supported")


def kind_of(value):
    """The OpDef attr type of a numflow attr value (``"int"``, ``"list(type)"``...)."""
    if isinstance(value, list | tuple):
        inner = {kind_of(v) for v in value}
        if len(inner) > 1:
            raise AttrError(f"a list attr mixes {sorted(inner)}")
        return f"list({inner.pop() if inner else 'int'})"
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "float"
    if isinstance(value, str | bytes):
        return "string"
    if isinstance(value, dtypes.DType):
        return "type"
    if isinstance(value, TensorShape):
        return "shape"
    if isinstance(value, np.ndarray):
        return "tensor"
    raise AttrError(f"a {type(value).__name__} has no AttrValue form")


def to_attr_value(value, kind=None, attr=None):
    """Fill ``attr`` (a new ``AttrValue`` by default) with ``value`` as OpDef attr type ``kind``."""
    attr = attr if attr is not None else attr_value_pb2.AttrValue()
    kind = kind or kind_of(value)
    if kind.startswith("list("):
        attr.list.SetInParent()
        _append_list(attr.list, kind[5:-1], value)
    else:
        _set_scalar(attr, kind, value)
    return attr


def _text(raw):
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def _scalar_from(kind, value):
    if kind == "s":
        return _text(value)
    if kind == "type":
        return dtypes.as_dtype(value)
    if kind == "shape":
        return shape_from_proto(value)
    if kind == "tensor":
        return tensor_from_proto(value)
    return value


def from_attr_value(attr):
    """numflow's value of an ``AttrValue`` (strings as str where they are UTF-8, lists as lists).

    A function is its name (a ``str``), which names a function of the GraphDef's library.

    Raises
    ------
    AttrError
        For placeholders, and types numflow has no dtype for.
    """
    kind = attr.WhichOneof("value")
    if kind is None:
        raise AttrError("the AttrValue is empty")
    if kind == "placeholder":
        raise AttrError("attrs holding a placeholder are not supported")
    if kind == "func":
        return attr.func.name
    try:
        if kind == "list":
            lst = attr.list
            for field in _LIST_FIELDS:
                values = getattr(lst, field)
                if len(values):
                    return [_scalar_from(field, v) for v in values]
            if len(lst.func):
                return [f.name for f in lst.func]
            return []
        return _scalar_from(kind, getattr(attr, kind))
    except TypeError as exc:
        raise AttrError(str(exc)) from None
