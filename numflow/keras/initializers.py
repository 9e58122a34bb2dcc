"""``tf.keras.initializers`` in TensorFlow 1.x mode: TensorFlow 1's initializers (the same random draws for the
same seeds) with Keras' defaults (``RandomNormal``'s stddev 0.05...), and ``get`` for names."""

from numflow.framework import dtypes
from numflow.layers import utils
from numflow.ops import init_ops
from numflow.ops.init_ops import (
    Constant,
    GlorotNormal,
    GlorotUniform,
    Identity,
    Initializer,
    Ones,
    Orthogonal,
    VarianceScaling,
    Zeros,
)


class RandomNormal(init_ops.RandomNormal):
    """Normal values of mean ``mean`` and deviation ``stddev`` (Keras' default 0.05)."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean, stddev, seed, dtype or dtypes.float32)


class RandomUniform(init_ops.RandomUniform):
    """Uniform values in ``[minval, maxval)`` (Keras' default [-0.05, 0.05))."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=None):
        super().__init__(minval, maxval, seed, dtype or dtypes.float32)


class TruncatedNormal(init_ops.TruncatedNormal):
    """Normal values of deviation ``stddev`` (Keras' default 0.05) redrawn beyond two deviations."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean, stddev, seed, dtype or dtypes.float32)


def _fixed_variance_scaling(name, scale, distribution):
    """tf-keras' ``name`` in TensorFlow 1.x mode: a ``VarianceScaling`` of ``scale``, fan in and
    ``distribution``, configured by its seed alone."""

    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale=scale, mode="fan_in", distribution=distribution, seed=seed)

    def get_config(self):
        return {"seed": self.seed}

    doc = f"``VarianceScaling(scale={scale}, mode='fan_in', distribution='{distribution}')``."
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config, "__doc__": doc})


HeNormal = _fixed_variance_scaling("HeNormal", 2.0, "truncated_normal")
HeUniform = _fixed_variance_scaling("HeUniform", 2.0, "uniform")
LecunNormal = _fixed_variance_scaling("LecunNormal", 1.0, "truncated_normal")
LecunUniform = _fixed_variance_scaling("LecunUniform", 1.0, "uniform")
he_normal, he_uniform, lecun_normal, lecun_uniform = HeNormal, HeUniform, LecunNormal, LecunUniform
zeros, ones, constant, identity, orthogonal = Zeros, Ones, Constant, Identity, Orthogonal
glorot_uniform, glorot_normal, variance_scaling = GlorotUniform, GlorotNormal, VarianceScaling
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
normal, uniform = RandomNormal, RandomUniform

_BY_NAME = {
    "Zeros": Zeros, "Ones": Ones, "Constant": Constant, "RandomNormal": RandomNormal, "RandomUniform": RandomUniform,
    "TruncatedNormal": TruncatedNormal, "VarianceScaling": VarianceScaling, "Orthogonal": Orthogonal,
    "Identity": Identity, "GlorotUniform": GlorotUniform, "GlorotNormal": GlorotNormal, "HeNormal": HeNormal,
    "HeUniform": HeUniform, "LecunNormal": LecunNormal, "LecunUniform": LecunUniform,
    "zero": Zeros, "one": Ones, "normal": RandomNormal, "uniform": RandomUniform,
}


def get(identifier):
    """The initializer ``identifier`` names (``"he_normal"``), a class's instance, or ``identifier`` itself."""
    if identifier is None or isinstance(identifier, Initializer):
        return identifier
    if isinstance(identifier, dict):
        identifier, config = identifier["class_name"], identifier.get("config", {})
        return _named(identifier)(**config)
    if isinstance(identifier, str):
        return _named(identifier)()
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def _named(name):
    by_snake = {utils._snake(key): value for key, value in _BY_NAME.items()}
    made = _BY_NAME.get(name) or by_snake.get(name)
    if made is None:
        raise utils.unknown_object_error("initializer", name)
    return made


def serialize(initializer):
    """``initializer`` as ``{"class_name", "config"}``."""
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config, custom_objects=None):
    """The initializer a name (``"he_normal"``) or ``{"class_name", "config"}`` describes (the custom objects
    first)."""
    from numflow.keras import serialization

    name = config["class_name"] if isinstance(config, dict) else config
    custom = serialization.get_registered_object(name, custom_objects)
    if custom is not None:
        return serialization.deserialize_keras_object(config, {}, "initializer", custom_objects)
    return get(config)
