"""``tf.keras.constraints``: functions of a weight that Keras' optimizers apply to it after each update
(``MaxNorm``, ``NonNeg``, ``UnitNorm``, ``MinMaxNorm``, ``RadialConstraint``), as tf-keras computes them; and
``get``/``serialize``/``deserialize``.
"""

import numpy as np

from numflow.keras import backend, serialization
from numflow.ops import math_ops


class Constraint:
    """The base of the constraints: ``constraint(w)`` is the tensor ``w`` is assigned after an update."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return backend.sqrt(math_ops.reduce_sum(math_ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Each slice's L2 norm along ``axis`` scaled down to at most ``max_value``."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = backend.clip(norms, 0, self.max_value)
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Negative values set to zero."""

    def __call__(self, w):
        return w * math_ops.cast(math_ops.greater_equal(w, 0.0), backend.floatx())


class UnitNorm(Constraint):
    """Each slice along ``axis`` scaled to an L2 norm of 1."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Each slice's L2 norm along ``axis`` moved by ``rate`` into ``[min_value, max_value]``."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = self.rate * backend.clip(norms, self.min_value, self.max_value) + (1 - self.rate) * norms
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


class RadialConstraint(Constraint):
    """Each ``height x width`` kernel of a rank-4 weight made radially symmetric as tf-keras makes it: every square
    ring around the centre takes one value of the kernel's diagonal (the centre, ``kernel[s - 1, s - 1]``; ring
    ``d``, ``kernel[s + d - 1, s + d - 1]`` for odd sizes ``2s + 1``, ``kernel[s + d, s + d]`` for even ``2s``)."""

    def __call__(self, w):
        from numflow.ops.scatter_ops import gather_nd

        shape = w.shape
        if shape.ndims is None or shape.ndims != 4:
            raise ValueError(f"The weight tensor must have rank 4. Received weight tensor with shape: {shape}")
        size = shape.dim_values[0]
        start = size // 2
        index = np.arange(size)
        if size % 2:
            ring = np.maximum.outer(np.abs(index - start), np.abs(index - start))
            source = np.where(ring == 0, start - 1, start + ring - 1)
        else:
            distance = np.where(index < start, start - 1 - index, index - start)
            ring = np.maximum.outer(distance, distance)
            source = np.where(ring == 0, start - 1, start + ring)
        return gather_nd(w, np.stack([source, source], axis=-1).astype(np.int32))


max_norm = maxnorm = MaxNorm
non_neg = nonneg = NonNeg
unit_norm = unitnorm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_BY_NAME = {
    **{cls.__name__: cls for cls in (Constraint, MaxNorm, NonNeg, UnitNorm, MinMaxNorm, RadialConstraint)},
    "max_norm": MaxNorm, "maxnorm": MaxNorm, "non_neg": NonNeg, "nonneg": NonNeg, "unit_norm": UnitNorm,
    "unitnorm": UnitNorm, "min_max_norm": MinMaxNorm, "radial_constraint": RadialConstraint,
}


def serialize(constraint):
    """``constraint`` as ``{"class_name", "config"}`` (None as None)."""
    return serialization.serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    """The constraint a name (``"max_norm"``) or config describes."""
    return serialization.deserialize_keras_object(config, _BY_NAME, "constraint", custom_objects)


def get(identifier):
    """The constraint ``identifier`` names or describes, or ``identifier`` itself (a callable; None: None)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict | str):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint function identifier: {identifier}")

