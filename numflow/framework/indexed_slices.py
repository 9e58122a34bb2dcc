"""IndexedSlices: a sparse stand-in for a dense tensor (the gradient of a gather), and its fetched value."""

import collections

from numflow.framework import dtypes


class IndexedSlices:
    """Rows ``indices`` of a dense tensor of shape ``dense_shape`` with values ``values``: the gradient
    of ``tf.gather`` with respect to its params, or a sparse update.

    An index may repeat; the dense tensor holds the sum of its rows. ``tf.convert_to_tensor`` makes
    that dense tensor (an ``UnsortedSegmentSum``), as every op given an IndexedSlices does.
    """

    def __init__(self, values, indices, dense_shape=None):
        self.values = values
        self.indices = indices
        self.dense_shape = dense_shape

    @property
    def name(self):
        return self.values.name

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def op(self):
        return self.values.op

    @property
    def graph(self):
        return self.values.graph

    @property
    def device(self):
        return self.values.device

    def __repr__(self):
        shape = "" if self.dense_shape is None else f", dense_shape={self.dense_shape}"
        return f"IndexedSlices(indices={self.indices}, values={self.values}{shape})"

    def _as_graph_element(self):
        return self.values

    def _as_tensor(self, dtype=None):
        if self.dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices without dense_shape: {self}")
        if dtype is not None and dtypes.as_dtype(dtype) != self.dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for IndexedSlices "
                             f"with dtype {self.dtype.name}: {self}")
        from numflow.ops import math_ops

        return math_ops.unsorted_segment_sum(self.values, self.indices, self.dense_shape[0])


IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])
IndexedSlicesValue.__doc__ = "What ``Session.run`` gives for a fetched IndexedSlices: three numpy arrays."
