"""Reading numbers another way: ``tf.unravel_index`` (op ``UnravelIndex``: flat indices as coordinates)
and ``tf.bitcast`` (op ``Bitcast``: the same bytes as another type), with TensorFlow's static shapes and
messages. Kernels: ``numflow_kernels/reference_counting.py``.

>>> import numflow as tf
>>> with tf.Graph().as_default():
...     tf.Session().run(tf.unravel_index([1, 5], [3, 4])).tolist()
[[0, 1], [1, 1]]
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank

_INDEX_TYPES = (dtypes.int32, dtypes.int64)
_BITCAST_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int64, dtypes.int32, dtypes.uint8,
                  dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.int8, dtypes.int16)
_BITCAST_NAMES = ("bfloat16, float16, float32, float64, int64, int32, uint8, uint16, uint32, uint64, int8, int16, "
                  "complex64, complex128, qint8, quint8, qint16, quint16, qint32")


@declare("UnravelIndex")
def _unravel_index_infer(op):
    indices, dims = op.inputs
    check_dtype(indices, _INDEX_TYPES, "indices")
    check_rank(dims.shape, 1)
    rank = dims.shape.dims[0].value if dims.shape.ndims == 1 else None
    if indices.shape.ndims == 0:
        return [(indices.dtype.base_dtype, TensorShape([rank]))]
    if indices.shape.ndims == 1:
        return [(indices.dtype.base_dtype, TensorShape([rank, indices.shape.dims[0].value]))]
    return [(indices.dtype.base_dtype, TensorShape(None))]


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape ``dims`` of the flat (row-major) ``indices``: one row per
    dimension, one column per index (a vector for a scalar index).

    Parameters
    ----------
    indices : int32 or int64 Tensor
        A scalar or vector of flat indices, each in ``[0, prod(dims))``.
    dims : Tensor
        The shape, of ``indices``' type.
    name : str, optional
        The op's name (default ``UnravelIndex``).
    """
    with get_default_graph().name_scope(name or "UnravelIndex") as scope:
        indices = convert_to_tensor(indices, name="indices", preferred_dtype=dtypes.int32)
        check_dtype(indices, _INDEX_TYPES, "indices")
        dims = convert_to_tensor(dims, dtype=indices.dtype.base_dtype, name="dims")
        return _out("UnravelIndex", [indices, dims], name=scope)[0]


@declare("Bitcast")
def _bitcast_infer(op):
    source = op.inputs[0]
    source_type, target = source.dtype.base_dtype, op._attrs["type"]
    shape = source.shape
    if source_type.size == target.size or shape.ndims is None:
        return [(target, shape if source_type.size == target.size else TensorShape(None))]
    if source_type.size > target.size:
        return [(target, shape.concatenate([source_type.size // target.size]))]
    check_rank(shape, 1, at_least=True)
    last, divisor = shape.dims[-1].value, target.size // source_type.size
    if last not in (None, divisor):
        raise ValueError(f"Cannot bitcast from {source_type.as_datatype_enum} to {target.as_datatype_enum} due to "
                         f"shape. {last} does not match {divisor}")
    return [(target, TensorShape(shape.dims[:-1]))]


def bitcast(input, type, name=None):  # noqa: A002 - TensorFlow's argument names
    """The bytes of ``input`` read as ``type``, without copying numbers: a smaller type adds a last
    dimension, a larger one takes the last dimension (of the size ratio) away.

    Parameters
    ----------
    input : Tensor
        Numbers (not bool or string).
    type : DType
        The numeric type to read them as.
    name : str, optional
        The op's name (default ``Bitcast``).
    """
    with get_default_graph().name_scope(name or "Bitcast") as scope:
        source = convert_to_tensor(input, name="input")
        for dtype, param in ((source.dtype.base_dtype, "input"), (dtypes.as_dtype(type), "type")):
            if dtype not in _BITCAST_TYPES:
                raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in list of "
                                f"allowed values: {_BITCAST_NAMES}")
        return _out("Bitcast", [source], {"T": source.dtype.base_dtype, "type": dtypes.as_dtype(type)}, name=scope)[0]


not_differentiable("UnravelIndex", "Bitcast")
