"""Stateless random ops: ``tf.random.stateless_uniform``, ``stateless_normal``, ``stateless_truncated_normal``,
``stateless_categorical`` and ``stateless_multinomial``, values that depend only on a ``[2]`` seed tensor and
the shape, TensorFlow's bits for the same seed (ops ``StatelessRandomGetKeyCounter``,
``StatelessRandomUniformV2``, ``StatelessRandomUniformIntV2``, ``StatelessRandomNormalV2``,
``StatelessTruncatedNormalV2``, ``StatelessMultinomial``; Philox). Kernels:
``numflow_kernels/reference_stateless.py`` and ``numflow_kernels/cpu/sampling.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import math_ops
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, check_dtype, check_rank, shape_from_tensor, static_value

_PHILOX = 1  # TensorFlow's Algorithm.PHILOX, the one "auto_select" picks on a CPU


@declare("StatelessRandomGetKeyCounter")
def _key_counter_infer(op):
    check_dtype(op.inputs[0], INDEX_TYPES, "seed")
    return [(dtypes.uint64, TensorShape([1])), (dtypes.uint64, TensorShape([2]))]


def _random_infer(op):
    return [(op._attrs.get("dtype") or op.inputs[4].dtype, shape_from_tensor(op.inputs[0]))]


@declare("StatelessMultinomial")
def _stateless_multinomial_infer(op):
    logits, num_samples, seed = op.inputs
    check_dtype(seed, INDEX_TYPES, "seed")
    check_rank(logits.shape, 2)
    n = static_value(num_samples)
    batch = logits.shape.dim_values[0] if logits.shape.ndims is not None else None
    return [(op._attrs["output_dtype"], TensorShape([batch, None if n is None else int(n)]))]


for _op_type in ("StatelessRandomUniformV2", "StatelessRandomNormalV2", "StatelessTruncatedNormalV2",
                 "StatelessRandomUniformIntV2"):
    declare(_op_type)(_random_infer)
not_differentiable("StatelessMultinomial", "StatelessRandomGetKeyCounter", "StatelessRandomUniformV2",
                   "StatelessRandomNormalV2", "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2")


def _key_counter(seed):
    with get_default_graph().name_scope("StatelessRandomGetKeyCounter") as scope:
        seed = convert_to_tensor(seed, name="seed")
        if seed.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Value passed to parameter 'seed' has DataType {seed.dtype.base_dtype.name} not in list "
                            "of allowed values: int32, int64")
        seed.shape.assert_is_compatible_with([2])
        return _out("StatelessRandomGetKeyCounter", [seed], name=scope)


def _draw(op_type, shape, seed, inputs=(), attrs=None, name=None):
    key, counter = _key_counter(seed)
    with get_default_graph().name_scope(name or op_type) as scope:
        alg = convert_to_tensor(_PHILOX, dtype=dtypes.int32, name="alg")
        return _out(op_type, [shape, key, counter, alg, *inputs], attrs, name=scope)[0]


def _shape(shape):
    return convert_to_tensor(shape, name="shape", preferred_dtype=dtypes.int32)


def _float_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in list of allowed values: "
                        f"half, bfloat16, float, double ({what})")
    return dtype


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                             alg="auto_select"):
    """Uniform values in ``[minval, maxval)`` (floats: ``maxval`` defaults to 1) of ``shape`` that depend only on
    ``seed`` (a ``[2]`` int32 or int64 tensor): TensorFlow's values for the same seed.

    >>> import numflow as tf
    >>> tf.Session().run(tf.random.stateless_uniform([3], seed=[1, 2], maxval=10, dtype=tf.int32)).tolist()
    [0, 9, 4]
    """
    dtype = dtypes.as_dtype(dtype)
    with get_default_graph().name_scope(name or "stateless_random_uniform") as scope:
        shape = _shape(shape)
        if dtype.is_integer:
            if maxval is None:
                raise ValueError("For integer `dtype` argument 'maxval' must be specified, unless both 'minval' and "
                                 "'maxval' are None (full range).")
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
            key, counter = _key_counter(seed)
            alg = convert_to_tensor(_PHILOX, dtype=dtypes.int32, name="alg")
            return _out("StatelessRandomUniformIntV2", [shape, key, counter, alg, minval, maxval], name=scope)[0]
        dtype = _float_dtype(dtype, "stateless_random_uniform")
        minval = convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = convert_to_tensor(1 if maxval is None else maxval, dtype=dtype, name="max")
        rnd = _draw("StatelessRandomUniformV2", shape, seed, attrs={"dtype": dtype})
        return math_ops.add(rnd * (maxval - minval), minval, name=scope)


def _normal(op_type, default_name, shape, seed, mean, stddev, dtype, name):
    dtype = _float_dtype(dtype, default_name)
    with get_default_graph().name_scope(name or default_name) as scope:
        shape = _shape(shape)
        mean = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = _draw(op_type, shape, seed, attrs={"dtype": dtype})
        return math_ops.add(rnd * stddev, mean, name=scope)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """Normal values of ``shape`` that depend only on ``seed`` (``[2]``): TensorFlow's for the same seed."""
    return _normal("StatelessRandomNormalV2", "stateless_random_normal", shape, seed, mean, stddev, dtype, name)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """Normal values within two standard deviations of ``mean`` that depend only on ``seed`` (``[2]``)."""
    return _normal("StatelessTruncatedNormalV2", "stateless_truncated_normal", shape, seed, mean, stddev, dtype,
                   name)


def stateless_multinomial(logits, num_samples, seed, output_dtype=dtypes.int64, name=None):
    """``num_samples`` class indices per row of ``logits`` that depend only on ``seed`` (``[2]``), TensorFlow's
    for the same seed (op ``StatelessMultinomial``)."""
    with get_default_graph().name_scope(name or "stateless_multinomial"):
        return _stateless_categorical(logits, num_samples, output_dtype, seed)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """:func:`stateless_multinomial` under its TensorFlow 2 name (scope ``stateless_categorical``)."""
    with get_default_graph().name_scope(name or "stateless_categorical"):
        return _stateless_categorical(logits, num_samples, dtype, seed)


def _stateless_categorical(logits, num_samples, dtype, seed):
    logits = convert_to_tensor(logits, name="logits")
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are (<dtype: 'int32'>, "
                         "<dtype: 'int64'>).")
    with get_default_graph().name_scope("StatelessMultinomial") as scope:
        num_samples = convert_to_tensor(num_samples, name="num_samples", dtype=dtypes.int32)
        seed = convert_to_tensor(seed, name="seed")
        return _out("StatelessMultinomial", [logits, num_samples, seed], {"output_dtype": dtype}, name=scope)[0]
