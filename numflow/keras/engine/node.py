"""The record of Keras layer calls that functional models are read back from: for each tensor a layer (or
``Input``) made, the layer and the tensors it was called on.

Tensors are numflow's thin views of an op's output, so the record is keyed by graph and tensor name.
"""

import weakref

from numflow.framework import nest

_history = weakref.WeakKeyDictionary()  # graph -> {tensor name: Node}


class Node:
    """One call of ``layer``: ``inputs`` in, ``outputs`` out (each a flat list of tensors)."""

    __slots__ = ("layer", "call_inputs", "inputs", "outputs")

    def __init__(self, layer, inputs, outputs):
        self.layer = layer
        self.call_inputs = inputs
        self.inputs = [t for t in nest.flatten(inputs) if hasattr(t, "graph")]
        self.outputs = nest.flatten(outputs)


def record(layer, inputs, outputs):
    """Note that ``layer`` turned ``inputs`` into ``outputs``.

    A tensor is credited to the outermost layer call that returned it (a layer made of layers, such as
    MultiHeadAttention, over its inner projections), but to the innermost one within a model called as a
    layer (the model's own layers); never to a call that passed one of its inputs through unchanged.
    """
    node = Node(layer, inputs, outputs)
    passed_through = {t.name for t in node.inputs}
    outer_wins = not getattr(layer, "_is_model", False)
    for tensor in node.outputs:
        if hasattr(tensor, "graph") and tensor.name not in passed_through:
            made = _history.setdefault(tensor.graph, {})
            if outer_wins or tensor.name not in made:
                made[tensor.name] = node
    layer._inbound_nodes.append(node)
    return node


def history_of(tensor):
    """The Node that made ``tensor``, None if no Keras layer did."""
    graph = getattr(tensor, "graph", None)
    if graph is None:
        return None
    return _history.get(graph, {}).get(tensor.name)


def nodes_between(inputs, outputs):
    """The calls on the paths from ``inputs`` to ``outputs``, each once, each after the calls it depends on (the
    inputs' layers first); a ValueError names an output that the inputs do not reach."""
    input_names = {t.name for t in inputs}
    order, seen = [], set()

    def visit(tensor):
        node = history_of(tensor)
        if tensor.name in input_names and (node is None or node.inputs):
            return  # a model input that no Input layer made
        if node is None:
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor} at layer "
                             f'"{tensor.op.name}". The following previous layers were accessed without issue: '
                             f"{[n.layer.name for n in order]}")
        if id(node) in seen:
            return
        seen.add(id(node))
        for source in node.inputs:
            visit(source)
        order.append(node)

    for tensor in outputs:
        visit(tensor)
    return order


def layers_by_depth(outputs, nodes):
    """The layers of ``nodes`` (``nodes_between``'s list for ``outputs``) in a functional model's order: the
    deepest first (the inputs' layers), those of one depth in the order a walk back from the outputs first meets
    them, as TensorFlow lists them (and numbers them in checkpoints)."""
    members = {id(node) for node in nodes}

    def parents(node):
        made = (history_of(t) for t in node.inputs)
        return [p for p in made if p is not None and id(p) in members and p is not node]

    first_met, seen = {}, set()

    def walk(node):  # the pre-order of nodes_between's walk
        if id(node) in seen:
            return
        seen.add(id(node))
        first_met.setdefault(id(node.layer), len(first_met))
        for parent in parents(node):
            walk(parent)

    for tensor in outputs:
        node = history_of(tensor)
        if node is not None and id(node) in members:
            walk(node)
    node_depth, layer_depth, layers = {}, {}, {}
    for node in reversed(nodes):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)], node_depth[id(node)] = depth, depth
        layers[id(node.layer)] = node.layer
        for parent in parents(node):
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    order = sorted(layers, key=lambda key: (-layer_depth[key], first_met.get(key, len(first_met))))
    return [layers[key] for key in order]


_masks = weakref.WeakKeyDictionary()  # graph -> {tensor name: its Keras mask}


def set_mask(tensor, mask):
    """Note ``mask`` (a bool tensor, or None) as ``tensor``'s Keras mask (TensorFlow's ``tensor._keras_mask``)."""
    graph = getattr(tensor, "graph", None)
    if graph is not None:
        masks = _masks.setdefault(graph, {})
        if mask is None:
            masks.pop(tensor.name, None)
        else:
            masks[tensor.name] = mask


def mask_of(tensor):
    """The Keras mask of ``tensor``, None if it has none."""
    graph = getattr(tensor, "graph", None)
    return None if graph is None else _masks.get(graph, {}).get(tensor.name)
