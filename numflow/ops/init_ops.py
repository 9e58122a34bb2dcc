"""Initializers: objects that build a variable's initial value for a shape and dtype."""

import math

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.seeds import get_seed
from numflow.framework.shapes import TensorShape
from numflow.ops import random_ops
from numflow.ops.constant_op import constant, to_numpy


@declare("FillValue")
def _fill_value_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


def fill_value(shape, value, dtype, name="Fill"):
    """A tensor of ``shape`` filled with the scalar ``value``, computed at run time (nothing stored)."""
    shape = TensorShape(shape)
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new variable must be fully defined, but instead was {shape}.")
    attrs = {"shape": shape, "dtype": dtypes.as_dtype(dtype), "value": value}
    return get_default_graph().create_op("FillValue", [], attrs, name=name).outputs[0]


class Initializer:
    """Base class: ``init(shape, dtype=None, partition_info=None)`` returns the initial value tensor."""

    dtype = None

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def _dtype(self, dtype):
        return dtypes.as_dtype(dtype or self.dtype or dtypes.float32).base_dtype


class Zeros(Initializer):
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return fill_value(shape, 0, self._dtype(dtype), name="zeros")

    def get_config(self):
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    def __init__(self, dtype=dtypes.float32):
        self.dtype = dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return fill_value(shape, 1, self._dtype(dtype), name="ones")

    def get_config(self):
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """``value`` (a scalar fills the shape; a shorter list is padded with its last element, as TF 1.x)."""

    def __init__(self, value=0, dtype=dtypes.float32, verify_shape=False):
        if not np.isscalar(value) and not isinstance(value, list | tuple | np.ndarray):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__} (expected Python scalar, "
                            "list or tuple of values, or numpy.ndarray).")
        self.value = value
        self.dtype = dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        dtype = self._dtype(dtype)
        value = to_numpy(self.value, dtype)  # TypeError when the value does not fit dtype, as in TF
        dims = TensorShape(shape).as_list()
        size = math.prod(dims)
        verify = self._verify_shape if verify_shape is None else verify_shape
        if verify and list(value.shape) != dims:
            raise TypeError(f"Expected Tensor's shape: {tuple(dims)}, got {value.shape}.")
        if value.size > size:
            raise ValueError(f"Too many elements provided. Takes at most {size}, but got {value.size}.")
        if value.size == 1:
            return fill_value(dims, value.reshape(()).item(), dtype, name="Const")
        flat = value.reshape(-1)
        if value.size < size:  # TensorFlow 1.x repeats the last value to fill the shape
            flat = np.concatenate([flat, np.full(size - flat.size, flat[-1], dtype=flat.dtype)])
        return constant(flat.reshape(dims), dtype=dtype, name="Const")

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    def __init__(self, minval=0.0, maxval=None, seed=None, dtype=dtypes.float32):
        self.minval, self.maxval, self.seed, self.dtype = minval, maxval, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_uniform(shape, self.minval, self.maxval, self._dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """Uniform values in ``[-m, m]`` with ``m = factor * sqrt(3 / input_size)``, ``input_size`` the
    product of all dimensions but the last (TensorFlow 1's ``uniform_unit_scaling_initializer``)."""

    def __init__(self, factor=1.0, seed=None, dtype=dtypes.float32):
        self.factor, self.seed, self.dtype = factor, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        input_size = 1.0
        for dim in (partition_info.full_shape if partition_info is not None else shape)[:-1]:
            input_size *= float(dim)
        max_val = math.sqrt(3 / max(input_size, 1.0)) * self.factor
        return random_ops.random_uniform(shape, -max_val, max_val, self._dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=dtypes.float32):
        self.mean, self.stddev, self.seed, self.dtype = mean, stddev, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.random_normal(shape, self.mean, self.stddev, self._dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class TruncatedNormal(RandomNormal):
    def __call__(self, shape, dtype=None, partition_info=None):
        return random_ops.truncated_normal(shape, self.mean, self.stddev, self._dtype(dtype), seed=self.seed)


def _compute_fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive_field = 1
    for d in shape[:-2]:
        receptive_field *= d
    return shape[-2] * receptive_field, shape[-1] * receptive_field


# Standard deviation of a unit normal truncated to [-2, 2]: scipy.stats.truncnorm.std(a=-2, b=2).
_TRUNCATED_STDDEV = 0.87962566103423978


class VarianceScaling(Initializer):
    """Values scaled to the variable's fan-in, fan-out or their average (He, LeCun, Glorot...)."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, dtype=dtypes.float32):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Argument `mode` should be one of ('fan_in', 'fan_out', 'fan_avg'). Received: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Argument `distribution` should be one of ('normal', uniform', 'truncated_normal', "
                             f"'untruncated_normal'). Received: {distribution}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.seed, self.dtype = seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        shape = TensorShape(shape).as_list()
        # A part of a partitioned variable is scaled as the whole variable is.
        fan_in, fan_out = _compute_fans(partition_info.full_shape if partition_info is not None else shape)
        mode = self.mode
        divisor = fan_in if mode == "fan_in" else fan_out if mode == "fan_out" else (fan_in + fan_out) / 2.0
        scale = self.scale / max(1.0, divisor)
        if self.distribution in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / _TRUNCATED_STDDEV
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed,
                "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "uniform", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, dtype=dtypes.float32):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


_NOT_2D = "The tensor to initialize, specified by argument `shape` must be at least two-dimensional. Received shape={}"


@declare("Orthogonal", stateful=True)
def _orthogonal_infer(op):
    return [(op._attrs["dtype"], op._attrs["shape"])]


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix, reshaped to ``shape``: QR of a normal matrix, signs fixed by R's diagonal."""

    def __init__(self, gain=1.0, seed=None, dtype=dtypes.float32):
        self.gain, self.seed, self.dtype = gain, seed, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = self._dtype(dtype)
        shape = TensorShape(shape)
        if shape.ndims is None or shape.ndims < 2:
            raise ValueError(_NOT_2D.format(shape.as_list() if shape.ndims is not None else None))
        seed1, seed2 = get_seed(self.seed)
        attrs = {"shape": shape, "dtype": dtype, "gain": float(self.gain), "seed": seed1 or 0, "seed2": seed2 or 0}
        return get_default_graph().create_op("Orthogonal", [], attrs, name="orthogonal").outputs[0]

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0, dtype=dtypes.float32):
        self.gain, self.dtype = gain, dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        shape = TensorShape(shape).as_list()
        if len(shape) != 2:
            raise ValueError(_NOT_2D.format(shape))
        return constant(self.gain * np.eye(*shape), dtype=self._dtype(dtype))

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
uniform_unit_scaling_initializer = UniformUnitScaling
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
identity_initializer = Identity


def he_normal(seed=None):
    return VarianceScaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed=None):
    return VarianceScaling(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed=None):
    return VarianceScaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed=None):
    return VarianceScaling(1.0, "fan_in", "uniform", seed)
