"""``tf.sets``: set operations along the last dimension of dense and sparse tensors; re-exports only."""

from numflow.ops.set_ops import set_difference, set_intersection, set_size, set_union
from numflow.ops.set_ops import set_difference as difference
from numflow.ops.set_ops import set_intersection as intersection
from numflow.ops.set_ops import set_size as size
from numflow.ops.set_ops import set_union as union

__all__ = ["difference", "intersection", "set_difference", "set_intersection", "set_size", "set_union", "size",
           "union"]
