"""NumPy kernels of TopKV2 and InTopKV2 (spec: TensorFlow's ``topk_op.cc`` and ``in_topk_op.h``).

- ``TopKV2(input, k)`` -> ``(values, indices)`` along the last axis. Sorted output is by value,
  largest first, equal values by lower index first. Unsorted (``sorted=False``) output, for
  ``1 < k < n``, is in the order TensorFlow's heap leaves it (``top_n.py``); for ``k == n`` TF
  sorts anyway, and ``k == 1`` is the first maximum.
- ``InTopKV2(predictions, targets, k)``: whether ``predictions[i, targets[i]]`` is among the k
  largest of row i, ties counting in its favour (fewer than k classes strictly larger); False
  for a target out of range or any non-finite prediction in the row.
"""

import numpy as np

from numflow_kernels import top_n
from numflow_kernels.registry import REFERENCE, register


def check_top_k(x, k):
    """TensorFlow's run-time checks of TopKV2; the row length."""
    if k < 0:
        raise ValueError(f"Need k >= 0, got {k}")
    if x.ndim < 1:
        raise ValueError(f"input must be >= 1-D, got shape {list(x.shape)}")
    n = x.shape[-1]
    if n < k:
        raise ValueError(f"input must have at least k columns. Had {n}, needed {k}")
    return n


def sorted_order(rows):
    """Column indices of each row by value, largest first, ties by lower index (a stable sort)."""
    n = rows.shape[-1]
    return n - 1 - np.argsort(rows[..., ::-1], axis=-1, kind="stable")[..., ::-1]


@register("TopKV2", REFERENCE)
def top_k(ctx, x, k):
    k = int(k)
    n = check_top_k(x, k)
    rows = x.reshape(-1, n)
    if k == 1:
        indices = np.argmax(rows, axis=-1)[:, None] if n else np.zeros((rows.shape[0], 1), np.int64)
    elif ctx.attrs["sorted"] or k == n:
        indices = sorted_order(rows)[:, :k]
    else:
        indices = np.empty((rows.shape[0], k), np.int64)
        heap = np.empty(k + 1, np.int64)
        for r in range(rows.shape[0]):
            top_n.select(rows[r], k, heap)
            indices[r] = heap[:k]
    values = np.take_along_axis(rows, indices, axis=-1)
    shape = x.shape[:-1] + (k,)
    return values.reshape(shape), indices.astype(ctx.attrs["index_type"]).reshape(shape)


@register("InTopKV2", REFERENCE)
def in_top_k(ctx, predictions, targets, k):
    k = int(k)
    if predictions.ndim != 2:
        raise ValueError(f"predictions must be 2-dimensional, got {list(predictions.shape)}")
    if targets.ndim != 1 or targets.shape[0] != predictions.shape[0]:
        raise ValueError("First dimension of predictions " f"{predictions.shape[0]} must match length of targets "
                         f"{targets.shape[0] if targets.ndim else 0}")
    batch, classes = predictions.shape
    valid = (targets >= 0) & (targets < classes)
    picked = predictions[np.arange(batch), np.where(valid, targets, 0)]
    larger = (predictions > picked[:, None]).sum(axis=1)
    finite = np.isfinite(predictions).all(axis=1)
    return valid & finite & (larger < k)
