"""``setdiff1d`` (op ``ListDiff``): the values of one vector missing from another, and where they are.
Kernel: ``numflow_kernels/reference_arrays.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import INDEX_TYPES, _out, _typed_operand, check_rank


@declare("ListDiff")
def _list_diff_infer(op):
    x, y = op.inputs
    check_rank(x.shape, 1)
    check_rank(y.shape, 1)
    index_dtype = op._attrs["out_idx"]
    if index_dtype not in INDEX_TYPES:
        raise TypeError(f"Value passed to parameter 'out_idx' has DataType {index_dtype.name} not in list of "
                        "allowed values: int32, int64")
    return [(x.dtype, TensorShape([None])), (index_dtype, TensorShape([None]))]


def setdiff1d(x, y, index_dtype=dtypes.int32, name=None):
    """The values of the 1-D ``x`` not in ``y``, in ``x``'s order (repeats kept), and their positions in ``x``.

    >>> import numflow as tf
    >>> out, idx = tf.setdiff1d([1, 2, 3, 4, 5, 2], [2, 4])
    >>> [a.tolist() for a in tf.Session().run([out, idx])]
    [[1, 3, 5], [0, 2, 4]]
    """
    with get_default_graph().name_scope(name or "ListDiff") as scope:
        x = convert_to_tensor(x, name="x")
        y = _typed_operand("ListDiff", y, x.dtype.base_dtype, "y")
        return tuple(_out("ListDiff", [x, y], {"out_idx": dtypes.as_dtype(index_dtype)}, name=scope))


def listdiff(x, y, out_idx=None, name=None):
    """TensorFlow 1's spelling of :func:`setdiff1d`, ``out_idx`` its ``index_dtype``."""
    return setdiff1d(x, y, out_idx or dtypes.int32, name)
