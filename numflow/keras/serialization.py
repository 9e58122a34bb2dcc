"""Keras' object serialization: the custom objects (``get_custom_objects``, ``custom_object_scope``,
``register_keras_serializable``) and the ``{"class_name", "config"}`` dicts that losses, metrics,
regularizers, initializers, constraints and activations are written to and read back from.

A config names a class among those the caller knows and the custom objects; nothing read is executed but the
named class's ``from_config`` (or constructor) on the config's plain values.
"""

from numflow.layers import utils

_GLOBAL_CUSTOM_OBJECTS = {}
_SCOPE_STACK = []
_REGISTERED_NAMES = {}  # the object -> its registered name ("Package>Name")


def get_custom_objects():
    """The global dict of custom objects, by name (add to it to make a name known to ``deserialize``)."""
    return _GLOBAL_CUSTOM_OBJECTS


class CustomObjectScope:
    """Within ``with CustomObjectScope({"name": obj})``, ``obj`` is known by ``name`` to deserialization."""

    def __init__(self, *args):
        self.custom_objects = {}
        for objects in args:
            self.custom_objects.update(objects or {})

    def __enter__(self):
        _SCOPE_STACK.append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _SCOPE_STACK.pop()


def custom_object_scope(*args):
    """A :class:`CustomObjectScope` of the dicts ``args``."""
    return CustomObjectScope(*args)


def register_keras_serializable(package="Custom", name=None):
    """A decorator registering a class or function as ``"package>name"`` (``name`` defaults to its own) among the
    custom objects; a ValueError for a name registered twice, as Keras'."""
    if ">" in package:
        raise ValueError("Invalid package name: a package name cannot contain '>'.")

    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered_name = f"{package}>{class_name}"
        if isinstance(arg, type) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        if registered_name in _GLOBAL_CUSTOM_OBJECTS:
            raise ValueError(f"{registered_name} has already been registered to "
                             f"{_GLOBAL_CUSTOM_OBJECTS[registered_name]}")
        _GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        _REGISTERED_NAMES[arg] = registered_name
        return arg

    return decorator


def get_registered_name(obj):
    """The name ``obj`` was registered under, else its own name."""
    return _REGISTERED_NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object ``name`` names among the scopes' custom objects, the global ones, ``custom_objects`` and
    ``module_objects`` (in that order); None if none."""
    for table in (*reversed(_SCOPE_STACK), _GLOBAL_CUSTOM_OBJECTS, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


def serialize_keras_object(instance):
    """``instance`` as tf-keras writes it in TensorFlow 1.x mode: ``{"class_name", "config"}`` for an object with
    ``get_config`` (a registered class by its registered name), a function by its (registered) name, None as
    None."""
    if instance is None:
        return None
    if not hasattr(instance, "get_config"):
        name = get_registered_name(instance)
        if name is None:
            raise ValueError(f"Cannot serialize {instance!r}: it has no get_config() method and no name.")
        return name
    cls = type(instance)
    return {"class_name": _REGISTERED_NAMES.get(cls, cls.__name__), "config": instance.get_config()}


def deserialize_keras_object(identifier, module_objects=None, printable_module_name="object", custom_objects=None):
    """The object ``identifier`` describes: a name (a function, or an instance of the class named), or a
    ``{"class_name", "config"}`` dict (the class's ``from_config(config)``); Keras' ValueError for an unknown
    name."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        if "class_name" not in identifier or "config" not in identifier:
            raise ValueError(f"Improper config format for {identifier}. Expecting python dict contains "
                             "`class_name` and `config` as keys")
        cls = get_registered_object(identifier["class_name"], custom_objects, module_objects)
        if cls is None:
            raise utils.unknown_object_error(printable_module_name, identifier["class_name"])
        config = identifier["config"]
        if hasattr(cls, "from_config"):
            return cls.from_config(config)
        return cls(**config)
    if isinstance(identifier, str):
        found = get_registered_object(identifier, custom_objects, module_objects)
        if found is None:
            raise utils.unknown_object_error(printable_module_name, identifier)
        return found() if isinstance(found, type) else found
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")

