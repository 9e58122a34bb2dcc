"""``save_weights`` and ``load_weights`` in Keras' HDF5 format (a path ending in ``.h5``, ``.hdf5`` or
``.keras``, or ``save_format="h5"``), as tf-keras writes and reads it; needs h5py (the ``h5`` extra).

The file's root has the attributes ``layer_names`` (every layer of the model, in order), ``backend``
and ``keras_version``; a group per layer (created in the order of their names), whose attribute
``weight_names`` lists its weights' names (``dense/kernel:0``), trainable ones first, each a dataset
at that path inside the group; and ``top_level_model_weights``, the same for the weights the model
keeps itself. Loading matches the layers that have weights to the file's in order, or with
``by_name`` a layer to the file's group of its name; it checks every count and shape before it
assigns anything, so a file that does not fit changes no weight.
"""

import os

import numpy as np

from numflow.keras import backend

H5_SUFFIXES = (".h5", ".hdf5", ".keras")
KERAS_VERSION = "2.21.0"
# HDF5 keeps an object's attributes in its header, which holds 64 KiB: longer lists go in chunks.
_HEADER_LIMIT = 64512


def is_h5(filepath, save_format=None):
    """Whether ``filepath`` (with ``save_format``) names a Keras HDF5 file."""
    if save_format is not None:
        return save_format in ("h5", "keras")
    return str(filepath).endswith(H5_SUFFIXES)


def _h5py(what):
    try:
        import h5py
    except ImportError:
        raise ImportError(f"`{what}` requires h5py to read and write .h5 files: install it "
                          "(`pip install numflow[h5]`), or use the TensorFlow format (a path without .h5).") from None
    return h5py


def _layer_weights(layer):
    """The weights as the file orders them: trainable, then the others."""
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def _set_names(group, name, names):
    encoded = np.array([n.encode("utf8") for n in names]) if names else np.array([], dtype=np.float64)
    chunks = 1
    while encoded.nbytes > _HEADER_LIMIT * chunks:
        chunks += 1
    if chunks == 1:
        group.attrs[name] = encoded
    else:
        for index, chunk in enumerate(np.array_split(encoded, chunks)):
            group.attrs[f"{name}{index}"] = chunk


def _get_names(group, name):
    if name in group.attrs:
        values = list(group.attrs[name])
    else:
        values, index = [], 0
        while f"{name}{index}" in group.attrs:
            values.extend(group.attrs[f"{name}{index}"])
            index += 1
    return [v.decode("utf8") if isinstance(v, bytes) else str(v) for v in values]


def _write_weights(group, weights):
    names = [w.name for w in weights]
    _set_names(group, "weight_names", names)
    for name, value in zip(names, backend.batch_get_value(weights)):
        group.create_dataset(name, data=np.asarray(value))


def save_weights(model, filepath):
    """Write ``model``'s weights to the HDF5 file ``filepath`` (see the module's docstring)."""
    h5py = _h5py("save_weights")
    filepath = os.fspath(filepath)
    os.makedirs(os.path.dirname(filepath) or ".", exist_ok=True)
    with h5py.File(filepath, "w") as f:
        write_model_weights(f, model)


def write_model_weights(f, model):
    """Write ``model``'s weights into the open HDF5 group ``f``."""
    _set_names(f, "layer_names", [layer.name for layer in model.layers])
    f.attrs["backend"] = b"tensorflow"
    f.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    for layer in sorted(model.layers, key=lambda layer: layer.name):
        _write_weights(f.create_group(layer.name), _layer_weights(layer))
    _write_weights(f.create_group("top_level_model_weights"),
                   list(model._trainable_weights) + list(model._non_trainable_weights))


def load_weights(model, filepath, by_name=False, skip_mismatch=False):
    """Set ``model``'s weights from the HDF5 file ``filepath``; all of them or, on a mismatch, none."""
    h5py = _h5py("load_weights")
    filepath = os.fspath(filepath)
    if not os.path.exists(filepath):
        from numflow.framework import errors

        raise errors.NotFoundError(None, None, f"Unable to open {filepath}: no such file")
    with h5py.File(filepath, "r") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = f["model_weights"]  # a whole model's file
        pairs = read_model_weights(f, model, by_name, skip_mismatch, filepath)
    backend.batch_set_value(pairs)


def _values(group):
    return [np.asarray(group[name]) for name in _get_names(group, "weight_names")]


def read_model_weights(f, model, by_name, skip_mismatch, filepath):
    """``(variable, value)`` for each of ``model``'s weights the open HDF5 group ``f`` gives, checked."""
    pairs = []
    if by_name:
        layers_named = {}
        for layer in model.layers:
            layers_named.setdefault(layer.name, []).append(layer)
        for index, name in enumerate(_get_names(f, "layer_names")):
            values = _values(f[name])
            for layer in layers_named.get(name, []):
                pairs += _matched(f"layer #{index} (named {layer.name})", _layer_weights(layer), values,
                                  skip_mismatch, filepath)
    else:
        layers = [layer for layer in model.layers if _layer_weights(layer)]
        names = [name for name in _get_names(f, "layer_names") if _get_names(f[name], "weight_names")]
        if len(names) != len(layers):
            raise ValueError(f"Layer count mismatch when loading weights from {filepath}: the model has "
                             f"{len(layers)} layers with weights, the file {len(names)}.")
        for index, (layer, name) in enumerate(zip(layers, names)):
            pairs += _matched(f"layer #{index} (named {layer.name} in the model, {name} in the file)",
                              _layer_weights(layer), _values(f[name]), False, filepath)
    if "top_level_model_weights" in f:
        own = list(model._trainable_weights) + list(model._non_trainable_weights)
        pairs += _matched("the model's own weights", own, _values(f["top_level_model_weights"]),
                          skip_mismatch, filepath)
    return pairs


def _matched(what, weights, values, skip_mismatch, filepath):
    if len(weights) != len(values):
        if skip_mismatch:
            return []
        raise ValueError(f"Weight count mismatch for {what} in {filepath}: it expects {len(weights)} weight(s), "
                         f"the file has {len(values)}.")
    pairs = []
    for weight, value in zip(weights, values):
        expected = tuple(weight.shape.as_list())
        if expected != value.shape:
            if skip_mismatch:
                continue
            raise ValueError(f"Shape mismatch in {what} for weight {weight.name}: it expects shape {expected}, "
                             f"the file has {value.shape}.")
        pairs.append((weight, value))
    return pairs
