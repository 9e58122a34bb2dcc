"""``tf.image.draw_bounding_boxes`` (ops ``DrawBoundingBoxes``, and ``DrawBoundingBoxesV2`` with
``colors``): one-pixel box outlines drawn over float images, as TensorBoard's image summaries show
detections. Kernel: ``numflow_kernels/reference_draw.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_dtype, check_rank


def _draw_infer(op):
    images, boxes = op.inputs[:2]
    check_dtype(images, (dtypes.float32, dtypes.float16), "images")
    check_rank(images.shape, 4)
    check_rank(boxes.shape, 3)
    if len(op.inputs) == 3:
        check_rank(op.inputs[2].shape, 2)
    return [(images.dtype.base_dtype, images.shape)]


declare("DrawBoundingBoxes")(_draw_infer)
declare("DrawBoundingBoxesV2")(_draw_infer)
not_differentiable("DrawBoundingBoxes", "DrawBoundingBoxesV2")


def draw_bounding_boxes(images, boxes, name=None, colors=None):
    """``images`` (``[batch, height, width, 1, 3 or 4]``, float) with the outline of each box of
    ``boxes`` (``[batch, num_boxes, 4]``: ``y_min, x_min, y_max, x_max`` in [0, 1]) drawn over them,
    box ``i`` in colour ``i`` of ``colors`` (``[num_colors, channels]``; default TensorFlow's ten), cycling."""
    op_type = "DrawBoundingBoxes" if colors is None else "DrawBoundingBoxesV2"
    with get_default_graph().name_scope(name or op_type) as scope:
        inputs = [convert_to_tensor(images, name="images"), convert_to_tensor(boxes, dtype=dtypes.float32,
                                                                               name="boxes")]
        if colors is not None:
            inputs.append(convert_to_tensor(colors, dtype=dtypes.float32, name="colors"))
        return _out(op_type, inputs, name=scope)[0]
