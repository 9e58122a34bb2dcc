"""Numba kernel of TopKV2: one row at a time, rows in parallel, in TensorFlow's order.

Sorted output (and ``k == n``) is by value, largest first, equal values lower index first, as
the reference (``reference_topk.py``) gives; unsorted output is TensorFlow's heap order, from the
same ``top_n.py`` functions the reference runs, compiled here. Each row is computed alone, so the
result does not depend on the thread count. Numba is imported when the kernel first runs.
"""

import threading
import types

import numpy as np

from numflow_kernels import reference_topk, top_n
from numflow_kernels.cpu import twins
from numflow_kernels.registry import register

prange = range  # Numba's once the twin is compiled (see twins.LazyTwin)
select = None  # top_n.select, compiled (see _compile)


def _sort_picked(values, picked, k):
    """Sort ``picked[:k]`` by value, largest first, equal values by lower index (an insertion sort)."""
    for i in range(1, k):
        c = picked[i]
        j = i - 1
        while j >= 0 and (values[c] > values[picked[j]] or (values[c] == values[picked[j]] and c < picked[j])):
            picked[j + 1] = picked[j]
            j -= 1
        picked[j + 1] = c


def _top_k_rows(rows, k, sort, scratch, out_values, out_indices):
    n = rows.shape[1]
    for r in prange(rows.shape[0]):
        row = rows[r]
        picked = scratch[r]
        if k == n:
            order = np.argsort(row[::-1], kind="mergesort")
            for i in range(n):
                picked[i] = n - 1 - order[n - 1 - i]
        else:
            select(row, k, picked)
            if sort:
                _sort_picked(row, picked, k)
        for i in range(k):
            out_indices[r, i] = picked[i]
            out_values[r, i] = row[picked[i]]


_TOP_K = twins.LazyTwin(_top_k_rows)
_compile_lock = threading.Lock()
_NUMBA_TYPES = {np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                      np.uint16, np.uint32, np.uint64)}


def _compile():
    """Compile top_n's functions (calling each other by name) and hand ``select`` to this module."""
    global select, _sort_picked
    if select is not None:
        return
    with _compile_lock:
        if select is None:
            import numba

            namespace = dict(vars(top_n))
            for name in ("better", "push_heap_hole", "adjust_heap", "make_heap", "pop_heap", "select"):
                fn = getattr(top_n, name)
                copy = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__)
                copy.__qualname__, copy.__module__ = fn.__qualname__, fn.__module__
                namespace[name] = numba.njit(nogil=True, cache=True)(copy)
            _sort_picked = numba.njit(nogil=True, cache=True)(_sort_picked)
            select = namespace["select"]


@register("TopKV2")
def top_k(ctx, x, k):
    k = int(k)
    n = reference_topk.check_top_k(x, k)
    if k <= 1 or x.dtype not in _NUMBA_TYPES or n == 0 or x.size == 0:
        return reference_topk.top_k(ctx, x, k)
    _compile()
    rows = np.ascontiguousarray(x).reshape(-1, n)
    values = np.empty((rows.shape[0], k), x.dtype)
    indices = np.empty((rows.shape[0], k), np.int64)
    scratch = np.empty((rows.shape[0], k + 1), np.int64)
    twins.launch(_TOP_K, rows.size, rows, k, bool(ctx.attrs["sorted"]), scratch, values, indices)
    shape = x.shape[:-1] + (k,)
    return values.reshape(shape), indices.astype(ctx.attrs["index_type"]).reshape(shape)
