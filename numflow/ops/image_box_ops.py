"""``tf.image.non_max_suppression`` (op ``NonMaxSuppressionV3``): greedy selection of the highest-scoring boxes
that overlap no box already selected by more than an IoU threshold. Kernel: ``numflow_kernels/reference_image.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank, merge_dims


@declare("NonMaxSuppressionV3")
def _nms_infer(op):
    boxes, scores, max_output_size, iou_threshold, score_threshold = op.inputs
    check_dtype(boxes, (dtypes.float16, dtypes.float32), "boxes")
    check_rank(boxes.shape, 2)
    check_rank(scores.shape, 1)
    for scalar in (max_output_size, iou_threshold, score_threshold):
        check_rank(scalar.shape, 0)
    if boxes.shape.ndims is not None:
        if boxes.shape.dim_values[1] not in (None, 4):
            raise ValueError(f"Dimension must be 4 but is {boxes.shape.dim_values[1]}")
        merge_dims(boxes.shape.dim_values[0], scores.shape.dim_values[0] if scores.shape.ndims else None, 0,
                   boxes.shape, scores.shape)
    return [(dtypes.int32, TensorShape([None]))]


not_differentiable("NonMaxSuppressionV3")


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
