"""Small fakes of Keras' IMDB and Reuters files (arrays of word-index lists, as ``np.savez`` writes them) and the
``load_data`` calls compared with tf-keras' (``data/make_tf_keras_datasets_golden.py`` writes tf-keras' results)."""

import numpy as np

IMDB_CALLS = {
    "defaults": {},
    "num_words_skip_top": {"num_words": 12, "skip_top": 2},
    "maxlen_seed": {"maxlen": 6, "seed": 7},
    "no_start_no_oov": {"start_char": None, "oov_char": None, "num_words": 10},
    "index_from_5": {"index_from": 5, "start_char": 4},
}
REUTERS_CALLS = {
    "defaults": {},
    "test_split_num_words": {"test_split": 0.5, "num_words": 9, "skip_top": 1},
    "maxlen": {"maxlen": 5},
}


def _sequences(rng, count):
    array = np.empty(count, dtype=object)
    array[:] = [[int(w) for w in rng.randint(1, 20, rng.randint(1, 9))] for _ in range(count)]
    return array


def write_imdb(path):
    rng = np.random.RandomState(0)
    np.savez(path, x_train=_sequences(rng, 9), y_train=rng.randint(0, 2, 9),
             x_test=_sequences(rng, 7), y_test=rng.randint(0, 2, 7))


def write_reuters(path):
    rng = np.random.RandomState(1)
    np.savez(path, x=_sequences(rng, 11), y=rng.randint(0, 46, 11))


def as_lists(result):
    (x_train, y_train), (x_test, y_test) = result
    return {"x_train": [list(map(int, x)) for x in x_train], "y_train": [int(y) for y in y_train],
            "x_test": [list(map(int, x)) for x in x_test], "y_test": [int(y) for y in y_test]}
