"""``tf.keras.datasets.cifar10``: the CIFAR-10 images from the python batches in
``~/.keras/datasets/cifar-10-batches-py`` (extracted from ``cifar-10-python.tar.gz``), read without running
the pickles they are (``pickled_arrays.py``)."""

import os

import numpy as np

from numflow.keras import backend
from numflow.keras.data_utils import get_file
from numflow.keras.datasets import pickled_arrays

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
FILE_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"


def load_batch(fpath, label_key="labels"):
    """``(data, labels)`` of one batch file: uint8 images of shape ``(n, 3, 32, 32)`` and a list of labels."""
    with open(fpath, "rb") as f:
        batch = pickled_arrays.loads(f.read())
    batch = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in batch.items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]


def load_data():
    """``(x_train, y_train), (x_test, y_test)``: uint8 images (32x32, channels last) and ``(n, 1)`` labels, the five
    training batches in order, then the test batch."""
    path = get_file("cifar-10-batches-py", origin=ORIGIN, untar=True, file_hash=FILE_HASH)
    batches = [load_batch(os.path.join(path, f"data_batch_{i}")) for i in range(1, 6)]
    x_train = np.concatenate([data for data, _ in batches]).astype("uint8")
    y_train = np.concatenate([np.asarray(labels, dtype="uint8") for _, labels in batches])
    x_test, y_test = load_batch(os.path.join(path, "test_batch"))
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(np.asarray(y_test), (len(y_test), 1))
    if backend.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test.astype(x_train.dtype), y_test.astype(y_train.dtype))
