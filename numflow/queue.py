"""``tf.queue``: the queue classes under their TensorFlow 2 names."""

from numflow.ops.queue_ops import FIFOQueue, PaddingFIFOQueue, QueueBase, RandomShuffleQueue

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "QueueBase", "RandomShuffleQueue"]
