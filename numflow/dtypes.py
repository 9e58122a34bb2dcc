"""``tf.dtypes``: the dtypes and the functions on them under the names ``tf.compat.v1.dtypes`` gives them;
re-exports only."""

from numflow.framework.dtypes import (
    DType,
    as_dtype,
    bool,
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
from numflow.ops.elementwise_ops import saturate_cast
from numflow.ops.math_ops import cast
from numflow.ops.string_ops import as_string

__all__ = [
    "DType", "as_dtype", "as_string", "bool", "cast", "double", "float16", "float32", "float64", "half", "int8",
    "int16", "int32", "int64", "saturate_cast", "string", "uint16", "uint32", "uint64", "uint8",
]
