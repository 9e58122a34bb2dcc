"""The record of Keras layer calls that functional models are read back from: for each tensor a layer (or
``Input``) made, the layer and the tensors it was called on.

Tensors are numflow's thin views of an op's output, so the record is keyed by graph and tensor name.
"""

import weakref

from numflow.framework import nest

_history = weakref.WeakKeyDictionary()  # graph -> {tensor name: Node}


class Node:
    """One call of ``layer``: ``inputs`` in, ``outputs`` out (each a flat list of tensors)."""

    __slots__ = ("layer", "inputs", "outputs")

    def __init__(self, layer, inputs, outputs):
        self.layer = layer
        self.inputs = [t for t in nest.flatten(inputs) if hasattr(t, "graph")]
        self.outputs = nest.flatten(outputs)


def record(layer, inputs, outputs):
    """Note that ``layer`` turned ``inputs`` into ``outputs``."""
    node = Node(layer, inputs, outputs)
    for tensor in node.outputs:
        if hasattr(tensor, "graph"):
            _history.setdefault(tensor.graph, {})[tensor.name] = node
    layer._inbound_nodes.append(node)
    return node


def history_of(tensor):
    """The Node that made ``tensor``, None if no Keras layer did."""
    graph = getattr(tensor, "graph", None)
    if graph is None:
        return None
    return _history.get(graph, {}).get(tensor.name)


def layers_between(inputs, outputs):
    """The layers on the paths from ``inputs`` to ``outputs``, each once, in the order they were called (the
    input layers first); a ValueError names an output not reached from the inputs."""
    input_names = {t.name for t in inputs}
    found, order, visiting = {}, [], set()

    def visit(tensor):
        node = history_of(tensor)
        if node is None:
            if tensor.name in input_names:
                return
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor} at layer "
                             f'"{tensor.op.name}". The following previous layers were accessed without issue: '
                             f"{[layer.name for layer in order]}")
        if id(node) in visiting:
            return
        visiting.add(id(node))
        if tensor.name not in input_names:
            for source in node.inputs:
                visit(source)
        if id(node.layer) not in found:
            found[id(node.layer)] = node.layer
            order.append(node.layer)

    for tensor in outputs:
        visit(tensor)
    return order
