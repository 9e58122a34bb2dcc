"""``tf.keras.preprocessing.sequence``: ``pad_sequences``, lists of sequences as one padded numpy array."""

import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre", value=0.0):
    """The ``sequences`` (lists of ids, or of equal-shaped samples) as a ``(len(sequences), maxlen, ...)`` array.

    Parameters
    ----------
    sequences : list of sequences
        Each a list (or array) of steps.
    maxlen : int, optional
        The length of the rows; default: the longest sequence's.
    dtype : str
        The array's dtype (``object`` for strings of any length).
    padding, truncating : {"pre", "post"}
        Pad (with ``value``) or cut a sequence at its start (``"pre"``) or end (``"post"``).
    value : float or str
        The padding value.

    Returns
    -------
    numpy.ndarray

    >>> pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist()
    [[2, 3], [0, 4]]
    >>> pad_sequences([[1], [2, 3]], padding="post", value=-1).tolist()
    [[1, -1], [2, 3]]
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
        maxlen = int(np.max(lengths)) if lengths else 0
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
            padded[index, maxlen - len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return padded
