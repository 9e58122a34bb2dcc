"""``tf.keras.datasets``: mnist, fashion_mnist, cifar10, cifar100, imdb, reuters and boston_housing, read
from Keras' cache (``~/.keras/datasets``) in Keras' file names and formats, downloaded from Keras' URLs only
when absent."""

from numflow.keras.datasets import boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters

__all__ = ["boston_housing", "cifar10", "cifar100", "fashion_mnist", "imdb", "mnist", "reuters"]
