"""Element types: TensorFlow's DType objects, each backed by a numpy dtype."""

import numpy as np


class DType:
    """An element type such as ``float32``.

    >>> float32.name, float32.as_numpy_dtype is np.float32
    ('float32', True)
    >>> as_dtype("int64") is int64
    True
    """

    __slots__ = ("_name", "_np", "_enum", "_base", "_ref", "_kind")

    def __init__(self, name, np_type, enum, base=None):
        self._name = name
        self._np = np_type
        self._enum = enum
        self._base = base or self
        self._kind = np.dtype(np_type).kind  # "f", "i", "u", "b", "O": asked on every op built
        self._ref = None if base else DType(f"{name}_ref", np_type, enum + 100, base=self)

    name = property(lambda self: self._name)
    as_numpy_dtype = property(lambda self: self._np)
    as_datatype_enum = property(lambda self: self._enum, doc="TensorFlow's DataType number.")
    base_dtype = property(lambda self: self._base, doc="The dtype itself, or what a reference dtype refers to.")

    @property
    def real_dtype(self):
        """The dtype of a complex dtype's parts (float32 for complex64), else the dtype itself."""
        return _REAL_PARTS.get(self._base, self._base)
    _is_ref_dtype = property(lambda self: self._base is not self)
    _as_ref = property(lambda self: self._base._ref, doc="The reference dtype of a variable's tensor.")

    @property
    def is_floating(self):
        return self._kind == "f"

    @property
    def is_integer(self):
        return self._kind in "iu"

    @property
    def is_unsigned(self):
        return self._kind == "u"

    @property
    def is_complex(self):
        return self._kind == "c"

    @property
    def is_bool(self):
        return self._np is np.bool_

    @property
    def is_numeric(self):
        return self.is_floating or self.is_integer or self.is_complex

    @property
    def size(self):
        return np.dtype(self._np).itemsize if self._np is not np.object_ else 1

    @property
    def min(self):
        self._check_ordered("minimum")
        return np.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self):
        self._check_ordered("maximum")
        return np.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    def _check_ordered(self, what):
        if self._kind not in "fiu":
            raise TypeError(f"Cannot find {what} value of {self} with type {self}.")

    def is_compatible_with(self, other):
        return self is as_dtype(other)

    def __eq__(self, other):
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except TypeError:
            return False

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f"tf.{self._name}"

    def __str__(self):
        return f"<dtype: '{self._name}'>"

    def __reduce__(self):
        return as_dtype, (self._name,)


float16 = half = DType("float16", np.float16, 19)
float32 = DType("float32", np.float32, 1)
float64 = double = DType("float64", np.float64, 2)
int8 = DType("int8", np.int8, 6)
int16 = DType("int16", np.int16, 5)
int32 = DType("int32", np.int32, 3)
int64 = DType("int64", np.int64, 9)
uint8 = DType("uint8", np.uint8, 4)
uint16 = DType("uint16", np.uint16, 17)
uint32 = DType("uint32", np.uint32, 22)
uint64 = DType("uint64", np.uint64, 23)
complex64 = DType("complex64", np.complex64, 8)
complex128 = DType("complex128", np.complex128, 18)
bool = DType("bool", np.bool_, 10)  # noqa: A001 - TensorFlow's public name
string = DType("string", np.object_, 7)
# Values the runtime passes between ops as Python objects: a TensorArray (``resource``), a loop's
# accumulated values (``variant``). Never fed, fetched or converted from numpy.
resource = DType("resource", np.object_, 20)
variant = DType("variant", np.object_, 21)
float16_ref, float32_ref, float64_ref = float16._as_ref, float32._as_ref, float64._as_ref
int8_ref, int16_ref, int32_ref, int64_ref = int8._as_ref, int16._as_ref, int32._as_ref, int64._as_ref
uint8_ref, bool_ref, string_ref = uint8._as_ref, bool._as_ref, string._as_ref
complex64_ref, complex128_ref = complex64._as_ref, complex128._as_ref
_REAL_PARTS = {complex64: float32, complex128: float64}

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, complex64, complex128,
        bool, string)
_BY_NAME = {d.name: d for d in _ALL + (resource, variant)}
_BY_NAME.update({d._as_ref.name: d._as_ref for d in _ALL})
_BY_NAME.update(half=float16, float=float32, double=float64)
_BY_ENUM = {d.as_datatype_enum: d for d in _ALL + (resource, variant)}
_BY_ENUM.update({d._as_ref.as_datatype_enum: d._as_ref for d in _ALL})
_BY_NUMPY = {np.dtype(d.as_numpy_dtype): d for d in _ALL}
_BY_NUMPY[np.dtype("S")] = string
_BY_NUMPY[np.dtype("U")] = string


def as_dtype(type_value):
    """The DType for a DType, name, numpy type or dtype, or DataType number.

    Raises
    ------
    TypeError
        When ``type_value`` names no type numflow supports.
    """
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        if type_value in _BY_NAME:
            return _BY_NAME[type_value]
    elif isinstance(type_value, int) and not isinstance(type_value, type(True)):  # noqa: UP003 - bool is a DType here
        if type_value in _BY_ENUM:
            return _BY_ENUM[type_value]
    else:
        try:
            np_dtype = np.dtype(type_value)
        except TypeError:
            np_dtype = None
        if np_dtype is not None:
            if np_dtype.kind in "SU":
                return string
            if np_dtype in _BY_NUMPY:
                return _BY_NUMPY[np_dtype]
    raise TypeError(f"Cannot convert value {type_value!r} to a TensorFlow DType.")
