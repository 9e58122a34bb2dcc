"""TF DataType numbers as checkpoints store them: numpy dtypes, TF names and numflow DType objects."""

import numpy as np

from numflow.framework import dtypes as _dtypes

DT_STRING = 7
DT_BFLOAT16 = 14

try:  # ml_dtypes gives numpy a real bfloat16; without it bfloat16 travels as raw uint16 bits.
    import ml_dtypes

    BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    BFLOAT16 = None

# enum: (TF name as DataTypeString prints it, numpy dtype or None for strings)
_TABLE = {
    1: ("float", np.dtype(np.float32)),
    2: ("double", np.dtype(np.float64)),
    3: ("int32", np.dtype(np.int32)),
    4: ("uint8", np.dtype(np.uint8)),
    5: ("int16", np.dtype(np.int16)),
    6: ("int8", np.dtype(np.int8)),
    7: ("string", None),
    8: ("complex64", np.dtype(np.complex64)),
    9: ("int64", np.dtype(np.int64)),
    10: ("bool", np.dtype(np.bool_)),
    14: ("bfloat16", BFLOAT16 if BFLOAT16 is not None else np.dtype(np.uint16)),
    17: ("uint16", np.dtype(np.uint16)),
    18: ("complex128", np.dtype(np.complex128)),
    19: ("half", np.dtype(np.float16)),
    22: ("uint32", np.dtype(np.uint32)),
    23: ("uint64", np.dtype(np.uint64)),
}
# Types a checkpoint may name but numflow cannot hold in a numpy array.
_UNSUPPORTED_NAMES = {
    11: "qint8", 12: "quint8", 13: "qint32", 15: "qint16", 16: "quint16", 20: "resource",
    21: "variant", 24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz",
    27: "float8_e4m3b11fnuz", 28: "float8_e5m2fnuz", 29: "int4", 30: "uint4",
}
_NUMFLOW_NAMES = {"float": "float32", "double": "float64", "half": "float16"}
_BY_NUMPY = {dt: enum for enum, (_, dt) in _TABLE.items() if dt is not None and enum != DT_BFLOAT16}
if BFLOAT16 is not None:
    _BY_NUMPY[BFLOAT16] = DT_BFLOAT16
_BY_NAME = {name: enum for enum, (name, _) in _TABLE.items()}
_BY_NAME.update({numflow: _BY_NAME[tf] for tf, numflow in _NUMFLOW_NAMES.items()})
_EXTRA_DTYPES = {}


def is_supported(enum):
    """Whether numflow can read and write tensors of this DataType."""
    return enum in _TABLE


def numpy_dtype(enum):
    """The native-order numpy dtype of a supported DataType (object for DT_STRING)."""
    dt = _TABLE[enum][1]
    return np.dtype(object) if dt is None else dt


def tf_name(enum):
    """TF's DataTypeString: ``float``, ``half``, ``string`` ...; ``unknown dtype enum (N)`` otherwise."""
    if enum in _TABLE:
        return _TABLE[enum][0]
    return _UNSUPPORTED_NAMES.get(enum, f"unknown dtype enum ({enum})")


def proto_name(enum):
    """The DataType enum name: ``DT_FLOAT``, ``DT_HALF`` ..."""
    name = tf_name(enum)
    return "DT_" + name.upper() if enum in _TABLE or enum in _UNSUPPORTED_NAMES else f"DT_INVALID_{enum}"


def as_dtype(enum):
    """The numflow DType for a DataType number, created here for types the framework lacks."""
    try:
        return _dtypes.as_dtype(enum)
    except TypeError:
        pass
    if enum not in _EXTRA_DTYPES:
        name = tf_name(enum)
        name = _NUMFLOW_NAMES.get(name, name)
        np_type = _TABLE[enum][1].type if enum in _TABLE else np.void
        _EXTRA_DTYPES[enum] = _dtypes.DType(name, np_type, enum)
    return _EXTRA_DTYPES[enum]


def enum_for(value_dtype=None, requested=None):
    """The DataType number for an array's numpy dtype, or for an explicitly requested type.

    Parameters
    ----------
    value_dtype : numpy.dtype or None
        The dtype of the array to be stored.
    requested : int, str, DType, numpy dtype or None
        An explicit type (a DataType number, a name such as ``"bfloat16"``, a DType); wins.

    Raises
    ------
    TypeError
        For types a checkpoint cannot hold (float128, structured, datetime ...).
    """
    if requested is not None:
        if isinstance(requested, str):
            if requested in _BY_NAME:
                return _BY_NAME[requested]
        elif isinstance(requested, int) and not isinstance(requested, bool):
            if requested in _TABLE:
                return requested
        elif isinstance(requested, _dtypes.DType):
            return enum_for(requested=requested.as_datatype_enum)
        else:
            return enum_for(value_dtype=np.dtype(requested))
        raise TypeError(f"Cannot store dtype {requested!r} in a checkpoint")
    dt = np.dtype(value_dtype)
    if dt.kind in "OSU":
        return DT_STRING
    native = dt.newbyteorder("=") if dt.byteorder not in "=|" else dt
    if native in _BY_NUMPY:
        return _BY_NUMPY[native]
    raise TypeError(f"Cannot store dtype {dt} in a checkpoint")
