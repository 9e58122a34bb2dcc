"""``tf.lookup.experimental``: the mutable tables; re-exports only."""

from numflow.ops.mutable_lookup_ops import DenseHashTable, MutableHashTable

__all__ = ["DenseHashTable", "MutableHashTable"]
