"""``tf.sparse``: the sparse tensor type and its basic functions; re-exports only."""

from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.sparse_ops import sparse_placeholder as placeholder
from numflow.ops.sparse_ops import sparse_tensor_to_dense as to_dense

__all__ = ["SparseTensor", "placeholder", "to_dense"]
