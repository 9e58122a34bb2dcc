"""``tf.keras.models``: ``Model`` and ``Sequential``, ``clone_model``, and ``save_model``/``load_model``, which
numflow refuses with a clear error (it saves weights only: ``Model.save_weights``).

``clone_model`` makes a new model of new layers, each made again with the arguments its original was made with
(and its name), its weights new and freshly initialized, as tf-keras' does from the layers' configs: a
Sequential's layers stacked again; a functional model's layers called again in order on new ``Input`` s.
"""

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
        args = nest.map_structure(lambda t: tensors.get(t.name, t) if hasattr(t, "name") else t, node.call_inputs)
        for old, new in zip(node.outputs, nest.flatten(clones[id(node.layer)](args))):
            tensors[old.name] = new
    outputs = nest.map_structure(lambda t: tensors[t.name], model._nested_outputs)
    return Model(new_inputs if len(new_inputs) > 1 else new_inputs[0], outputs, name=model.name)


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None, **kwargs):
    """Refused: numflow writes no SavedModel, ``.keras`` or HDF5 model files (h5py is not one of its
    dependencies); ``model.save_weights`` writes a TensorFlow checkpoint of the weights."""
    del model, overwrite, include_optimizer, kwargs
    raise NotImplementedError(f"numflow cannot save a whole model to {str(filepath)!r} (format "
                              f"{save_format or 'SavedModel'}): it writes no SavedModel, .keras or HDF5 model files. "
                              "Save the weights with model.save_weights(path) (a TensorFlow checkpoint) and build the "
                              "model again in code.")


def load_model(filepath, custom_objects=None, compile=True, options=None):  # noqa: A002  (Keras' name)
    """Refused: see :func:`save_model`; ``model.load_weights`` reads a TensorFlow checkpoint of the weights."""
    del custom_objects, compile, options
    raise NotImplementedError(f"numflow cannot load a whole model from {str(filepath)!r}: it reads no SavedModel, "
                              ".keras or HDF5 model files. Build the model in code and read its weights with "
                              "model.load_weights(path) (a TensorFlow checkpoint).")
