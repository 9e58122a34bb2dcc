"""``tf.keras.datasets.boston_housing``: the Boston house prices from ``~/.keras/datasets/boston_housing.npz``,
shuffled with ``seed`` and split as Keras splits them."""

import numpy as np

from numflow.keras.data_utils import get_file

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz"
FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    """``(x_train, y_train), (x_test, y_test)``: 13 features and a price per house, the last ``test_split`` of
    them (after a shuffle by ``np.random.RandomState(seed)``) for testing."""
    if not 0 <= test_split < 1:
        raise ValueError(f"test_split must be in [0, 1), not {test_split}")
    path = get_file(path, origin=ORIGIN, file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    split = int(len(x) * (1 - test_split))
    return (np.array(x[:split]), np.array(y[:split])), (np.array(x[split:]), np.array(y[split:]))
