"""``tf.dtypes``: the dtypes and the functions on them under the names ``tf.compat.v1.dtypes`` gives them;
re-exports only."""

from numflow.framework.dtypes import (
    DType,
    as_dtype,
    bool,
    complex64,
    complex128,
    double,
    float16,
    float32,
    float64,
    half,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
    uint16,
    uint32,
    uint64,
)
from numflow.ops.complex_ops import complex
from numflow.ops.elementwise_ops import saturate_cast
from numflow.ops.math_ops import cast
from numflow.ops.string_ops import as_string

__all__ = [
    "as_dtype", "as_string", "bool", "cast", "complex", "complex128", "complex64", "double", "DType", "float16",
    "float32", "float64", "half", "int16", "int32", "int64", "int8", "saturate_cast", "string", "uint16", "uint32",
    "uint64", "uint8"
]
