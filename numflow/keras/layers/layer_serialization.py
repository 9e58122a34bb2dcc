"""``tf.keras.layers.serialize`` and ``deserialize``: a layer as ``{"class_name", "config"}`` and back, by the
names of Keras' layers and the custom objects (nothing read is executed but the named class's
``from_config``)."""

from numflow.keras import serialization


def serialize(layer):
    """``layer`` as ``{"class_name", "config"}`` (a registered class by its registered name, a functional model
    as "Functional")."""
    from numflow.keras.engine.training import Model

    serialized = serialization.serialize_keras_object(layer)
    if type(layer) is Model:
        serialized["class_name"] = "Functional"
    return serialized


def deserialize(config, custom_objects=None):
    """The layer ``config`` describes, its class named among Keras' layers and models, ``custom_objects`` and
    the custom objects in scope (which the layers inside it, a wrapper's or a model's, see too); Keras'
    ValueError for an unknown class."""
    from numflow.keras import layers, models

    module_objects = {**_classes(layers), **_classes(models), "Functional": models.Model}
    with serialization.CustomObjectScope(custom_objects):
        if isinstance(config, dict) and config.get("class_name") in ("Functional", "Model", "Sequential"):
            cls = module_objects[config["class_name"]]
            return cls.from_config(config["config"], custom_objects)
        return serialization.deserialize_keras_object(config, module_objects, "layer")


def _classes(module):
    return {name: value for name, value in vars(module).items() if isinstance(value, type)}
