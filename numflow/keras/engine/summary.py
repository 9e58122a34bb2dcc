"""``model.summary()``: tf-keras' table of layers, output shapes and parameter counts, line for line."""

import numpy as np


def print_summary(model, line_length=None, positions=None, print_fn=None):
    """Print ``model``'s summary as tf-keras does: the short table of a model whose layers form a chain, else
    the table with each layer's inputs (``Connected to``: ``layer[call][output]`` of each tensor it was called
    on)."""
    print_fn = print_fn or print
    nodes = _branching_nodes(model)
    if nodes is None:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.70, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _print_row(header, positions, print_fn)
    print_fn("=" * line_length)
    for layer in model.layers:
        try:
            output_shape = _output_shape(layer) if getattr(model, "_is_graph_network", True) else "multiple"
        except AttributeError:
            output_shape = "multiple"
        params = layer.count_params() if layer.built else "0 (unused)"
        fields = [f"{layer.name} ({type(layer).__name__})", output_shape, params]
        if nodes is not None:
            fields.append(_connections(layer, nodes))
        _print_row(fields, positions, print_fn)
        print_fn(" " * line_length)
    print_fn("=" * line_length)
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    trainable_size, non_trainable_size = _memory(trainable), _memory(non_trainable)
    trainable_count, non_trainable_count = _count(trainable), _count(non_trainable)
    print_fn(f"Total params: {trainable_count + non_trainable_count} "
             f"({_readable(trainable_size + non_trainable_size)})")
    print_fn(f"Trainable params: {trainable_count} ({_readable(trainable_size)})")
    print_fn(f"Non-trainable params: {non_trainable_count} ({_readable(non_trainable_size)})")
    print_fn("_" * line_length)


def _branching_nodes(model):
    """The ids of a functional ``model``'s calls, where they do not form a chain (a depth with two calls, a call
    on two tensors, or a layer called twice); None for a chain, a Sequential or a subclassed model."""
    from numflow.keras.engine import node as node_module

    if type(model).__name__ == "Sequential" or not getattr(model, "_is_graph_network", False):
        return None
    node_depth, _ = node_module.depths(model._nodes)
    at_depth = {}
    for node in model._nodes:
        at_depth.setdefault(node_depth[id(node)], []).append(node)
    members = {id(node) for node in model._nodes}
    chain = all(len(calls) == 1 and len(calls[0].all_inputs) <= 1 for calls in at_depth.values()) and all(
        sum(id(node) in members for node in layer._inbound_nodes) <= 1 for layer in model.layers)
    return None if chain else members


def _connections(layer, nodes):
    """``layer[call][output]`` of each tensor ``layer``'s calls among ``nodes`` were called on."""
    from numflow.keras.engine import node as node_module

    found = []
    for node in layer._inbound_nodes:
        if id(node) not in nodes:
            continue
        for tensor in node.all_inputs:
            made = node_module.history_of(tensor)
            call = made.layer._inbound_nodes.index(made)
            found.append(f"{made.layer.name}[{call}][{[t.name for t in made.outputs].index(tensor.name)}]")
    return found


def _output_shape(layer):
    from numflow.keras.layers.input_layer import InputLayer

    shape = layer.output_shape
    return [shape] if isinstance(layer, InputLayer) else shape


def _print_row(fields, positions, print_fn):
    left = [str(x) for x in fields]
    while any(left):
        line = ""
        for col in range(len(left)):
            start = positions[col - 1] if col > 0 else 0
            space = 2 if col != len(positions) - 1 else 0
            cutoff = positions[col] - start - space
            if col != len(positions) - 1:
                cutoff -= 1
            fit = left[col][:cutoff]
            breaks = [fit.find(x) + len(x) for x in ("),", "},", "],", "',") if fit.find(x) >= 0]
            if breaks:
                cutoff = min(breaks)
                fit = fit[:cutoff]
            if col == 0:
                line += " "
            line += fit + " " * space
            left[col] = left[col][cutoff:]
            line += " " * (positions[col] - len(line))
        print_fn(line)


def _count(weights):
    return int(sum(np.prod(w.shape.as_list()) for w in {id(w): w for w in weights}.values()))


def _memory(weights):
    return int(sum(np.prod(w.shape.as_list()) * w.dtype.base_dtype.size
                   for w in {id(w): w for w in weights}.values()))


def _readable(size):
    for unit in ("Byte", "KB", "MB", "GB", "TB", "PB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"
