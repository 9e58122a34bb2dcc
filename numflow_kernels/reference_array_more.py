"""Kernels of ``numflow/ops/array_more_ops.py``: ``EnsureShape``, ``ShapeN``, ``ParallelConcat``,
``UniqueWithCounts`` and ``EditDistance`` (TensorFlow's ``edit_distance_op.cc``: sequences grouped by all
but the last index, in the order the indices are given)."""

import numpy as np

from numflow_kernels.context import compatible
from numflow_kernels.reference_math import kernel
from numflow_kernels.registry import list_results


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
    return list_results(tuple(np.array(x.shape, dtype=ctx.attrs["out_type"]) for x in xs))


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


def _runs(indices, values):
    """``[(group index tuple, [values])]``: each run of entries with one index but the last, in order.
    As TensorFlow's grouping, the order is assumed, not checked: a repeated index or one out of its
    group's order still joins the run."""
    runs = []
    for row, value in zip(indices.tolist(), values.tolist()):
        key = tuple(row[:-1])
        if runs and runs[-1][0] == key:
            runs[-1][1].append(value)
        else:
            runs.append((key, [value]))
    return runs


@kernel("EditDistance")
def edit_distance(ctx, hyp_indices, hyp_values, hyp_shape, truth_indices, truth_values, truth_shape):
    """TensorFlow's walk over the two lists of runs, in step: a run of one without the other's is measured
    against an empty sequence (normalized: inf for a hypothesis alone, unless empty; 1 for a truth alone)."""
    if len(hyp_shape) != len(truth_shape):
        raise ValueError(f"Inconsistent rank in hypothesis and truth: {len(hyp_shape)} vs. {len(truth_shape)}")
    out_shape = tuple(int(max(a, b)) for a, b in zip(hyp_shape[:-1], truth_shape[:-1]))
    normalize = ctx.attrs["normalize"]
    hyps, truths = _runs(hyp_indices, hyp_values), _runs(truth_indices, truth_values)
    out = np.zeros(out_shape, np.float32)

    def alone_hypothesis(where, hyp):
        out[where] = np.inf if normalize and hyp else len(hyp)

    def alone_truth(where, truth):
        out[where] = 1.0 if normalize else len(truth)

    i = j = 0
    while i < len(hyps) and j < len(truths):
        (hyp_at, hyp), (truth_at, truth) = hyps[i], truths[j]
        if hyp_at == truth_at:
            distance = float(_levenshtein(hyp, truth))
            out[truth_at] = distance / len(truth) if normalize else distance
            i, j = i + 1, j + 1
        elif truth_at > hyp_at:
            alone_hypothesis(hyp_at, hyp)
            i += 1
        else:
            alone_truth(truth_at, truth)
            j += 1
    for where, hyp in hyps[i:]:
        alone_hypothesis(where, hyp)
    for where, truth in truths[j:]:
        alone_truth(where, truth)
    return out
