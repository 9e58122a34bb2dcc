"""``tf.keras.utils``: ``to_categorical``, ``to_ordinal`` and ``normalize`` (numpy, as Keras computes them),
``get_file``, ``pad_sequences`` (``preprocessing.sequence``'s), ``Sequence`` (batches ``fit``, ``evaluate`` and
``predict`` take), ``Progbar``, ``get_source_inputs`` and the custom objects and serialization of
``serialization.py``."""

import numpy as np

from numflow.keras.data_utils import get_file, validate_file  # noqa: F401  (tf.keras.utils' names)
from numflow.keras.engine.training_loops import Progbar  # noqa: F401
from numflow.keras.preprocessing.sequence import pad_sequences  # noqa: F401
from numflow.keras.serialization import (  # noqa: F401
    CustomObjectScope,
    custom_object_scope,
    deserialize_keras_object,
    get_custom_objects,
    get_registered_name,
    get_registered_object,
    register_keras_serializable,
    serialize_keras_object,
)


class Sequence:
    """Batches by index: ``seq[i]`` is the ``i``-th batch, ``(x, y)`` or ``(x, y, sample_weight)``, of
    ``len(seq)``; ``on_epoch_end`` is called after each epoch. ``fit``, ``evaluate`` and ``predict`` take one as
    their data."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def on_epoch_end(self):
        """Called after each epoch (to shuffle, for instance)."""

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]


def get_source_inputs(tensor, layer=None, node_index=None):
    """The model inputs (``Input`` tensors) ``tensor`` was computed from, each once; ``tensor`` itself if no Keras
    layer made it."""
    from numflow.keras.engine.node import history_of

    del layer, node_index
    node = history_of(tensor)
    if node is None:
        return tensor
    if not node.inputs:
        return [tensor]
    sources = []
    for source in node.inputs:
        found = get_source_inputs(source)
        for candidate in found if isinstance(found, list) else [found]:
            if all(candidate is not t and candidate.name != t.name for t in sources):
                sources.append(candidate)
    return sources


def to_categorical(y, num_classes=None, dtype="float32"):
    """Integer class labels ``y`` as one-hot rows of ``num_classes`` (default: the largest label + 1).

    >>> to_categorical([0, 2, 1], 3).tolist()
    [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
    """
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return np.reshape(categorical, (*input_shape, num_classes))


def to_ordinal(y, num_classes=None, dtype="float32"):
    """Integer labels ``y`` as ordinal rows of ``num_classes - 1``: label ``k`` has its first ``k`` entries 1.

    >>> to_ordinal([0, 2, 1], 3).tolist()
    [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]]
    """
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    ordinal = (np.arange(num_classes - 1)[None, :] < y[:, None]).astype(dtype)
    return np.reshape(ordinal, (*input_shape, num_classes - 1))


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (zero norms left as 1)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
