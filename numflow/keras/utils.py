"""``tf.keras.utils``: ``to_categorical``, ``to_ordinal``, ``pad_sequences`` and ``normalize`` (numpy, as Keras
computes them), ``get_file``,
``Sequence`` (batches ``fit``, ``evaluate`` and ``predict`` take), ``Progbar``, ``get_source_inputs`` and the
custom objects and serialization of ``serialization.py``."""

import numpy as np

from numflow.keras.data_utils import get_file, validate_file  # noqa: F401  (tf.keras.utils' names)
from numflow.keras.engine.training_loops import Progbar  # noqa: F401
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


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """The ``sequences`` as one array of rows of ``maxlen`` (default: the longest), cut (``truncating``) and filled
    with ``value`` (``padding``) at the start ("pre") or the end ("post"), with Keras' errors.

    >>> pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist()
    [[2, 3], [0, 4]]
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], None
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError as e:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {x}") from e
        if sample_shape is None and len(x):
            sample_shape = np.asarray(x).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = int(np.max(lengths))
    if isinstance(value, str) and dtype is not object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\nYou should set "
                         "`dtype=object` for variable length strings.")
    padded = np.full((len(sequences), maxlen, *sample_shape), value, dtype=dtype)
    for index, sequence in enumerate(sequences):
        if not len(sequence):
            continue
        if truncating not in ("pre", "post"):
            raise ValueError(f'Truncating type "{truncating}" not understood')
        kept = np.asarray(sequence[-maxlen:] if truncating == "pre" else sequence[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {index} is different from "
                             f"expected shape {sample_shape}")
        if padding == "post":
            padded[index, :len(kept)] = kept
        elif padding == "pre":
            padded[index, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return padded


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (zero norms left as 1)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
