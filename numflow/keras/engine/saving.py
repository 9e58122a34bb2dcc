"""``model.save_weights`` and ``model.load_weights`` in TensorFlow's checkpoint format, as tf-keras writes it from
a TF1 graph: an object-based checkpoint whose keys follow the model's objects, not the variables' names.

A model's weights are under ``layer_with_weights-<i>/<attribute>/.ATTRIBUTES/VARIABLE_VALUE`` (``i`` counting
the layers that have weights, the attribute the layer keeps the variable in: ``kernel``, ``gamma``...; a layer
run by another under its attribute: ``layer_with_weights-1/cell/kernel``, ``.../forward_layer/cell/cells/0/
bias``), its
optimizer's under ``optimizer/<name>/...`` (``iter``, ``learning_rate``...) and its slots under
``<weight's path>/.OPTIMIZER_SLOT/optimizer/<slot>/...``; ``_CHECKPOINTABLE_OBJECT_GRAPH`` holds the object
graph (``TrackableObjectGraph``) that TensorFlow reads them back by. ``.h5`` files are Keras' HDF5 format
(``engine/hdf5_weights.py``).
"""

import os

import numpy as np

from numflow.framework import errors
from numflow.keras import backend
from numflow.keras.engine import hdf5_weights
from numflow.variables.variable import Variable

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VALUE = ".ATTRIBUTES/VARIABLE_VALUE"


def _attributes(layer):
    """``(attribute name, variable, layer or list of layers)`` of each weight ``layer`` keeps and each layer with
    weights it runs (an RNN's ``cell``, a wrapper's ``layer``, stacked cells' ``cells``), in the order it set them."""
    weights = {id(w) for w in layer.weights}
    found = []
    for name, value in vars(layer).items():
        if isinstance(value, Variable) and id(value) in weights:
            found.append((name, value))
        elif _has_weights(value) or (isinstance(value, list) and value and all(map(_has_weights, value))):
            found.append((name, value))
    return found


def _has_weights(value):
    return hasattr(value, "_inbound_nodes") and bool(getattr(value, "weights", None))


class _ObjectGraph:
    """The nodes of the object graph and the checkpoint key of each variable in it."""

    def __init__(self):
        from numflow.protos import trackable_object_graph_pb2

        self.proto = trackable_object_graph_pb2.TrackableObjectGraph()
        self.keys = {}  # checkpoint key -> variable
        self.nodes = {}  # id(variable) -> node id

    def node(self):
        self.proto.nodes.add()
        return len(self.proto.nodes) - 1

    def child(self, parent, name, node_id):
        self.proto.nodes[parent].children.add(node_id=node_id, local_name=name)

    def variable(self, parent, name, variable, key):
        node_id = self.node()
        self.child(parent, name, node_id)
        self.proto.nodes[node_id].attributes.add(name="VARIABLE_VALUE", full_name=variable.op.name, checkpoint_key=key)
        self.keys[key] = variable
        self.nodes[id(variable)] = node_id
        return node_id


def _add_layer(graph, node_id, attributes, path, paths):
    """Add a layer's ``attributes`` under ``node_id``: its variables, and its sublayers' (a list of layers as a node
    whose children are ``0``, ``1``...), noting each variable's path in ``paths``."""
    for name, value in attributes:
        if isinstance(value, Variable):
            paths[id(value)] = f"{path}/{name}"
            graph.variable(node_id, name, value, f"{path}/{name}/{_VALUE}")
            continue
        child = graph.node()
        graph.child(node_id, name, child)
        if isinstance(value, list):
            for i, layer in enumerate(value):
                grandchild = graph.node()
                graph.child(child, str(i), grandchild)
                _add_layer(graph, grandchild, _attributes(layer), f"{path}/{name}/{i}", paths)
        else:
            _add_layer(graph, child, _attributes(value), f"{path}/{name}", paths)


