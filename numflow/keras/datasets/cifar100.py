"""``tf.keras.datasets.cifar100``: the CIFAR-100 images from the python files in
``~/.keras/datasets/cifar-100-python`` (extracted from ``cifar-100-python.tar.gz``), read without running
the pickles they are (``pickled_arrays.py``)."""

import os

import numpy as np

from numflow.keras import backend
from numflow.keras.data_utils import get_file
from numflow.keras.datasets.cifar10 import load_batch

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine", cache_dir=None):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images (32x32, channels last) and ``(n, 1)`` labels of the
    100 fine classes, or with ``label_mode="coarse"`` the 20 superclasses."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.')
    path = get_file("cifar-100-python", origin=ORIGIN, untar=True, file_hash=FILE_HASH, cache_dir=cache_dir)
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=f"{label_mode}_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=f"{label_mode}_labels")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if backend.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
