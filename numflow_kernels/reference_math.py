"""NumPy kernels of the math ops beyond ``reference.py``: truncating division, float tests, scans and
segment reductions. Errors are plain ``ValueError`` (InvalidArgumentError to the user) in TensorFlow's
words, except where TensorFlow's class differs (noted).

Reductions and scans run in a fixed order (numpy's sequential ``cumsum``/``cumprod`` and ``ufunc.at``,
one element after another), so results never depend on the thread count.
"""

import math

import numpy as np

from numflow_kernels.errors import dims_text
from numflow_kernels.registry import REFERENCE, register


def kernel(op_type, **flags):
    return register(op_type, REFERENCE, **flags)


def _check_int_divisor(x, y):
    if x.dtype.kind in "iu" and not np.asarray(y).all():
        # TensorFlow 2.21 reports this as an InternalError; ArithmeticError maps to that class.
        raise ArithmeticError("Integer division by zero (TruncateDiv/TruncateMod need a nonzero divisor)")


@kernel("TruncateDiv")
def truncate_div(ctx, x, y):
    _check_int_divisor(x, y)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if x.dtype.kind in "iu":
            q = np.floor_divide(x, y)
            return q + ((np.mod(x, y) != 0) & ((x < 0) != (y < 0))).astype(q.dtype)
        return np.trunc(np.true_divide(x, y)).astype(np.result_type(x, y), copy=False)


