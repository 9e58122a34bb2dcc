"""The record of Keras layer calls that functional models are read back from: for each tensor a layer (or
``Input``) made, the layer and the tensors it was called on.

Tensors are numflow's thin views of an op's output, so the record is keyed by graph and tensor name.
"""

import weakref

from numflow.framework import nest

_history = weakref.WeakKeyDictionary()  # graph -> {tensor name: Node}


class Node:
    """One call of ``layer``: ``inputs`` (its first argument) and the arguments after it in, ``outputs`` out.

    ``call_args``/``call_kwargs``: the later arguments as given (tensors among them: MultiHeadAttention's
    ``value`` and ``key``, say). ``inputs``: the tensors of the first argument; ``all_inputs``: those and
    the later arguments' tensors that Keras layers made (others are constants to the model, as in
    tf-keras); ``outputs``: the tensors made (flat lists).
    """

    __slots__ = ("layer", "call_inputs", "call_args", "call_kwargs", "inputs", "all_inputs", "outputs")

    def __init__(self, layer, inputs, outputs, args=(), kwargs=None):
        self.layer = layer
        self.call_inputs = inputs
        self.call_args = tuple(args)
        self.call_kwargs = dict(kwargs or {})
        self.inputs = [t for t in nest.flatten(inputs) if hasattr(t, "graph")]
        self.all_inputs = self.inputs + [t for t in _tensors([self.call_args, self.call_kwargs])
                                         if history_of(t) is not None]
        self.outputs = nest.flatten(outputs)

    def called_on(self, tensors):
        """``layer``'s arguments of this call, each tensor replaced by ``tensors[its name]`` where there is
        one: ``(inputs, args, kwargs)`` to call it again on other tensors."""

        def swap(value):
            if hasattr(value, "graph"):
                return tensors.get(value.name, value)
            if isinstance(value, list | tuple):
                items = [swap(v) for v in value]
                return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
            if isinstance(value, dict):
                return {k: swap(v) for k, v in value.items()}
            return value

        return nest.map_structure(swap, self.call_inputs), swap(list(self.call_args)), swap(self.call_kwargs)


def _tensors(structure):
    """The tensors in ``structure`` (lists, tuples and dicts of anything; a dict's values in its order)."""
    if hasattr(structure, "graph"):
        return [structure]
    if isinstance(structure, dict):
        structure = list(structure.values())
    if isinstance(structure, list | tuple):
        return [t for item in structure for t in _tensors(item)]
    return []


def record(layer, inputs, outputs, args=(), kwargs=None):
    """Note that ``layer`` turned ``inputs`` (and the later arguments ``args`` and ``kwargs``) into ``outputs``.

    A tensor is credited to the outermost layer call that returned it (a layer made of layers, such as
    MultiHeadAttention, over its inner projections), but to the innermost one within a model called as a
    layer (the model's own layers); never to a call that passed one of its inputs through unchanged.
    """
    node = Node(layer, inputs, outputs, args, kwargs)
    passed_through = {t.name for t in node.all_inputs}
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
        for source in node.all_inputs:
            visit(source)
        order.append(node)

    for tensor in outputs:
        visit(tensor)
    return order


def depths(nodes):
    """``(node depths, layer depths)``, by ``id``, of ``nodes`` (``nodes_between``'s list): a call making an
    output is at depth 0, one whose outputs a call reads one deeper than it; a layer called several times is
    at its deepest call's depth, and its later calls no shallower (as tf-keras numbers them)."""
    node_depth, layer_depth = {}, {}
    members = {id(node) for node in nodes}
    for node in reversed(nodes):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
        layer_depth[id(node.layer)], node_depth[id(node)] = depth, depth
        for parent in parents(node, members):
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    return node_depth, layer_depth


def parents(node, members):
    """The calls among ``members`` (ids) that made ``node``'s inputs, in the order of its arguments."""
    made = (history_of(t) for t in node.all_inputs)
    return [p for p in made if p is not None and id(p) in members and p is not node]


def layers_by_depth(outputs, nodes):
    """The layers of ``nodes`` (``nodes_between``'s list for ``outputs``) in a functional model's order: the
    deepest first (the inputs' layers), those of one depth in the order a walk back from the outputs first meets
    them, as TensorFlow lists them (and numbers them in checkpoints)."""
    members = {id(node) for node in nodes}
    first_met, seen = {}, set()

    def walk(node):  # the pre-order of nodes_between's walk
        if id(node) in seen:
            return
        seen.add(id(node))
        first_met.setdefault(id(node.layer), len(first_met))
        for parent in parents(node, members):
            walk(parent)

    for tensor in outputs:
        node = history_of(tensor)
        if node is not None and id(node) in members:
            walk(node)
    _, layer_depth = depths(nodes)
    layers = {id(node.layer): node.layer for node in nodes}
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
