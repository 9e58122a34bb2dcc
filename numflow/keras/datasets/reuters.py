"""``tf.keras.datasets.reuters``: 11,228 newswires over 46 topics as lists of word indices, from
``~/.keras/datasets/reuters.npz``, shuffled, re-indexed, cut and split as tf-keras does (``word_sequences``)."""

import numpy as np

from numflow.keras.datasets import word_sequences

FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"
LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply", "coffee", "sugar",
    "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas", "cpi", "money-fx", "interest", "gnp",
    "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal", "livestock", "retail", "ipi", "iron-steel",
    "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog",
    "lead",
)


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1,
              oov_char=2, index_from=3, cache_dir=None, **kwargs):
    """``(x_train, y_train), (x_test, y_test)``: arrays of word-index lists and topic labels, the last
    ``test_split`` of the shuffled newswires for testing."""
    num_words = word_sequences.check_keywords(kwargs) or num_words
    arrays = word_sequences.read(path, "reuters.npz", FILE_HASH, cache_dir)
    xs, labels = word_sequences.shuffled(np.random.RandomState(seed), arrays["x"], arrays["y"])
    xs = word_sequences.reindexed(xs, start_char, index_from)
    if maxlen:
        xs, labels = word_sequences.shorter_than(maxlen, xs, labels)
    xs = word_sequences.within_vocabulary(xs, num_words, skip_top, oov_char)
    split = int(len(xs) * (1 - test_split))
    return ((word_sequences.objects(xs[:split]), np.array(labels[:split])),
            (word_sequences.objects(xs[split:]), np.array(labels[split:])))


def get_word_index(path="reuters_word_index.json"):
    """The word -> index map of the newswires (an index as stored, before ``index_from`` moves it)."""
    return word_sequences.word_index(path, WORD_INDEX_HASH)


def get_label_names():
    """The 46 topics' names, in label order."""
    return LABEL_NAMES
