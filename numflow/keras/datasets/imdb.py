"""``tf.keras.datasets.imdb``: 50,000 movie reviews as lists of word indices, from ``~/.keras/datasets/imdb.npz``,
shuffled, re-indexed and cut as tf-keras does (``word_sequences``)."""

import numpy as np

from numflow.keras.datasets import word_sequences

FILE_HASH = "69664113be75683a8fe16e3ed0ab59fda8886cb3cd7ada244f7d9544e4676b9f"
WORD_INDEX_HASH = "bfafd718b763782e994055a2d397834f"


def load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2,
              index_from=3, cache_dir=None, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: arrays of word-index lists and 0/1 labels.

    Words rank by frequency; those outside ``[skip_top, num_words)`` become ``oov_char``; with ``maxlen``,
    only the reviews shorter than it are kept (a ValueError if none is left).
    """
    num_words = word_sequences.check_keywords(kwargs) or num_words
    arrays = word_sequences.read(path, "imdb.npz", FILE_HASH, cache_dir)
    rng = np.random.RandomState(seed)
    x_train, labels_train = word_sequences.shuffled(rng, arrays["x_train"], arrays["y_train"])
    x_test, labels_test = word_sequences.shuffled(rng, arrays["x_test"], arrays["y_test"])
    x_train = word_sequences.reindexed(x_train, start_char, index_from)
    x_test = word_sequences.reindexed(x_test, start_char, index_from)
    if maxlen:
        x_train, labels_train = word_sequences.shorter_than(maxlen, x_train, labels_train)
        x_test, labels_test = word_sequences.shorter_than(maxlen, x_test, labels_test)
        if not x_train or not x_test:
            raise ValueError(f"After filtering for sequences shorter than maxlen={maxlen}, no sequence was kept. "
                             "Increase maxlen.")
    xs = word_sequences.within_vocabulary(x_train + x_test, num_words, skip_top, oov_char)
    labels = np.concatenate([labels_train, labels_test])
    split = len(x_train)
    return ((word_sequences.objects(xs[:split]), labels[:split]),
            (word_sequences.objects(xs[split:]), labels[split:]))


def get_word_index(path="imdb_word_index.json"):
    """The word -> index map of the reviews (an index as stored, before ``index_from`` moves it)."""
    return word_sequences.word_index(path, WORD_INDEX_HASH)
