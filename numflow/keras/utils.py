"""``tf.keras.utils``: ``to_categorical`` and ``normalize`` (numpy, as Keras computes them), ``get_file`` and
``pad_sequences``."""

import numpy as np

from numflow.keras.data_utils import get_file, validate_file  # noqa: F401  (tf.keras.utils' names)
from numflow.keras.preprocessing.sequence import pad_sequences  # noqa: F401


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


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (zero norms left as 1)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
