"""``tf.keras.regularizers``: ``L1``, ``L2`` and ``L1L2`` (``l1``, ``l2``, ``l1_l2``) as Keras computes them:
``l1 * sum(|x|)`` and ``2 * l2 * tf.nn.l2_loss(x)``."""

import numpy as np

from numflow.ops import math_ops


def _floatx(value):
    """``value`` rounded to float32 as Keras keeps it (``cast_to_floatx``), as a Python float."""
    return float(np.float32(value))


class Regularizer:
    """The base of the regularizers: ``regularizer(x)`` is a scalar loss tensor."""

    def __call__(self, x):
        return 0.0

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _l1_term(l1, x):
    return l1 * math_ops.reduce_sum(math_ops.abs(x))


def _l2_term(l2, x):
    from numflow.ops.nn_ops import l2_loss

    return 2.0 * l2 * l2_loss(x)


class L1L2(Regularizer):
    """``l1 * sum(|x|) + l2 * sum(x ** 2)``, added onto a zero constant as Keras does."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = _floatx(l1), _floatx(l2)

    def __call__(self, x):
        from numflow.ops.constant_op import constant

        regularization = constant(0.0, dtype=x.dtype.base_dtype)
        if self.l1:
            regularization += _l1_term(self.l1, x)
        if self.l2:
            regularization += _l2_term(self.l2, x)
        return regularization

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(Regularizer):
    """``l1 * sum(|x|)``."""

    def __init__(self, l1=0.01, **kwargs):
        self.l1 = _floatx(kwargs.pop("l", l1))

    def __call__(self, x):
        return _l1_term(self.l1, x)

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * sum(x ** 2)``, as ``2 * l2 * tf.nn.l2_loss(x)``."""

    def __init__(self, l2=0.01, **kwargs):
        self.l2 = _floatx(kwargs.pop("l", l2))

    def __call__(self, x):
        return _l2_term(self.l2, x)

    def get_config(self):
        return {"l2": self.l2}


def l1_l2(l1=0.01, l2=0.01):
    """An ``L1L2`` regularizer, both factors 0.01 by default."""
    return L1L2(l1=l1, l2=l2)


l1, l2 = L1, L2
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def serialize(regularizer):
    """``regularizer`` as ``{"class_name", "config"}`` (None as None)."""
    from numflow.keras import serialization

    return serialization.serialize_keras_object(regularizer)


def deserialize(config, custom_objects=None):
    """The regularizer a name (``"l2"``: 0.01) or config describes."""
    from numflow.keras import serialization

    return serialization.deserialize_keras_object(config, _BY_NAME, "regularizer", custom_objects)


def get(identifier):
    """The regularizer ``identifier`` names (``"l2"``: 0.01) or describes, or ``identifier`` itself (a callable)."""
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, dict | str):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
