"""An op as its kernel sees it: a ``numflow_kernels.context.KernelContext`` of plain values."""

import numpy as np

from numflow.framework.dtypes import DType
from numflow.framework.shapes import TensorShape
from numflow_kernels.context import KernelContext

_NUMPY_DTYPES = {}  # id(DType) -> (the DType, its numpy dtype): plans convert a dtype per tensor
_CONVERTED = frozenset({TensorShape, DType, list, tuple})  # the types of attr values ``plain`` may change


def plain(value):
    """``value`` with numflow's objects in the plain form kernels take.

    A DType becomes its ``numpy.dtype`` (``object`` for strings), a TensorShape a tuple of dims
    (None for an unknown one), or None for an unknown rank; a list or tuple holding some becomes a
    tuple of plain values. Anything else is returned as it is.

    >>> from numflow.framework import dtypes
    >>> plain(dtypes.float32), plain(TensorShape([2, None])), plain(TensorShape(None))
    (dtype('float32'), (2, None), None)
    """
    kind = type(value)
    if kind is TensorShape:
        return value._dims  # a tuple, or None
    if kind is DType:
        return _numpy_dtype(value)
    if (kind is list or kind is tuple) and value:
        items = [plain(v) for v in value]
        if any(a is not b for a, b in zip(items, value)):
            return tuple(items)
    return value


def _numpy_dtype(dtype):
    known = _NUMPY_DTYPES.get(id(dtype))
    if known is None:
        known = _NUMPY_DTYPES[id(dtype)] = (dtype, np.dtype(dtype.as_numpy_dtype))
    return known[1]


def kernel_context(op, resources=None, device=None):
    """The context the kernel of ``op`` runs with, on ``device`` with the container ``resources``.

    Built once per op and plan (a plan is cached), and for constant folding while a graph is built.
    """
    inputs, outputs = op._inputs, op._outputs
    input_dtypes = tuple([_numpy_dtype(t._dtype) for t in inputs])
    output_dtypes = tuple([_numpy_dtype(t._dtype) for t in outputs])
    attrs = {name: plain(value) if type(value) in _CONVERTED else value for name, value in op._attrs.items()}
    return KernelContext(op.name, op.type, attrs, tuple([t._shape._dims for t in inputs]), input_dtypes,
                         tuple([t._shape._dims for t in outputs]), output_dtypes, resources, device)
