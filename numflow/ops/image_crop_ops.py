"""``tf.image.crop_and_resize`` (op ``CropAndResize``) and its gradients to the image and to the
boxes (``CropAndResizeGradImage``, ``CropAndResizeGradBoxes``), as region-based detectors use them.
Kernels: ``numflow_kernels/cpu/crop_resize.py``.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.array_ops import shape as shape_of
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_rank, shape_from_tensor

_METHODS = ("bilinear", "nearest")


def _dim(shape, index):
    return shape.dim_values[index] if shape.ndims is not None else None


@declare("CropAndResize")
def _crop_and_resize_infer(op):
    image, boxes, box_index, crop_size = op.inputs
    check_rank(image.shape, 4)
    check_rank(boxes.shape, 2)
    check_rank(box_index.shape, 1)
    check_rank(crop_size.shape, 1)
    if _dim(boxes.shape, 1) not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {_dim(boxes.shape, 1)}")
    num_boxes = _dim(boxes.shape, 0) if _dim(boxes.shape, 0) is not None else _dim(box_index.shape, 0)
    crop = shape_from_tensor(crop_size)
    crop = crop.dim_values if crop.ndims == 2 else [None, None]
    return [(dtypes.float32, TensorShape([num_boxes, *crop, _dim(image.shape, 3)]))]


@declare("CropAndResizeGradImage")
def _grad_image_infer(op):
    return [(op._attrs["T"], TensorShape([None, None, None, _dim(op.inputs[0].shape, 3)]))]


@declare("CropAndResizeGradBoxes")
def _grad_boxes_infer(op):
    return [(dtypes.float32, TensorShape([_dim(op.inputs[2].shape, 0), 4]))]


not_differentiable("CropAndResizeGradImage", "CropAndResizeGradBoxes")


def crop_and_resize(image, boxes, box_ind=None, crop_size=None, method="bilinear", extrapolation_value=0,
                    name=None, box_indices=None):
    """Crops of the ``[batch, height, width, depth]`` ``image`` at ``boxes`` (``[num_boxes, 4]``:
    ``y1, x1, y2, x2`` in [0, 1] of the image ``box_indices`` names), each resized to ``crop_size``
    (``[crop_height, crop_width]``) by bilinear or nearest sampling; samples outside the image take
    ``extrapolation_value``. Float32 crops, ``[num_boxes, crop_height, crop_width, depth]``."""
    if method not in _METHODS:
        raise ValueError(f"method must be 'bilinear' or 'nearest'{method}")
    indices = box_indices if box_indices is not None else box_ind
    with get_default_graph().name_scope(name or "CropAndResize") as scope:
        image = convert_to_tensor(image, name="image")
        inputs = [image, convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes"),
                  convert_to_tensor(indices, dtype=dtypes.int32, name="box_ind"),
                  convert_to_tensor(crop_size, dtype=dtypes.int32, name="crop_size")]
        attrs = {"T": image.dtype.base_dtype, "method": method, "extrapolation_value": float(extrapolation_value)}
        return _out("CropAndResize", inputs, attrs, name=scope)[0]


@gradient("CropAndResize")
def _crop_and_resize_grad(op, grad):
    image, boxes, box_index, _ = op.inputs
    grad_image = None
    if image.dtype.base_dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
        image_size = image.shape.as_list() if image.shape.is_fully_defined() else shape_of(image)
        image_size = convert_to_tensor(image_size, dtype=dtypes.int32)
        grad_image = _out("CropAndResizeGradImage", [grad, boxes, box_index, image_size],
                          {"T": image.dtype.base_dtype, "method": op._attrs["method"]})[0]
    grad_boxes = _out("CropAndResizeGradBoxes", [grad, image, boxes, box_index], {"T": image.dtype.base_dtype,
                                                                                  "method": "bilinear"})[0]
    return [grad_image, grad_boxes, None, None]
