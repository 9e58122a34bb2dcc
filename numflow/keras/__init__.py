"""``tf.keras`` in TensorFlow 1.x mode (tf-keras' v1 API): layers used as functions on graph tensors, models
with ``compile``/``fit``/``evaluate``/``predict`` run in the Keras session, and the helpers TF1 programs use.

Imported when ``tf.keras`` is first used, and each submodule when it is: ``import numflow`` loads none of it.
"""

import importlib

_SUBMODULES = ("activations", "backend", "callbacks", "constraints", "datasets", "initializers", "layers", "losses",
               "metrics", "models", "optimizers", "preprocessing", "regularizers", "utils")
_MODEL_NAMES = ("Model", "Sequential")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"numflow.keras.{name}")
    if name in _MODEL_NAMES:
        return getattr(importlib.import_module("numflow.keras.models"), name)
    if name == "Input":
        from numflow.keras.layers.input_layer import Input

        return Input
    raise AttributeError(f"module 'numflow.keras' has no attribute '{name}'")


def __dir__():
    return sorted((*globals(), *_SUBMODULES, *_MODEL_NAMES, "Input"))
