"""``tf.sparse.cross`` and ``tf.sparse.cross_hashed`` (op ``SparseCross``): the crosses of sparse and
dense features, as the crossed feature column uses them. Kernel:
``numflow_kernels/reference_sparse_cross.py``.

>>> import numflow as tf
>>> a = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant(["a", "b", "c"]), [2, 2])
>>> crossed = tf.sparse.cross([a, tf.constant([["f"], ["g"]])])
>>> tf.Session().run(crossed.values).tolist()
[b'a_X_f', b'b_X_g', b'c_X_g']
"""

from numflow.framework import dtypes
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.framework.sparse_tensor import SparseTensor
from numflow.ops import math_ops
from numflow.ops.array_grad import not_differentiable
from numflow.ops.op_util import _out

_DEFAULT_HASH_KEY = 0xDECAFCAFFE


@declare("SparseCross")
def _cross_infer(op):
    return [(dtypes.int64, TensorShape([None, 2])), (op._attrs["out_type"], TensorShape([None])),
            (dtypes.int64, TensorShape([2]))]


not_differentiable("SparseCross")


def _cross(inputs, hashed_output, num_buckets, hash_key, name):
    from numflow.ops.constant_op import convert_to_tensor

    if not isinstance(inputs, list | tuple):
        raise TypeError("Inputs must be a list")
    inputs = [i if isinstance(i, SparseTensor) else convert_to_tensor(i) for i in inputs]
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]
    values = [s.values for s in sparse]
    internal_type = dtypes.string
    for group in (values, dense):
        for i, tensor in enumerate(group):
            if tensor.dtype != dtypes.string:
                group[i] = math_ops.cast(tensor, dtypes.int64)
                internal_type = dtypes.int64
    attrs = {"N": len(sparse), "hashed_output": hashed_output, "num_buckets": int(num_buckets),
             "hash_key": int(hash_key or _DEFAULT_HASH_KEY), "sparse_types": [v.dtype for v in values],
             "dense_types": [d.dtype for d in dense], "out_type": dtypes.int64 if hashed_output else dtypes.string,
             "internal_type": internal_type}
    indices, out_values, shape = _out("SparseCross", [s.indices for s in sparse] + values +
                                      [s.dense_shape for s in sparse] + dense, attrs, name=name or "SparseCross")
    return SparseTensor(indices, out_values, shape)


def sparse_cross(inputs, name=None, separator=None):
    """The crosses of ``inputs`` (SparseTensors and dense tensors of strings or integers, one row per
    example), their features joined by ``_X_``: the sparse inputs first, then the dense ones."""
    if separator not in (None, "_X_"):
        raise NotImplementedError("numflow's sparse.cross joins features with '_X_' only (op SparseCross).")
    return _cross(inputs, False, 0, None, name)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """The crosses of ``inputs`` hashed to int64 as TensorFlow hashes them (``FingerprintCat64`` from
    ``hash_key`` over each feature's fingerprint), modulo ``num_buckets`` when it is above 0."""
    return _cross(inputs, True, num_buckets, hash_key, name)
