"""What IMDB and Reuters share: their ``.npz`` of word-index lists read safely, and tf-keras' reshuffle,
re-indexing, length filter and vocabulary cut, with its defaults."""

import json

import numpy as np

from numflow.keras.data_utils import get_file
from numflow.keras.datasets import pickled_arrays

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def read(path, origin_name, file_hash, cache_dir):
    """The arrays of the cached ``.npz`` ``path`` (downloaded from Keras' folder as ``origin_name`` if absent)."""
    return pickled_arrays.load_npz(get_file(path, origin=ORIGIN_FOLDER + origin_name, file_hash=file_hash,
                                            cache_dir=cache_dir))


def shuffled(rng, *arrays):
    """``arrays`` (of one length) in the order of one shuffle of ``rng``, as tf-keras draws it."""
    indices = np.arange(len(arrays[0]))
    rng.shuffle(indices)
    return [a[indices] for a in arrays]


def reindexed(sequences, start_char, index_from):
    """Each sequence's words moved up by ``index_from``, after ``start_char`` unless it is None."""
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in sequences]
    if index_from:
        return [[w + index_from for w in x] for x in sequences]
    return list(sequences)


def shorter_than(maxlen, sequences, labels):
    """The sequences shorter than ``maxlen`` and their labels (tf-keras keeps those, not the truncated rest)."""
    kept = [(x, y) for x, y in zip(sequences, labels) if len(x) < maxlen]
    return [x for x, _ in kept], [y for _, y in kept]


def within_vocabulary(sequences, num_words, skip_top, oov_char):
    """Words outside ``[skip_top, num_words)`` replaced by ``oov_char``, or dropped when it is None;
    ``num_words`` None or 0: the largest index, as tf-keras' (which so drops the largest word itself)."""
    if not num_words:
        num_words = max(max(x) for x in sequences)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in sequences]
    return [[w for w in x if skip_top <= w < num_words] for x in sequences]


def objects(sequences):
    """A 1-D array of the lists, as tf-keras returns them."""
    array = np.empty(len(sequences), dtype=object)
    array[:] = sequences
    return array


def check_keywords(kwargs):
    """tf-keras' old ``nb_words``, or None; a TypeError naming any other unknown keyword."""
    num_words = kwargs.pop("nb_words", None)
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments: {kwargs}.")
    return num_words


def word_index(path, file_hash):
    """The cached JSON word -> index map ``path`` (downloaded from Keras' folder if absent)."""
    with open(get_file(path, origin=ORIGIN_FOLDER + path, file_hash=file_hash)) as f:
        return json.load(f)
