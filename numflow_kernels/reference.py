"""NumPy kernels for every op: the living spec that the other kernels are tested against.

Each is registered under the device type ``"reference"``; the CPU device runs them for op types
without a Numba kernel of their own. A kernel returns a fresh array or one of its inputs unchanged;
it never writes into an input.
"""

import numpy as np

from numflow.framework import errors
from numflow_kernels.registry import REFERENCE, register


def kernel(op_type):
    return register(op_type, REFERENCE)


@kernel("Const")
def const(ctx):
    return ctx.attrs["value"]


@kernel("Placeholder")
def placeholder(ctx):
    dtype, shape = ctx.attrs["dtype"], ctx.attrs["shape"]
    shape_text = "unknown" if shape.ndims is None else str([-1 if d is None else d for d in shape.dims])
    raise errors.InvalidArgumentError(
        None, None,
        f"You must feed a value for placeholder tensor '{ctx.op_name}' with dtype {_tf_name(dtype)} "
        f"and shape {shape_text}",
    )


def _tf_name(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


@kernel("PlaceholderWithDefault")
@kernel("Identity")
def identity(ctx, x):
    return x


@kernel("NoOp")
def no_op(ctx):
    return ()


@kernel("Shape")
def shape(ctx, x):
    return np.array(np.shape(x), dtype=ctx.attrs["out_type"].as_numpy_dtype)


def _elementwise(op_type, fn):
    register(op_type, REFERENCE)(lambda ctx, *xs: np.asarray(fn(*xs)))


def _floordiv(x, y):
    if np.issubdtype(np.result_type(x), np.integer) and np.any(np.asarray(y) == 0):
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")
    return np.floor_divide(x, y)


def _floormod(x, y):
    if np.issubdtype(np.result_type(x), np.integer) and np.any(np.asarray(y) == 0):
        raise errors.InvalidArgumentError(None, None, "Integer division by zero")
    return np.mod(x, y)


def _realdiv(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(x, y).astype(np.result_type(x, y), copy=False)


def _pow(x, y):
    if np.issubdtype(np.result_type(x), np.integer) and np.any(np.asarray(y) < 0):
        raise errors.InvalidArgumentError(None, None, "Integers to negative integer powers are not allowed")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.power(x, y)


def _quiet(fn):
    def run(*xs):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return fn(*xs)

    return run


for _op_type, _fn in {
    "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "RealDiv": _realdiv, "FloorDiv": _floordiv,
    "FloorMod": _floormod, "Pow": _pow, "Maximum": np.maximum, "Minimum": np.minimum,
    "SquaredDifference": lambda x, y: np.square(np.subtract(x, y)),
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal,
    "Equal": np.equal, "NotEqual": np.not_equal, "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or,
    "Neg": np.negative, "Abs": np.abs, "Square": np.square, "Sqrt": _quiet(np.sqrt),
    "Rsqrt": _quiet(lambda x: (1 / np.sqrt(x)).astype(x.dtype, copy=False)), "Exp": _quiet(np.exp),
    "Log": _quiet(np.log), "Log1p": _quiet(np.log1p), "Sign": np.sign, "Floor": np.floor, "Ceil": np.ceil,
    "Round": np.rint, "Reciprocal": _quiet(lambda x: (1 / x).astype(x.dtype, copy=False)), "Tanh": np.tanh,
    "Sigmoid": _quiet(lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)), "Sin": np.sin,
    "Cos": np.cos, "LogicalNot": np.logical_not,
}.items():
    _elementwise(_op_type, _fn)


@kernel("Cast")
def cast(ctx, x):
    dst = ctx.attrs["DstT"].as_numpy_dtype
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(x).astype(dst)


@kernel("MatMul")
def matmul(ctx, a, b):
    if ctx.attrs["transpose_a"]:
        a = a.T
    if ctx.attrs["transpose_b"]:
        b = b.T
    if a.shape[1] != b.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"Matrix size-incompatible: In[0]: {list(a.shape)}, In[1]: {list(b.shape)}"
        )
    return np.matmul(a, b)


def _reduction(op_type, fn):
    @kernel(op_type)
    def reduce(ctx, x):
        axis, keepdims = ctx.attrs["axis"], ctx.attrs["keep_dims"]
        out = fn(x, axis=axis, keepdims=keepdims)
        return np.asarray(out, dtype=x.dtype) if op_type not in ("All", "Any") else np.asarray(out)


def _mean(x, axis, keepdims):
    if np.issubdtype(x.dtype, np.integer):
        count = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
        return np.sum(x, axis=axis, keepdims=keepdims) // max(count, 1)
    return np.mean(x, axis=axis, keepdims=keepdims)


for _op_type, _fn in {"Sum": np.sum, "Mean": _mean, "Max": np.max, "Min": np.min, "Prod": np.prod,
                      "All": np.all, "Any": np.any}.items():
    _reduction(_op_type, _fn)


@kernel("Range")
def range_(ctx):
    a = ctx.attrs
    return np.arange(a["start"], a["limit"], a["delta"], dtype=a["dtype"].as_numpy_dtype)
