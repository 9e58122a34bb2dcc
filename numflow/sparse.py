"""``tf.sparse``: the sparse tensor type and its basic functions; re-exports only."""

from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.sparse_ops import sparse_placeholder as placeholder
from numflow.ops.sparse_ops import sparse_segment_mean as segment_mean
from numflow.ops.sparse_ops import sparse_segment_sqrt_n as segment_sqrt_n
from numflow.ops.sparse_ops import sparse_segment_sum as segment_sum
from numflow.ops.sparse_ops import sparse_tensor_to_dense as to_dense

__all__ = ["SparseTensor", "placeholder", "segment_mean", "segment_sqrt_n", "segment_sum", "to_dense"]
