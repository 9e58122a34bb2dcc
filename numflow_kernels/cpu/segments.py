"""CPU kernels of the segment reductions and of ScatterNd and the TensorScatter ops: the checks of
``reference_math.py`` and ``reference_arrays.py`` and a Numba loop adding each row into its target in order,
as numpy's ``ufunc.at`` does (the same bits) but without its per-element cost. Numba compiles the loop
when one of these ops first runs; dtypes it does not take go to ``ufunc.at``."""

import numpy as np

from numflow_kernels.reference_arrays import scatter_kernels
from numflow_kernels.reference_math import (
    SORTED_SEGMENT_OPS,
    UNSORTED_SEGMENT_OPS,
    sorted_segment_kernel,
    ufunc_at,
    unsorted_segment_kernel,
)
from numflow_kernels.registry import register

_LOOP_DTYPES = (np.float32, np.float64, np.int32, np.int64)
_compiled = None


def _accumulate_loop(out, ids, rows, kind):
    """``out[ids[i], j] (op)= rows[i, j]``: 0 add, 1 maximum, 2 minimum, 3 multiply; NaN wins max and min."""
    for i in range(ids.shape[0]):
        s = ids[i]
        for j in range(rows.shape[1]):
            v = rows[i, j]
            if kind == 0:
                out[s, j] += v
            elif kind == 3:
                out[s, j] *= v
            else:
                o = out[s, j]
                if o == o and (v != v or (v > o if kind == 1 else v < o)):
                    out[s, j] = v


def _accumulate(out, ids, rows, kind):
    global _compiled
    if out.dtype.type not in _LOOP_DTYPES or not rows.flags.c_contiguous:
        return ufunc_at(out, ids, rows, kind)
    if _compiled is None:
        import numba

        _compiled = numba.njit(nogil=True, cache=True)(_accumulate_loop)
    _compiled(out, ids, rows, kind)


for _op_type in SORTED_SEGMENT_OPS:
    register(_op_type)(sorted_segment_kernel(_op_type, _accumulate))
for _op_type in UNSORTED_SEGMENT_OPS:
    register(_op_type)(unsorted_segment_kernel(_op_type, _accumulate))
for _op_type, _fn in scatter_kernels(_accumulate).items():
    register(_op_type)(_fn)
