"""``tf.keras.datasets.mnist``: the MNIST digits from ``~/.keras/datasets/mnist.npz``."""

import numpy as np

from numflow.keras.data_utils import get_file

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz"):
    """``(x_train, y_train), (x_test, y_test)``: uint8 images of 28x28 and their labels (60000 and 10000)."""
    path = get_file(path, origin=ORIGIN, file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
