"""Kernels of the non-max suppression ops: ``NonMaxSuppressionV3``/``V4``/``V5`` (boxes, soft NMS
with scores) and ``NonMaxSuppressionWithOverlaps``.

Spec: ``tensorflow/core/kernels/image/non_max_suppression_op.cc``, ``DoNonMaxSuppressionOp``. The
candidates scoring above the threshold wait in a priority queue, highest score first (equal scores:
lower index first). The best is compared with the selected boxes, latest first, each comparison
scaling its score by ``exp(-0.5 * iou**2 / sigma)`` (soft NMS) or, without sigma, dropping it when
the overlap passes the threshold. Unchanged, it is selected; lowered but still above the score
threshold, it goes back into the queue, to be compared later only with boxes selected since. IoUs
and scores are float32 as there, and ``exp`` is libm's ``expf``, as TensorFlow calls it.
"""

import functools
import heapq
import math

import numpy as np

from numflow_kernels.reference_math import kernel


def _exp(x):
    return math.exp(x)


@functools.cache
def _libm_expf():
    """libm's ``expf`` through Numba (numpy's float32 exp may differ from it in the last bit)."""
    import numba

    return numba.njit(cache=True)(_exp)


def _iou_function(boxes):
    boxes = np.asarray(boxes, np.float32)
    y_min, y_max = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    x_min, x_max = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
    areas = (y_max - y_min) * (x_max - x_min)
    zero = np.float32(0)

    def iou(i, j):
        if areas[i] <= 0 or areas[j] <= 0:
            return zero
        height = max(min(y_max[i], y_max[j]) - max(y_min[i], y_min[j]), zero)
        width = max(min(x_max[i], x_max[j]) - max(x_min[i], x_min[j]), zero)
        intersection = height * width
        return intersection / (areas[i] + areas[j] - intersection)

    return iou


def _suppress(similarity, scores, limit, threshold, score_threshold, sigma=0.0):
    """``(selected indices, their scores)`` by TensorFlow's greedy (soft) non-max suppression."""
    soft = sigma > 0
    scale = np.float32(-0.5) / sigma if soft else np.float32(0)
    expf = _libm_expf() if soft else None
    queue = [(-float(s), i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(queue)
    selected, selected_scores = [], []
    while len(selected) < limit and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = np.float32(-negative)
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            overlap = similarity(index, selected[j])
            if soft:
                score *= np.float32(expf(scale * overlap * overlap))
            elif overlap > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-float(score), index, len(selected)))
    return np.array(selected, np.int32), np.array(selected_scores, np.asarray(scores).dtype)


def _checked(boxes, scores, max_output_size, iou_threshold, what="boxes"):
    if what == "boxes" and (boxes.ndim != 2 or boxes.shape[1] != 4):
        raise ValueError(f"boxes must be of shape [num_boxes, 4]: {list(boxes.shape)}")
    if what == "overlaps" and (boxes.ndim != 2 or boxes.shape[0] != boxes.shape[1]):
        raise ValueError(f"overlaps must be square: {list(boxes.shape)}")
    if scores.ndim != 1 or scores.shape[0] != boxes.shape[0]:
        raise ValueError(f"scores has incompatible shape: {list(scores.shape)}")
    if what == "boxes" and not 0 <= float(iou_threshold) <= 1:
        raise ValueError("iou_threshold must be in [0, 1]")
    limit = int(max_output_size)
    if limit < 0:
        raise ValueError("output size must be non-negative")
    return limit


def _padded(indices, limit, pad, *more):
    valid = np.int32(len(indices))
    if not pad:
        return (indices, *more, valid)
    grow = limit - len(indices)
    return (np.pad(indices, (0, grow)), *(np.pad(m, (0, grow)) for m in more), valid)


@kernel("NonMaxSuppressionV3")
def non_max_suppression_v3(ctx, boxes, scores, max_output_size, iou_threshold, score_threshold):
    limit = _checked(boxes, scores, max_output_size, iou_threshold)
    return _suppress(_iou_function(boxes), scores, limit, np.float32(iou_threshold), np.float32(score_threshold))[0]


@kernel("NonMaxSuppressionV4")
def non_max_suppression_v4(ctx, boxes, scores, max_output_size, iou_threshold, score_threshold):
    limit = _checked(boxes, scores, max_output_size, iou_threshold)
    selected, _ = _suppress(_iou_function(boxes), scores, limit, np.float32(iou_threshold),
                            np.float32(score_threshold))
    return _padded(selected, limit, ctx.attrs["pad_to_max_output_size"])


@kernel("NonMaxSuppressionV5")
def non_max_suppression_v5(ctx, boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma):
    limit = _checked(boxes, scores, max_output_size, iou_threshold)
    if float(soft_nms_sigma) < 0:
        raise ValueError("soft_nms_sigma must be non-negative")
    dtype = scores.dtype.type
    selected, selected_scores = _suppress(_iou_function(boxes), scores, limit, dtype(iou_threshold),
                                          dtype(score_threshold), dtype(soft_nms_sigma))
    return _padded(selected, limit, ctx.attrs["pad_to_max_output_size"], selected_scores)


@kernel("NonMaxSuppressionWithOverlaps")
def non_max_suppression_with_overlaps(ctx, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    limit = _checked(overlaps, scores, max_output_size, overlap_threshold, what="overlaps")
    overlaps = np.asarray(overlaps, np.float32)
    return _suppress(lambda i, j: overlaps[i, j], scores, limit, np.float32(overlap_threshold),
                     np.float32(score_threshold))[0]