def object_graph(model):
    """The model's :class:`_ObjectGraph`: its layers (as TensorFlow keys them), then its optimizer."""
    graph = _ObjectGraph()
    root = graph.node()
    paths = {}  # id(variable) -> its path
    with_weights = 0
    for index, layer in enumerate(model.layers):
        attributes = _attributes(layer)
        if not attributes:
            continue
        node_id = graph.node()
        graph.child(root, f"layer_with_weights-{with_weights}", node_id)
        graph.child(root, f"layer-{index}", node_id)
        _add_layer(graph, node_id, attributes, f"layer_with_weights-{with_weights}", paths)
        with_weights += 1
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(optimizer, "iterations", None) is not None and hasattr(optimizer, "_slots"):
        node_id = graph.node()
        graph.child(root, "optimizer", node_id)
        graph.variable(node_id, "iter", optimizer.iterations, f"optimizer/iter/{_VALUE}")
        for name in sorted(optimizer._hyper_variables):
            graph.variable(node_id, name, optimizer._hyper_variables[name], f"optimizer/{name}/{_VALUE}")
        for slot_name in optimizer._SLOTS:
            for slot in optimizer._slots.get(slot_name, []):
                primary = paths.get(id(slot._primary))
                if primary is None:
                    continue
                key = f"{primary}/.OPTIMIZER_SLOT/optimizer/{slot_name}/{_VALUE}"
                slot_node = graph.variable(node_id, slot_name, slot, key)
                del graph.proto.nodes[node_id].children[-1]  # a slot is referenced, not a child
                graph.proto.nodes[node_id].slot_variables.add(
                    original_variable_node_id=graph.nodes[id(slot._primary)], slot_name=slot_name,
                    slot_variable_node_id=slot_node)
    graph.child(root, "root", root)
    return graph


def save_weights(model, filepath, save_format=None):
    """Write ``model``'s weights and optimizer to the checkpoint ``filepath`` (see the module docstring)."""
    from numflow.checkpoint.bundle import write_bundle
    from numflow.checkpoint.state import update_checkpoint_state

    if hdf5_weights.is_h5(filepath, save_format):
        hdf5_weights.save_weights(model, filepath)
        return
    filepath = os.fspath(filepath)
    graph = object_graph(model)
    keys = list(graph.keys)
    values = backend.batch_get_value([graph.keys[k] for k in keys])
    tensors = dict(zip(keys, values))
    tensors[OBJECT_GRAPH_KEY] = graph.proto.SerializeToString()
    directory = os.path.dirname(filepath) or "."
    os.makedirs(directory, exist_ok=True)
    write_bundle(filepath, tensors)
    update_checkpoint_state(directory, filepath, [filepath], save_relative_paths=True)


def load_weights(model, filepath, by_name=False, skip_mismatch=False):
    """Set ``model``'s weights (and its optimizer's variables, once made) from the checkpoint ``filepath``.

    A weight the checkpoint lacks is left as it is; one of another shape is a ValueError naming both.
    ``by_name`` and ``skip_mismatch`` apply to HDF5 files, as in tf-keras.
    """
    from numflow.checkpoint.reader import CheckpointReader

    if hdf5_weights.is_h5(filepath):
        hdf5_weights.load_weights(model, filepath, by_name, skip_mismatch)
        return
    filepath = os.fspath(filepath)
    if os.path.isdir(filepath):
        from numflow.checkpoint.state import latest_checkpoint

        filepath = latest_checkpoint(filepath) or filepath
    with CheckpointReader(filepath) as reader:
        if not reader.has_tensor(OBJECT_GRAPH_KEY):
            raise errors.NotFoundError(None, None, f"{filepath} is not an object-based checkpoint written by "
                                       "`save_weights` (it has no _CHECKPOINTABLE_OBJECT_GRAPH).")
        pairs = []
        for key, variable in object_graph(model).keys.items():
            if not reader.has_tensor(key):
                continue
            value = np.asarray(reader.get_tensor(key))
            shape = tuple(variable.shape.as_list())
            if value.shape != shape:
                raise ValueError(f"Shape mismatch for {variable.op.name}: the checkpoint's {key} has shape "
                                 f"{value.shape}, the variable {shape}.")
            pairs.append((variable, value))
    backend.batch_set_value(pairs)
