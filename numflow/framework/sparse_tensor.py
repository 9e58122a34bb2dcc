"""``tf.SparseTensor`` and ``tf.SparseTensorValue``: a sparse tensor as three dense ones.

``indices`` (int64, ``[N, rank]``) lists the coordinates of the ``N`` values set, ``values`` (``[N]``)
holds them and ``dense_shape`` (int64, ``[rank]``) is the shape of the dense tensor they stand for.
``Session.run`` gives a :class:`SparseTensorValue` for a fetched SparseTensor, and takes one (or an
``(indices, values, dense_shape)`` tuple) to feed a :func:`numflow.sparse_placeholder`.
"""

import collections

from numflow.framework.shapes import TensorShape

SparseTensorValue = collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])
SparseTensorValue.__doc__ = "A SparseTensor's value: its indices, values and dense_shape as numpy arrays."


class SparseTensor:
    """A sparse tensor: ``values`` at ``indices`` of a dense tensor of shape ``dense_shape``.

    >>> import numflow as tf
    >>> st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[5.0, 6.0], dense_shape=[3, 2])
    >>> st.shape.as_list(), st.dtype.name
    ([3, 2], 'float32')
    >>> tf.Session().run(st).values.tolist()
    [5.0, 6.0]
    """

    def __init__(self, indices, values, dense_shape):
        from numflow.framework import dtypes
        from numflow.framework.graph import get_default_graph
        from numflow.ops.constant_op import convert_to_tensor
        from numflow.ops.op_util import shape_from_tensor

        with get_default_graph().name_scope("SparseTensor"):
            self._indices = convert_to_tensor(indices, name="indices", dtype=dtypes.int64)
            self._values = convert_to_tensor(values, name="values")
            self._dense_shape = convert_to_tensor(dense_shape, name="dense_shape", dtype=dtypes.int64)
        rows, columns = self._indices.shape.with_rank(2).dim_values
        (values,) = self._values.shape.with_rank(1).dim_values
        (dense_rank,) = self._dense_shape.shape.with_rank(1).dim_values
        # One row of indices per value, one column per dimension of dense_shape.
        for a, b in ((rows, values), (columns, dense_rank)):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions {a} and {b} are not compatible")
        rank = dense_rank if dense_rank is not None else columns
        shape = shape_from_tensor(self._dense_shape)
        self._shape = shape if shape.ndims is not None or rank is None else TensorShape([None] * rank)

    @classmethod
    def from_value(cls, sparse_tensor_value):
        """A SparseTensor of constants from a :class:`SparseTensorValue` (or a SparseTensor, returned as is)."""
        if isinstance(sparse_tensor_value, SparseTensor):
            return sparse_tensor_value
        return cls(*sparse_tensor_value)

    indices = property(lambda self: self._indices, doc="The int64 ``[N, rank]`` coordinates of the values.")
    values = property(lambda self: self._values, doc="The ``[N]`` values.")
    dense_shape = property(lambda self: self._dense_shape, doc="The int64 ``[rank]`` shape of the dense tensor.")
    dtype = property(lambda self: self._values.dtype, doc="The dtype of the values.")
    op = property(lambda self: self._values.op, doc="The op producing the values.")
    graph = property(lambda self: self._values.graph)

    @property
    def shape(self):
        """The static shape of the dense tensor (from ``dense_shape`` where it is known at build time)."""
        return self._shape

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Refine the static shape (it must be compatible with what is known)."""
        self._shape = self._shape.merge_with(shape)

    def eval(self, feed_dict=None, session=None):
        from numflow.runtime.session import get_default_session

        session = session or get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered.")
        return session.run(self, feed_dict)

    def __repr__(self):
        return f"SparseTensor(indices={self._indices}, values={self._values}, dense_shape={self._dense_shape})"
