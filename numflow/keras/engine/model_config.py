"""Models' configs as tf-keras writes them: a Sequential's layers in order (its ``InputLayer`` first when it has
one); a functional model's layers, each with the calls that made its tensors in the model (``inbound_nodes``:
``[layer name, node index, tensor index, kwargs]`` per input), and its input and output layers; and the
models built back from them, each layer by ``tf.keras.layers.deserialize`` (nothing is executed but the named
classes' ``from_config``).
"""

import inspect
import json

from numflow.keras.engine import node as node_module

KERAS_VERSION = "2.21.0"


def functional_config(model):
    """The config of the functional ``model`` (``name``, ``trainable``, ``layers``, ``input_layers``,
    ``output_layers``)."""
    from numflow.keras.layers.layer_serialization import serialize

    members = {id(node) for node in model._nodes}
    node_index = {}  # id(node) -> its index among its layer's calls in the model
    for layer in model.layers:
        kept = [node for node in layer._inbound_nodes if id(node) in members]
        node_index.update((id(node), i) for i, node in enumerate(kept))

    def where(tensor):
        node = node_module.history_of(tensor)
        return [node.layer.name, node_index[id(node)], [t.name for t in node.outputs].index(tensor.name)]

    layers = []
    for layer in model.layers:
        calls = [node for node in layer._inbound_nodes if id(node) in members and node.inputs]
        layers.append({**serialize(layer), "name": layer.name,
                       "inbound_nodes": [[[*where(t), _call_kwargs(node, where)] for t in node.inputs]
                                         for node in calls]})
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": [where(t) for t in model.inputs], "output_layers": [where(t) for t in model.outputs]}


def _call_kwargs(node, where):
    """The arguments of ``node``'s call after the first, by name, as tf-keras writes them beside each input:
    a tensor as ``[layer name, node index, tensor index]`` of the call that made it (a constant one as its
    value), an array as a list."""
    from numflow.framework.graph import constant_value

    names = list(inspect.signature(node.layer.call).parameters)[1:]
    arguments = {**dict(zip(names, node.call_args)), **node.call_kwargs}

    def written(value):
        if hasattr(value, "graph"):
            if node_module.history_of(value) is not None:
                return where(value)
            constant = constant_value(value)
            if constant is None:
                raise ValueError(f"Layer '{node.layer.name}' was called with {value.name} as an argument, a tensor "
                                 "no Keras layer made and not a constant: a model's config cannot name it. Pass it "
                                 "through a layer (an Input, say).")
            value = constant
        if isinstance(value, list | tuple):
            return [written(v) for v in value]
        if isinstance(value, dict):
            return {k: written(v) for k, v in value.items()}
        return value.tolist() if hasattr(value, "tolist") else value

    return {name: written(value) for name, value in arguments.items()}


def _read_call_kwargs(kwargs, tensor):
    """``kwargs`` of a config's call with each ``[layer name, node index, tensor index]`` the tensor it names;
    None while one of those is not made yet."""
    missing = []

    def read(value):
        if (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str)
                and all(isinstance(v, int) for v in value[1:])):
            made = tensor(*value)
            if made is None:
                missing.append(value)
            return made
        if isinstance(value, list):
            return [read(v) for v in value]
        if isinstance(value, dict):
            return {k: read(v) for k, v in value.items()}
        return value

    read_kwargs = {name: read(value) for name, value in kwargs.items()}
    return None if missing else read_kwargs


