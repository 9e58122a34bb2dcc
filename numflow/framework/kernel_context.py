"""An op as its kernel sees it: a ``numflow_kernels.context.KernelContext`` of plain values."""

import numpy as np

from numflow.framework.dtypes import DType
from numflow.framework.shapes import TensorShape
from numflow_kernels.context import KernelContext


def plain(value):
    """``value`` with numflow's objects in the plain form kernels take.

    A DType becomes its ``numpy.dtype`` (``object`` for strings), a TensorShape a tuple of dims
    (None for an unknown one), or None for an unknown rank; a list or tuple holding some becomes a
    tuple of plain values. Anything else is returned as it is.

    >>> from numflow.framework import dtypes
    >>> plain(dtypes.float32), plain(TensorShape([2, None])), plain(TensorShape(None))
    (dtype('float32'), (2, None), None)
    """
    if isinstance(value, DType):
        return np.dtype(value.as_numpy_dtype)
    if isinstance(value, TensorShape):
        dims = value.dims
        return None if dims is None else tuple(dims)
    if isinstance(value, list | tuple) and value:
        items = [plain(v) for v in value]
        if any(a is not b for a, b in zip(items, value)):
            return tuple(items)
    return value


def kernel_context(op, resources=None, device=None):
    """The context the kernel of ``op`` runs with, on ``device`` with the container ``resources``."""
    return KernelContext(
        op.name, op.type, {name: plain(value) for name, value in op._attrs.items()},
        input_shapes=tuple(plain(t.shape) for t in op._inputs), input_dtypes=tuple(plain(t.dtype) for t in op._inputs),
        output_shapes=tuple(plain(t.shape) for t in op._outputs),
        output_dtypes=tuple(plain(t.dtype) for t in op._outputs), resources=resources, device=device)
