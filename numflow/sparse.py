"""``tf.sparse``: the sparse tensor type and its functions; re-exports only."""

from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops.sparse_cross_ops import sparse_cross as cross
from numflow.ops.sparse_cross_ops import sparse_cross_hashed as cross_hashed
from numflow.ops.sparse_math_ops import sparse_add as add
from numflow.ops.sparse_math_ops import sparse_reduce_max as reduce_max
from numflow.ops.sparse_math_ops import sparse_reduce_max_sparse as reduce_max_sparse
from numflow.ops.sparse_math_ops import sparse_reduce_sum as reduce_sum
from numflow.ops.sparse_math_ops import sparse_reduce_sum_sparse as reduce_sum_sparse
from numflow.ops.sparse_math_ops import sparse_reorder as reorder
from numflow.ops.sparse_math_ops import sparse_reshape as reshape
from numflow.ops.sparse_math_ops import sparse_tensor_dense_matmul as matmul
from numflow.ops.sparse_math_ops import sparse_tensor_dense_matmul as sparse_dense_matmul
from numflow.ops.sparse_more_ops import from_dense
from numflow.ops.sparse_more_ops import sparse_expand_dims as expand_dims
from numflow.ops.sparse_more_ops import sparse_eye as eye
from numflow.ops.sparse_more_ops import sparse_mask as mask
from numflow.ops.sparse_more_ops import sparse_merge as merge
from numflow.ops.sparse_more_ops import sparse_reset_shape as reset_shape
from numflow.ops.sparse_more_ops import sparse_softmax as softmax
from numflow.ops.sparse_more_ops import sparse_to_indicator as to_indicator
from numflow.ops.sparse_more_ops import sparse_transpose as transpose
from numflow.ops.sparse_ops import sparse_placeholder as placeholder
from numflow.ops.sparse_ops import sparse_segment_mean as segment_mean
from numflow.ops.sparse_ops import sparse_segment_sqrt_n as segment_sqrt_n
from numflow.ops.sparse_ops import sparse_segment_sum as segment_sum
from numflow.ops.sparse_ops import sparse_tensor_to_dense as to_dense
from numflow.ops.sparse_struct_ops import sparse_concat as concat
from numflow.ops.sparse_struct_ops import sparse_fill_empty_rows as fill_empty_rows
from numflow.ops.sparse_struct_ops import sparse_maximum as maximum
from numflow.ops.sparse_struct_ops import sparse_minimum as minimum
from numflow.ops.sparse_struct_ops import sparse_retain as retain
from numflow.ops.sparse_struct_ops import sparse_slice as slice  # noqa: A004 - TensorFlow's name
from numflow.ops.sparse_struct_ops import sparse_split as split

__all__ = ["SparseTensor", "add", "concat", "cross", "cross_hashed", "expand_dims", "eye", "fill_empty_rows",
           "from_dense", "mask", "matmul", "maximum", "merge", "minimum", "placeholder", "reduce_max",
           "reduce_max_sparse", "reduce_sum", "reduce_sum_sparse", "reorder", "reset_shape", "reshape", "retain",
           "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax", "sparse_dense_matmul", "split",
           "to_dense", "to_indicator", "transpose"]
