"""Non-max suppression, as ``tf.image`` gives it: ``non_max_suppression`` (op ``NonMaxSuppressionV3``),
``non_max_suppression_padded`` (``NonMaxSuppressionV4``), ``non_max_suppression_with_scores`` with
soft NMS (``NonMaxSuppressionV5``) and ``non_max_suppression_overlaps``
(``NonMaxSuppressionWithOverlaps``): greedy selection of the highest-scoring boxes, each dropped (or,
with soft NMS, scored down) by its overlap with the boxes already selected.
Kernels: ``numflow_kernels/reference_nms.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank, merge_dims

_INDICES = (dtypes.int32, TensorShape([None]))
_COUNT = (dtypes.int32, TensorShape([]))


def _check_inputs(op, columns):
    boxes, scores, *scalars = op.inputs
    check_dtype(boxes, (dtypes.float16, dtypes.float32), "boxes")
    check_rank(boxes.shape, 2)
    check_rank(scores.shape, 1)
    for scalar in scalars:
        check_rank(scalar.shape, 0)
    if boxes.shape.ndims is not None:
        if columns is not None and boxes.shape.dim_values[1] not in (None, columns):
            raise ValueError(f"Dimension must be {columns} but is {boxes.shape.dim_values[1]}")
        merge_dims(boxes.shape.dim_values[0], scores.shape.dim_values[0] if scores.shape.ndims else None, 0,
                   boxes.shape, scores.shape)


def _padded_shape(op):
    """The indices' shape: ``max_output_size`` long when padded to it and known, else unknown."""
    if not op._attrs.get("pad_to_max_output_size"):
        return TensorShape([None])
    from numflow.ops.op_util import static_value

    size = static_value(op.inputs[2])
    return TensorShape([None if size is None else int(size)])


@declare("NonMaxSuppressionV3")
def _nms_infer(op):
    _check_inputs(op, 4)
    return [_INDICES]


@declare("NonMaxSuppressionV4")
def _nms_v4_infer(op):
    _check_inputs(op, 4)
    return [(dtypes.int32, _padded_shape(op)), _COUNT]


@declare("NonMaxSuppressionV5")
def _nms_v5_infer(op):
    _check_inputs(op, 4)
    shape = _padded_shape(op)
    return [(dtypes.int32, shape), (op.inputs[1].dtype.base_dtype, shape), _COUNT]


@declare("NonMaxSuppressionWithOverlaps")
def _nms_overlaps_infer(op):
    _check_inputs(op, None)
    return [_INDICES]


not_differentiable("NonMaxSuppressionV3", "NonMaxSuppressionV4", "NonMaxSuppressionV5", "NonMaxSuppressionWithOverlaps")


def _suppression(op_type, boxes, scores, max_output_size, thresholds, attrs=None):
    """Op ``op_type`` under its own name scope, where its boxes, scores and size are converted; the
    ``thresholds`` were converted by the caller, in the function's scope, as TensorFlow does."""
    with get_default_graph().name_scope(op_type) as scope:
        boxes = convert_to_tensor(boxes, name="overlaps" if op_type == "NonMaxSuppressionWithOverlaps" else "boxes")
        scores = convert_to_tensor(scores, name="scores")
        max_output_size = convert_to_tensor(max_output_size, dtype=dtypes.int32, name="max_output_size")
        return _out(op_type, [boxes, scores, max_output_size, *thresholds], attrs, name=scope)


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                        name=None):
    """The indices of at most ``max_output_size`` boxes, by descending score, none overlapping a selected one.

    Parameters
    ----------
    boxes : Tensor
        ``[num_boxes, 4]``: ``y1, x1, y2, x2`` of opposite corners, in either order.
    scores : Tensor
        ``[num_boxes]``.
    max_output_size : int or Tensor
    iou_threshold : float
        A box overlapping a selected one by more than this intersection-over-union is dropped.
    score_threshold : float
        Boxes scoring no more than this are never selected.
    name : str, optional
    """
    with get_default_graph().name_scope(name or "non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        boxes = convert_to_tensor(boxes, name="boxes")
        scores = convert_to_tensor(scores, name="scores")
        max_output_size = convert_to_tensor(max_output_size, dtype=dtypes.int32, name="max_output_size")
        return _out("NonMaxSuppressionV3", [boxes, scores, max_output_size, iou_threshold, score_threshold])[0]


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0, name=None):
    """``(selected indices, their scores)``: :func:`non_max_suppression`, or with ``soft_nms_sigma`` > 0
    soft NMS, which scales a box's score by ``exp(-0.5 * iou**2 / soft_nms_sigma)`` for each
    selected box it overlaps instead of dropping it (op ``NonMaxSuppressionV5``)."""
    with get_default_graph().name_scope(name or "non_max_suppression_with_scores"):
        thresholds = [convert_to_tensor(iou_threshold, name="iou_threshold"),
                      convert_to_tensor(score_threshold, name="score_threshold"),
                      convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma")]
        selected, selected_scores, _ = _suppression("NonMaxSuppressionV5", boxes, scores, max_output_size, thresholds,
                                                    {"pad_to_max_output_size": False})
        return selected, selected_scores


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5, score_threshold=float("-inf"),
                               pad_to_max_output_size=False, name=None, sorted_input=False,
                               canonicalized_coordinates=False, tile_size=512):
    """``(selected indices, how many are valid)``: :func:`non_max_suppression`, with the indices
    padded with zeros to ``max_output_size`` when ``pad_to_max_output_size`` (op
    ``NonMaxSuppressionV4``). ``sorted_input``, ``canonicalized_coordinates`` and ``tile_size`` are
    speed hints there; the selection is the same without them."""
    del sorted_input, canonicalized_coordinates, tile_size
    boxes = convert_to_tensor(boxes, name="boxes")
    if boxes.shape.ndims is not None and boxes.shape.ndims > 2:
        raise ValueError("numflow's non_max_suppression_padded takes the boxes of one image, [num_boxes, 4]; "
                         f"got shape {boxes.shape}")
    with get_default_graph().name_scope(name or "non_max_suppression_padded"):
        thresholds = [convert_to_tensor(iou_threshold, name="iou_threshold"),
                      convert_to_tensor(score_threshold, name="score_threshold")]
        selected, valid = _suppression("NonMaxSuppressionV4", boxes, scores, max_output_size, thresholds,
                                       {"pad_to_max_output_size": bool(pad_to_max_output_size)})
        return selected, valid


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """:func:`non_max_suppression` with the overlaps given: ``overlaps[i, j]`` is how much box ``i``
    overlaps box ``j`` (op ``NonMaxSuppressionWithOverlaps``)."""
    with get_default_graph().name_scope(name or "non_max_suppression_overlaps"):
        thresholds = [convert_to_tensor(overlap_threshold, name="overlap_threshold"),
                      convert_to_tensor(score_threshold, name="score_threshold")]
        return _suppression("NonMaxSuppressionWithOverlaps", overlaps, scores, max_output_size, thresholds)[0]