@kernel("TruncateMod")
def truncate_mod(ctx, x, y):
    _check_int_divisor(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(x, y)


for _op_type, _fn in {"IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite}.items():
    register(_op_type, REFERENCE)(lambda ctx, x, _fn=_fn: _fn(x))


# -- scans --------------------------------------------------------------------------------------------
def _scan(ufunc, identity):
    def run(ctx, x, axis):
        if np.ndim(axis) != 0:
            raise ValueError(f"ScanOp: axis must be a scalar, not {dims_text(np.shape(axis))}")
        a = int(axis)
        if not -x.ndim <= a < max(x.ndim, 1) or x.ndim == 0:
            raise ValueError(f"ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), but got {a}")
        a %= x.ndim
        exclusive, reverse = ctx.attrs["exclusive"], ctx.attrs["reverse"]
        if reverse:
            x = np.flip(x, a)
        if exclusive:
            pad = [(0, 0)] * x.ndim
            pad[a] = (1, 0)
            x = np.pad(x, pad, constant_values=identity)[(slice(None),) * a + (slice(0, -1),)]
        with np.errstate(over="ignore", invalid="ignore"):
            out = ufunc.accumulate(x, axis=a, dtype=x.dtype)
        return np.ascontiguousarray(np.flip(out, a) if reverse else out)

    return run


kernel("Cumsum")(_scan(np.add, 0))
kernel("Cumprod")(_scan(np.multiply, 1))
kernel("CumulativeLogsumexp")(_scan(np.logaddexp, -np.inf))


# -- segment reductions ---------------------------------------------------------------------------------
def _extreme(dtype, highest):
    if dtype.kind == "f":
        info = np.finfo(dtype)
    else:
        info = np.iinfo(dtype)
    return info.max if highest else info.min


SEGMENT_KINDS = {"Sum": 0, "Mean": 0, "Max": 1, "Min": 2, "Prod": 3}
_UFUNCS = (np.add, np.maximum, np.minimum, np.multiply)


def ufunc_at(out, ids, rows, kind):
    """``out[ids[i]] (op)= rows[i]`` for each row in order (``kind``: index into SEGMENT_KINDS' ufuncs)."""
    with np.errstate(over="ignore", invalid="ignore"):
        _UFUNCS[kind].at(out, ids, rows)


def _reduce_rows(data, ids, n, op_type, accumulate):
    """``data``'s rows reduced per id into ``n`` rows by ``accumulate``, one row after another (fixed order)."""
    name = op_type.replace("Unsorted", "").replace("Segment", "")
    kind = SEGMENT_KINDS[name]
    initial = 0 if kind == 0 else 1 if kind == 3 else _extreme(data.dtype, highest=kind == 2)
    out = np.full((n,) + data.shape[1:], initial, dtype=data.dtype)
    width = math.prod(data.shape[1:])
    accumulate(out.reshape(n, width), ids, data.reshape(ids.size, width), kind)
    counts = np.bincount(ids, minlength=n)[(slice(None),) + (None,) * (data.ndim - 1)]
    if name == "Mean":
        if data.dtype.kind in "iu":  # C integer division, truncating toward zero
            q = np.floor_divide(out, np.maximum(counts, 1)).astype(data.dtype)
            out = q + ((np.mod(out, np.maximum(counts, 1)) != 0) & (out < 0)).astype(data.dtype)
        else:
            out = (out / np.maximum(counts, 1).astype(data.dtype)).astype(data.dtype)
    return out, counts


def _check_sorted(segment_ids, n):
    """TensorFlow's checks, segment by segment in order: the next id must be larger, and this one in range."""
    if not segment_ids.size:
        return
    starts = np.flatnonzero(np.r_[True, segment_ids[1:] != segment_ids[:-1]])
    ids = segment_ids[starts]
    decreasing = np.r_[ids[1:] < ids[:-1], False]
    out_of_range = (ids < 0) | (ids >= n)
    bad = np.flatnonzero(decreasing | out_of_range)
    if bad.size:
        k = bad[0]
        if decreasing[k]:
            raise ValueError("segment ids are not increasing")
        raise ValueError(f"Segment id {int(ids[k])} out of range [0, {n}), possibly because 'segment_ids' input "
                         "is not sorted.")


def sorted_segment_kernel(op_type, accumulate=ufunc_at):
    """The kernel of a sorted segment reduction adding rows with ``accumulate`` (see :func:`ufunc_at`)."""

    def run(ctx, data, segment_ids):
        if segment_ids.ndim != 1:
            raise ValueError("segment_ids should be a vector.")
        if data.ndim == 0 or segment_ids.size != data.shape[0]:
            raise ValueError("segment_ids should be the same size as dimension 0 of input.")
        n = int(segment_ids[-1]) + 1 if segment_ids.size else 0
        _check_sorted(segment_ids, n)
        out, counts = _reduce_rows(data, segment_ids.astype(np.int64), n, op_type, accumulate)
        if op_type in ("SegmentMax", "SegmentMin"):  # an empty sorted segment is 0, not the identity
            out = np.where(counts > 0, out, np.zeros((), data.dtype))
        return out

    return run


def _checked_segment_ids(data, segment_ids, num_segments):
    """The number of segments and the kept ``(ids, rows)`` of an unsorted segment op, after TF's checks."""
    n = int(num_segments)
    if n < 0:
        raise ValueError(f"Input num_segments == {n} must not be negative.")
    if data.shape[:segment_ids.ndim] != segment_ids.shape:
        raise ValueError(f"data.shape = {dims_text(data.shape)} does not start with segment_ids.shape = "
                         f"{dims_text(segment_ids.shape)}")
    bad = segment_ids >= n
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"segment_ids{dims_text(where) if where else ''} = {segment_ids[where]} is out of range "
                         f"[0, {n})")
    kept = segment_ids >= 0  # negative ids are dropped, as TensorFlow drops them
    if kept.all():
        return n, segment_ids.reshape(-1).astype(np.int64), data.reshape((-1,) + data.shape[segment_ids.ndim:])
    return n, segment_ids[kept].astype(np.int64), data[kept]


def unsorted_segment_kernel(op_type, accumulate=ufunc_at):
    """The kernel of an unsorted segment reduction adding rows with ``accumulate`` (see :func:`ufunc_at`)."""

    def run(ctx, data, segment_ids, num_segments):
        n, ids, rows = _checked_segment_ids(data, segment_ids, num_segments)
        return _reduce_rows(rows, ids, n, op_type, accumulate)[0]

    return run


SORTED_SEGMENT_OPS = ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd")
UNSORTED_SEGMENT_OPS = ("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")
for _op_type in SORTED_SEGMENT_OPS:
    kernel(_op_type)(sorted_segment_kernel(_op_type))
for _op_type in UNSORTED_SEGMENT_OPS:
    kernel(_op_type)(unsorted_segment_kernel(_op_type))
