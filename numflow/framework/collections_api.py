"""Module-level functions acting on the default graph: scopes, devices, dependencies, collections."""

import contextlib

from numflow.framework.graph import get_default_graph


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    """The items of collection ``key`` in the default graph, filtered by the ``scope`` regex prefix."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def get_all_collection_keys():
    return get_default_graph().get_all_collection_keys()


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


@contextlib.contextmanager
def name_scope(name, default_name=None, values=None):
    """Open a name scope in the default graph (or the graph of ``values``): ``name`` or ``default_name``."""
    graph = get_default_graph()
    for v in values or ():
        g = getattr(v, "graph", None)
        if g is not None:
            graph = g
            break
    if name is None and default_name is not None:
        name = default_name
    with graph.as_default(), graph.name_scope(name) as scope:
        yield scope
