"""``tf.keras.models``: ``Model`` and ``Sequential``, ``clone_model``, ``model_from_json``/``model_from_config``,
and ``save_model``/``load_model`` in tf-keras' HDF5 format (``engine/model_h5.py``; no SavedModel).

``clone_model`` makes a new model of new layers, each made again with the arguments its original was made with
(and its name), its weights new and freshly initialized, as tf-keras' does from the layers' configs: a
Sequential's layers stacked again; a functional model's layers called again in order on new ``Input`` s.
"""

import os

from numflow.keras.engine import hdf5_weights, model_h5
from numflow.keras.engine.model_config import model_from_config, model_from_json
from numflow.keras.engine.sequential import Sequential
from numflow.keras.engine.training import Model

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_config", "model_from_json", "save_model"]


def _clone_layer(layer):
    args, kwargs = getattr(layer, "_constructor_arguments", ((), {}))
    return type(layer)(*args, **{**kwargs, "name": layer.name})


def clone_model(model, input_tensors=None, clone_function=None):
    """A copy of the functional or Sequential ``model`` with new layers (``clone_function(layer)``, by default the
    layer made again) and new weights; on ``input_tensors`` when given (a list, one per input)."""
    from numflow.keras.layers.input_layer import Input, InputLayer

    clone_function = clone_function or _clone_layer
    if isinstance(model, Sequential):
        layers = [clone_function(layer) for layer in model.layers]
        if input_tensors is None:
            return Sequential(layers, name=model.name)
        clone = Sequential(name=model.name)
        clone.add(InputLayer(input_tensor=list(input_tensors)[0], name=f"{model.layers[0].name}_input"))
        for layer in layers:
            clone.add(layer)
        return clone
    if not model._is_graph_network:
        raise ValueError("Expected `model` argument to be a functional `Model` instance, but got a subclassed "
                         f"model instead: {model}")
    new_inputs = list(input_tensors) if input_tensors is not None else [
        Input(batch_shape=tuple(t.shape.as_list()), dtype=t.dtype.base_dtype.name, name=t.op.name)
        for t in model.inputs]
    tensors = {old.name: new for old, new in zip(model.inputs, new_inputs)}
    clones = {}
    from numflow.framework import nest

    for node in model._nodes:
        if not node.inputs:  # an input layer's: its tensor is one of the new inputs
            continue
        if id(node.layer) not in clones:
            clones[id(node.layer)] = clone_function(node.layer)
        first, args, kwargs = node.called_on(tensors)
        for old, new in zip(node.outputs, nest.flatten(clones[id(node.layer)](first, *args, **kwargs))):
            tensors[old.name] = new
    outputs = nest.map_structure(lambda t: tensors[t.name], model._nested_outputs)
    return Model(new_inputs if len(new_inputs) > 1 else new_inputs[0], outputs, name=model.name)


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None, **kwargs):
    """Write ``model`` whole to ``filepath`` in tf-keras' HDF5 format (a path ending in ``.h5``/``.hdf5``, or
    ``save_format="h5"``; see ``engine/model_h5.py``); NotImplementedError for TensorFlow's SavedModel format."""
    del kwargs
    if not hdf5_weights.is_h5(filepath, save_format) or str(filepath).endswith(".keras"):
        raise NotImplementedError(f"numflow cannot save a model to {str(filepath)!r} in the "
                                  f"{save_format or 'SavedModel'} format: it writes tf-keras' HDF5 format; give a "
                                  "path ending in .h5 (or save_format='h5').")
    model_h5.save_model(model, filepath, overwrite, include_optimizer)


def load_model(filepath, custom_objects=None, compile=True, options=None):  # noqa: A002  (Keras' name)
    """The model saved whole to the HDF5 file ``filepath`` (tf-keras' or :func:`save_model`'s), with
    ``custom_objects`` known; NotImplementedError for a SavedModel."""
    del options
    if os.path.isdir(os.fspath(filepath)) or not hdf5_weights.is_h5(filepath) and not _is_hdf5(filepath):
        raise NotImplementedError(f"numflow cannot load a model from {str(filepath)!r}: it reads tf-keras' HDF5 "
                                  "format (a .h5 file, written by model.save('model.h5')), not a SavedModel.")
    return model_h5.load_model(filepath, custom_objects, compile)


def _is_hdf5(filepath):
    """Whether ``filepath`` is an HDF5 file by its signature (a file saved as HDF5 under another name)."""
    try:
        with open(filepath, "rb") as f:
            return f.read(8) == b"\x89HDF\r\n\x1a\n"
    except OSError:
        return False
