"""numflow: a TensorFlow-1.x-style dataflow engine. ``import numflow as tf``."""

from numflow import errors
from numflow.framework.dtypes import (
    DType, as_dtype, bool, double, float16, float32, float64, half, int8, int16, int32, int64, string,
    uint8, uint16, uint32, uint64,
)
from numflow.framework.graph import (
    Graph, GraphKeys, Operation, Tensor, get_default_graph, reset_default_graph,
)
from numflow.framework.shapes import TensorShape
from numflow.ops.array_ops import identity, placeholder, placeholder_with_default, shape
from numflow.ops.constant_op import constant, convert_to_tensor, is_tensor
from numflow.ops.control_flow_ops import group, no_op, tuple
from numflow.ops.math_ops import (
    abs, add, cast, ceil, cos, divide, equal, exp, floor, floordiv, floormod, greater, greater_equal,
    less, less_equal, log, log1p, logical_and, logical_not, logical_or, logical_xor, matmul, maximum,
    minimum, mod, multiply, negative, not_equal, pow, range, realdiv, reciprocal, reduce_all, reduce_any,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round, rsqrt, sigmoid, sign, sin, sqrt,
    square, squared_difference, subtract, tanh, to_float, truediv,
)
from numflow.ops.registry import RegisterGradient
from numflow.runtime.config import ConfigProto, GPUOptions, RunMetadata, RunOptions
from numflow.runtime.session import InteractiveSession, Session, get_default_session

from numflow.framework.collections_api import (  # noqa: E402, I001
    add_to_collection, add_to_collections, control_dependencies, device, get_all_collection_keys,
    get_collection, get_collection_ref, name_scope, colocate_with,
)
