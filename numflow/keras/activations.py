"""``tf.keras.activations``: Keras' activation functions on TensorFlow's ops (``relu`` is ``tf.nn.relu``...),
and ``get`` for names."""

from numflow.ops import math_ops


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``; with ``alpha``, ``max_value`` or ``threshold`` as Keras' backend computes them."""
    from numflow import nn

    if alpha == 0 and max_value is None and threshold == 0:
        return nn.relu(x)
    if max_value == 6 and alpha == 0 and threshold == 0:
        return nn.relu6(x)
    negative_part = nn.relu(-x + threshold) if alpha != 0 else None
    if threshold != 0:
        x = x * math_ops.cast(math_ops.greater(x, threshold), x.dtype)
    else:
        x = nn.relu(x)
    if max_value is not None:
        from numflow.ops.clip_ops import clip_by_value

        x = clip_by_value(x, 0.0, float(max_value))
    if negative_part is not None:
        x -= alpha * negative_part
    return x


def softmax(x, axis=-1):
    """``exp(x) / sum(exp(x))`` along ``axis``; a ValueError for a scalar or vector, as Keras'."""
    from numflow import nn

    if x.shape.ndims is not None and x.shape.ndims <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return nn.softmax(x, axis=axis)


def _nn(name):
    def activation(x):
        from numflow import nn

        return getattr(nn, name)(x)

    activation.__name__ = name
    activation.__doc__ = f"``tf.nn.{name}``."
    return activation


elu, selu, softplus, softsign, relu6 = (_nn(name) for name in ("elu", "selu", "softplus", "softsign", "relu6"))
sigmoid, tanh, exponential = math_ops.sigmoid, math_ops.tanh, math_ops.exp


def linear(x):
    """``x`` unchanged."""
    return x


def swish(x):
    """``x * sigmoid(x)`` (``tf.nn.silu``)."""
    from numflow import nn

    return nn.silu(x)


def mish(x):
    """``x * tanh(softplus(x))``."""
    from numflow import nn

    return x * math_ops.tanh(nn.softplus(x))


def hard_sigmoid(x):
    """``clip(0.2 * x + 0.5, 0, 1)``."""
    from numflow.ops.clip_ops import clip_by_value

    return clip_by_value(0.2 * x + 0.5, 0.0, 1.0)


_BY_NAME = {f.__name__: f for f in (relu, softmax, elu, selu, softplus, softsign, relu6, linear, hard_sigmoid, swish,
                                    mish)}
_BY_NAME.update(sigmoid=sigmoid, tanh=tanh, exponential=exponential)


def deserialize(name, custom_objects=None):
    """The activation function ``name`` names (among the custom objects too)."""
    from numflow.keras import serialization

    return serialization.deserialize_keras_object(name, _BY_NAME, "activation function", custom_objects)


def get(identifier):
    """The activation ``identifier`` names (``"relu"``) or describes, or ``identifier`` itself (a callable; None:
    linear)."""
    if identifier is None:
        return linear
    if callable(identifier):
        return identifier
    if isinstance(identifier, str | dict):
        return deserialize(identifier)
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation):
    """The name of ``activation`` (an object with a config, as a config)."""
    if hasattr(activation, "get_config"):
        from numflow.keras import serialization

        return serialization.serialize_keras_object(activation)
    return getattr(activation, "__name__", str(activation))
