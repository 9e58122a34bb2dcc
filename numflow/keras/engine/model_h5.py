"""Whole models in tf-keras' HDF5 format (``model.save("m.h5")``, ``tf.keras.models.load_model``); needs h5py
(the ``h5`` extra).

The file's root has the attributes ``model_config`` (the model's JSON config), ``training_config`` (what
``compile`` was given: ``loss``, ``metrics``, ``loss_weights``, ``weighted_metrics`` and the optimizer's config),
``keras_version`` and ``backend``; the group ``model_weights`` holds the weights as ``save_weights`` writes
them (``hdf5_weights.py``) and ``optimizer_weights`` the optimizer's (``training/Adam/iter:0``, then its
slots, ``training/Adam/dense/kernel/m:0``..., in the order it made them). Loading builds the model from its
config (nothing in the file is executed: a Lambda layer's bytecode is refused), sets its weights, and,
compiled, the optimizer's state, so that training goes on where it stopped.
"""

import json
import os
import warnings

import numpy as np

from numflow.keras import backend, serialization
from numflow.keras.engine import hdf5_weights
from numflow.keras.engine.model_config import model_config_json, model_from_config


def save_model(model, filepath, overwrite=True, include_optimizer=True):
    """Write ``model`` (its config, weights and, compiled, its training config and optimizer state) to the
    HDF5 file ``filepath``."""
    h5py = hdf5_weights._h5py("save_model")
    filepath = os.fspath(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} exists and overwrite=False.")
    model_config = model_config_json(model)  # before the file is opened: an unserializable model leaves no file
    os.makedirs(os.path.dirname(filepath) or ".", exist_ok=True)
    with h5py.File(filepath, "w") as f:
        f.attrs["backend"] = "tensorflow"
        f.attrs["keras_version"] = hdf5_weights.KERAS_VERSION
        f.attrs["model_config"] = model_config.encode("utf8")
        hdf5_weights.write_model_weights(f.create_group("model_weights"), model)
        if include_optimizer and model.optimizer is not None and not hasattr(model.optimizer, "get_config"):
            warnings.warn("TensorFlow optimizers do not make it possible to access optimizer attributes or "
                          "optimizer state after instantiation. As a result, we cannot save the optimizer as part "
                          "of the model save file. You will have to compile your model again after loading it.",
                          stacklevel=3)
        elif include_optimizer and model.optimizer is not None:
            f.attrs["training_config"] = json.dumps(_training_config(model)).encode("utf8")
            weights = model.optimizer.weights
            if weights:
                hdf5_weights._write_weights(f.create_group("optimizer_weights"), weights)


def _training_config(model):
    arguments = model._compile_given
    return {"loss": _serialized(arguments["loss"]), "metrics": _serialized(arguments["metrics"]),
            "loss_weights": arguments["loss_weights"], "sample_weight_mode": None,
            "weighted_metrics": _serialized(arguments["weighted_metrics"]),
            "optimizer_config": serialization.serialize_keras_object(model.optimizer)}


def _serialized(value):
    """Losses and metrics (alone, or in lists or dicts per output) as tf-keras writes them: names as names,
    objects as ``{"class_name", "config"}``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {key: _serialized(v) for key, v in value.items()}
    if isinstance(value, list | tuple):
        return [_serialized(v) for v in value]
    return serialization.serialize_keras_object(value)


def load_model(filepath, custom_objects=None, compile=True):  # noqa: A002  (Keras' name)
    """The model the HDF5 file ``filepath`` holds, its weights set and, with ``compile``, compiled as it was
    with the optimizer's state restored."""
    h5py = hdf5_weights._h5py("load_model")
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        from numflow.framework import errors

        raise errors.NotFoundError(None, None, f"Unable to open {filepath}: no such file")
    with h5py.File(filepath, "r") as f:
        model_config = _attribute(f, "model_config")
        if model_config is None:
            raise ValueError(f"No model config found in the file at {filepath}.")
        model = model_from_config(json.loads(model_config), custom_objects)
        backend.batch_set_value(hdf5_weights.read_model_weights(f["model_weights"], model, False, False,
                                                                 filepath))
        training_config = _attribute(f, "training_config")
        if compile and training_config is not None:
            _compile(model, json.loads(training_config), custom_objects)
            if "optimizer_weights" in f:
                _restore_optimizer(model, f["optimizer_weights"], filepath)
    return model


def _attribute(f, name):
    value = f.attrs.get(name)
    return value.decode("utf8") if isinstance(value, bytes) else value


def _compile(model, config, custom_objects):
    from numflow.keras import losses, metrics, optimizers

    optimizer = optimizers.deserialize(config["optimizer_config"], custom_objects)
    with serialization.CustomObjectScope(custom_objects):
        model.compile(optimizer, loss=_objects(config.get("loss"), losses.deserialize),
                      metrics=_objects(config.get("metrics"), metrics.deserialize),
                      loss_weights=config.get("loss_weights"),
                      weighted_metrics=_objects(config.get("weighted_metrics"), metrics.deserialize))


def _objects(value, deserialize):
    """``value`` with each ``{"class_name", "config"}`` in it (alone, in a list or per output) made by
    ``deserialize``; names are left for ``compile``."""
    if isinstance(value, dict):
        if "class_name" in value:
            return deserialize(value)
        return {key: _objects(v, deserialize) for key, v in value.items()}
    if isinstance(value, list):
        return [_objects(v, deserialize) for v in value]
    return value


def _restore_optimizer(model, group, filepath):
    """Make the optimizer's weights (as the first training step would) and set them from ``group``; a file whose
    weights do not fit leaves the optimizer fresh, with a warning, as tf-keras."""
    model._train_fetches()
    weights = model.optimizer.weights
    values = [np.asarray(group[name]) for name in hdf5_weights._get_names(group, "weight_names")]
    shapes = [tuple(w.shape.as_list()) for w in weights]
    if len(values) != len(weights) or any(v.shape != s for v, s in zip(values, shapes)):
        warnings.warn(f"Error in loading the saved optimizer state from {filepath}: the optimizer has "
                      f"{len(weights)} weights, the file {len(values)} (or their shapes differ). The model's "
                      "optimizer starts fresh.", stacklevel=3)
        return
    backend.batch_set_value(list(zip(weights, values)))
