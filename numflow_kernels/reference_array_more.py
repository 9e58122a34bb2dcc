"""Kernels of ``numflow/ops/array_more_ops.py``: ``EnsureShape``, ``ShapeN``, ``ParallelConcat``,
``UniqueWithCounts`` and ``EditDistance`` (TensorFlow's ``edit_distance_op.cc``: sequences grouped by all
but the last index, in the order the indices are given)."""

import numpy as np

from numflow_kernels.context import compatible
from numflow_kernels.reference_math import kernel


def _dims(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


@kernel("EnsureShape")
def ensure_shape(ctx, x):
    expected = ctx.attrs["shape"]
    if not compatible(expected, x.shape):
        raise ValueError(f"Shape of tensor {ctx.op_name} {_dims(x.shape)} is not compatible with expected shape "
                         f"{_dims(expected)}.")
    return x


@kernel("ShapeN")
def shape_n(ctx, *xs):
    return tuple(np.array(x.shape, dtype=ctx.attrs["out_type"]) for x in xs)


@kernel("ParallelConcat")
def parallel_concat(ctx, *values):
    shape = ctx.attrs["shape"]
    for i, v in enumerate(values):
        if v.shape[1:] != shape[1:] or v.shape[0] != 1:
            raise ValueError(f"Shape of input {i} {_dims(v.shape)} is not compatible with the output shape "
                             f"{_dims(shape)}")
    return np.concatenate(values, axis=0)


@kernel("UniqueWithCounts")
def unique_with_counts(ctx, x):
    values, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    out_idx = ctx.attrs["out_idx"]
    return values[order], rank[inverse.reshape(-1)].astype(out_idx), counts[order].astype(out_idx)


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _sequences(indices, values, name):
    """``{group index tuple: [values]}``, checking that the indices are in order, as TensorFlow's groups do."""
    groups = {}
    rows = [tuple(r) for r in indices.tolist()]
    for k in range(1, len(rows)):
        if rows[k] <= rows[k - 1]:
            raise ValueError(f"{name} indices are out of order at position {k}: {list(rows[k])}")
    for row, value in zip(rows, values.tolist()):
        groups.setdefault(row[:-1], []).append(value)
    return groups


@kernel("EditDistance")
def edit_distance(ctx, hyp_indices, hyp_values, hyp_shape, truth_indices, truth_values, truth_shape):
    if len(hyp_shape) != len(truth_shape):
        raise ValueError(f"Inconsistent rank in hypothesis and truth: {len(hyp_shape)} vs. {len(truth_shape)}")
    out_shape = tuple(int(max(a, b)) for a, b in zip(hyp_shape[:-1], truth_shape[:-1]))
    normalize = ctx.attrs["normalize"]
    hyps = _sequences(hyp_indices, hyp_values, "hypothesis")
    truths = _sequences(truth_indices, truth_values, "truth")
    out = np.zeros(out_shape, np.float32)
    for where in set(hyps) | set(truths):
        hyp, truth = hyps.get(where, []), truths.get(where, [])
        distance = float(_levenshtein(hyp, truth))
        if normalize:
            distance = distance / len(truth) if truth else (np.inf if hyp else 0.0)
        out[where] = distance
    return out
