"""``tf.keras.preprocessing.sequence``: ``pad_sequences``, lists of sequences as one padded numpy array, and
word2vec's skip-gram pairs (``skipgrams``, ``make_sampling_table``), drawn from Python's ``random`` as
Keras draws them, so the same seed gives the same pairs."""

import random

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


def make_sampling_table(size, sampling_factor=1e-5):
    """word2vec's probability of keeping the word of each rank, for ``skipgrams``' ``sampling_table``:
    ``min(1, sqrt(f / sampling_factor) / (f / sampling_factor))`` with Zipf's law for the frequency
    ``f`` of rank r, ``1 / (r (log r + 0.577) + 1/2 - 1/(12 r))`` (rank 0 counted as 1)."""
    rank = np.arange(size)
    rank[0] = 1
    scaled = sampling_factor * (rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank))
    return np.minimum(1.0, scaled / np.sqrt(scaled))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    """``(couples, labels)``: each word of ``sequence`` (0 is no word) paired with the words within
    ``window_size`` of it (label 1), then ``negative_samples`` times as many pairs of a shuffled first
    word and a random word of ``[1, vocabulary_size)`` (label 0); labels as ``[0, 1]``/``[1, 0]`` when
    ``categorical``. A ``sampling_table`` keeps word w with probability ``sampling_table[w]``. With
    ``shuffle``, couples and labels are shuffled alike (by ``seed``, else a seed drawn from ``random``)."""
    couples, labels = [], []
    positive, negative = ([0, 1], [1, 0]) if categorical else (1, 0)
    for i, word in enumerate(sequence):
        if not word or (sampling_table is not None and sampling_table[word] < random.random()):
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([word, sequence[j]])
                labels.append(list(positive) if categorical else positive)  # a list of its own, as tf-keras
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        firsts = [pair[0] for pair in couples]
        random.shuffle(firsts)
        couples += [[firsts[i % len(firsts)], random.randint(1, int(vocabulary_size - 1))] for i in range(count)]
        labels += [negative] * count
    if shuffle:
        seed = random.randint(0, int(10e6)) if seed is None else seed
        for items in (couples, labels):
            random.seed(seed)
            random.shuffle(items)
    return couples, labels