def functional_from_config(cls, config, custom_objects=None):
    """The functional model ``config`` describes: its layers made, then called in the order their inputs
    allow."""
    from numflow.keras.layers.layer_serialization import deserialize

    layers, pending = {}, []
    for layer_data in config["layers"]:
        layer = deserialize({"class_name": layer_data["class_name"], "config": layer_data["config"]},
                            custom_objects)
        layers[layer_data["name"]] = layer
        pending.extend((layer, node_data) for node_data in layer_data["inbound_nodes"])

    def tensor(name, index, tensor_index):
        if name not in layers:
            raise ValueError(f"The config of model '{config.get('name')}' refers to a layer '{name}' it does not "
                             "list.")
        nodes = layers[name]._inbound_nodes
        return nodes[index].outputs[tensor_index] if index < len(nodes) else None

    while pending:
        waiting = []
        for layer, node_data in pending:
            sources = [tensor(*entry[:3]) for entry in node_data]
            kwargs = _read_call_kwargs(node_data[0][3] if node_data and len(node_data[0]) > 3 else {}, tensor)
            if any(t is None for t in sources) or kwargs is None or any(other is layer for other, _ in waiting):
                waiting.append((layer, node_data))
                continue
            layer(sources[0] if len(sources) == 1 else sources, **kwargs)
        if len(waiting) == len(pending):
            raise ValueError(f"The layers of model '{config.get('name')}' cannot be connected: "
                             f"{sorted({layer.name for layer, _ in waiting})} wait for inputs no layer makes.")
        pending = waiting
    inputs = [tensor(*entry[:3]) for entry in config["input_layers"]]
    outputs = [tensor(*entry[:3]) for entry in config["output_layers"]]
    return cls(inputs=_unpacked(inputs), outputs=_unpacked(outputs), name=config.get("name"),
               trainable=config.get("trainable", True))


def _unpacked(tensors):
    return tensors[0] if len(tensors) == 1 else tensors


def sequential_config(model):
    """The config of the Sequential ``model``: its name and its layers (its ``InputLayer`` first)."""
    from numflow.keras.layers.input_layer import InputLayer
    from numflow.keras.layers.layer_serialization import serialize

    stack = list(model._stack)
    if model.inputs and not any(isinstance(layer, InputLayer) for layer in stack):
        made_by = node_module.history_of(model.inputs[0])
        if made_by is not None and isinstance(made_by.layer, InputLayer):
            stack.insert(0, made_by.layer)
    return {"name": model.name, "layers": [serialize(layer) for layer in stack]}


def sequential_from_config(cls, config, custom_objects=None):
    """The Sequential model ``config`` (or a bare list of layer configs, Keras' older format) describes."""
    from numflow.keras.layers.layer_serialization import deserialize

    layer_configs = config if isinstance(config, list) else config["layers"]
    model = cls(name=None if isinstance(config, list) else config.get("name"))
    for layer_config in layer_configs:
        model.add(deserialize(layer_config, custom_objects))
    return model


def model_to_json(model, **kwargs):
    """``model``'s config as tf-keras' JSON (``class_name``, ``config``, ``keras_version``, ``backend``)."""
    from numflow.keras.layers.layer_serialization import serialize

    return json.dumps({**serialize(model), "keras_version": KERAS_VERSION, "backend": "tensorflow"},
                      default=_json_default, **kwargs)


def model_config_json(model):
    """``model`` as the JSON of ``{"class_name", "config"}`` (an HDF5 file's ``model_config``)."""
    from numflow.keras.layers.layer_serialization import serialize

    return json.dumps(serialize(model), default=_json_default)


def _json_default(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "as_list"):
        return value.as_list()
    if hasattr(value, "name"):  # a DType
        return value.name
    raise TypeError(f"Not JSON Serializable: {value!r}")


def model_from_config(config, custom_objects=None):
    """The model (or layer) ``config`` (``{"class_name", "config"}``) describes."""
    from numflow.keras.layers.layer_serialization import deserialize

    if isinstance(config, list):
        raise TypeError(f"`model_from_config` expects a dictionary, not a list. Received: config={config}. Did "
                        "you meant to use `Sequential.from_config(config)`?")
    return deserialize(config, custom_objects)


def model_from_json(json_string, custom_objects=None):
    """The model the JSON ``json_string`` (``model.to_json()``'s) describes."""
    return model_from_config(json.loads(json_string), custom_objects)
