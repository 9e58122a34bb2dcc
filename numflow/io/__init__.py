"""``tf.io``: ``tf.io.gfile``, files on the local disk or any fsspec filesystem."""

from numflow.io import gfile

__all__ = ["gfile"]
