"""Random ops: uniform, normal and truncated normal values from the counter-based Philox generator.

Each op's value at element i depends only on its (seed, seed2) pair, i, and how many times the op
has run in the session: a second run continues the stream, as TensorFlow's random ops do.
"""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, constant_value, get_default_graph
from numflow.framework.registry import declare
from numflow.framework.seeds import get_seed
from numflow.framework.shapes import Dimension, TensorShape, dimension_value
from numflow.ops.constant_op import convert_to_tensor, to_numpy
from numflow.ops.op_util import shape_from_tensor


def _random_infer(op):
    shape = op._attrs["shape"]
    if shape is None:
        shape = shape_from_tensor(op.inputs[0])
    return [(op._attrs["dtype"], shape)]


for _op_type in ("RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal"):
    declare(_op_type, stateful=True)(_random_infer)


def _static_shape(shape):
    """``(TensorShape, None)`` when ``shape`` is known now, else ``(None, shape tensor)``."""
    if type(shape) is list and all(type(d) is int and d >= 0 for d in shape):
        return TensorShape(shape), None  # the common case, without numpy
    if isinstance(shape, list | tuple) and any(isinstance(d, Tensor) for d in shape):
        shape = convert_to_tensor(shape, name="shape")  # packed, as TensorFlow converts a list holding tensors
    if isinstance(shape, Tensor):
        value = constant_value(shape)
        if value is None:
            return None, shape
        shape = value
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    dims = [int(d) for d in np.atleast_1d(np.asarray(shape, dtype=np.int64))] if np.ndim(shape) else (
        [] if np.size(shape) == 0 else [int(shape)])
    if any(d < 0 for d in dims):
        raise ValueError(f"Dimension {min(dims)} must be >= 0")
    return TensorShape(dims), None


def _scalar(x, name):
    if type(x) is float or type(x) is int:
        return x
    if type(x) is Dimension:
        return None  # a Dimension converts to an int32 or int64 tensor only (TypeError for a float one)
    if isinstance(x, Tensor):
        value = constant_value(x)
        if value is None or np.size(value) != 1:
            return None
        x = value
    arr = np.asarray(x)
    if arr.size != 1:
        return None
    return arr.reshape(()).item()


def _random(op_type, shape, dtype, seed, name, default_name, graph=None, **params):
    """Add a random op; ``params`` (mean/stddev or minval/maxval) are applied by the kernel in one pass."""
    graph = graph or get_default_graph()
    dtype = dtypes.as_dtype(dtype)
    static, dynamic = _static_shape(shape)
    seed1, seed2 = get_seed(seed)
    attrs = {"dtype": dtype, "shape": static, "seed": seed1 or 0, "seed2": seed2 or 0, **params}
    inputs = [convert_to_tensor(dynamic, dtype=dynamic.dtype)] if dynamic is not None else []
    return graph.create_op(op_type, inputs, attrs, name=name or default_name).outputs[0]


def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normally distributed values of ``shape`` with ``mean`` and ``stddev``."""
    return _location_scale("RandomStandardNormal", "random_normal", shape, mean, stddev, dtype, seed, name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal values of ``shape``, redrawn until within two standard deviations of ``mean``."""
    return _location_scale("TruncatedNormal", "truncated_normal", shape, mean, stddev, dtype, seed, name)


_FLOAT_TYPES = "float16, bfloat16, float32, float64"


def _location_scale(op_type, default_name, shape, mean, stddev, dtype, seed, name):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        for value in (mean, stddev):  # TF converts them to dtype first: TypeError for 0.0 as int32
            if not isinstance(value, Tensor):
                to_numpy(value, dtype)
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in list of allowed "
                        f"values: {_FLOAT_TYPES}")
    m, s = _scalar(mean, "mean"), _scalar(stddev, "stddev")
    if m is not None and s is not None:
        return _random(op_type, shape, dtype, seed, name, default_name, mean=float(m), stddev=float(s))
    graph = get_default_graph()
    with graph.name_scope(name or default_name) as scope:
        standard = _random(op_type, shape, dtype, seed, None, op_type, mean=0.0, stddev=1.0)
        from numflow.ops import math_ops

        return math_ops.add(standard * convert_to_tensor(stddev, dtype=dtype),
                            convert_to_tensor(mean, dtype=dtype), name=scope[:-1] + "/")


def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform values in ``[minval, maxval)`` (``maxval`` defaults to 1 for floats; required for ints)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.int32 or dtype is dtypes.int64:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        lo, hi = _scalar(dimension_value(minval), "minval"), _scalar(dimension_value(maxval), "maxval")
        if lo is None or hi is None:
            raise NotImplementedError("random_uniform with integer tensor bounds is not supported.")
        # minval >= maxval fails when the op runs (InvalidArgumentError), as in TensorFlow.
        return _random("RandomUniformInt", shape, dtype, seed, name, "random_uniform",
                       minval=int(lo), maxval=int(hi))
    if not (dtype is dtypes.float32 or dtype is dtypes.float64 or dtype is dtypes.float16):
        raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dtype.name}'>. Accepted dtypes are "
                         "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64).")
    # TF skips the scaling for the Python ints 0 and 1, and names the op's output after what it ran last.
    zero_min = isinstance(minval, int) and minval == 0
    one_max = maxval is None or isinstance(maxval, int) and maxval == 1
    if maxval is None:
        maxval = 1.0
    lo, hi = _scalar(minval, "minval"), _scalar(maxval, "maxval")
    if lo is not None and hi is not None:
        graph = get_default_graph()
        with graph.name_scope(name or "random_uniform") as scope:
            last = ("RandomUniform" if one_max else "Mul") if zero_min else None
            return _random("RandomUniform", shape, dtype, seed, scope + (last + "/" if last else ""), None, graph,
                           minval=float(lo), maxval=float(hi))
    graph = get_default_graph()
    with graph.name_scope(name or "random_uniform") as scope:
        unit = _random("RandomUniform", shape, dtype, seed, None, "RandomUniform", minval=0.0, maxval=1.0)
        lo_t, hi_t = convert_to_tensor(minval, dtype=dtype), convert_to_tensor(maxval, dtype=dtype)
        return _affine(unit, lo_t, hi_t, scope)


def _affine(unit, lo, hi, scope):
    from numflow.ops import math_ops

    return math_ops.add(unit * (hi - lo), lo, name=scope[:-1] + "/")
