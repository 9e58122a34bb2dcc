"""``tf.image.sample_distorted_bounding_box`` (op ``SampleDistortedBoundingBoxV2``): a random crop
of an image that covers enough of one of its objects, as Inception's preprocessing draws it, with
TensorFlow's crops for the same seeds. Kernel: ``numflow_kernels/reference_crop_sampling.py``.
"""

import collections

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops.array_grad import not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.op_util import _out, check_rank

SampleDistortedBoundingBoxV2 = collections.namedtuple("SampleDistortedBoundingBoxV2", ["begin", "size", "bboxes"])
_INT_TYPES = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)


@declare("SampleDistortedBoundingBoxV2", stateful=True)
def _sample_distorted_bounding_box_infer(op):
    image_size, boxes, min_object_covered = op.inputs
    if image_size.dtype.base_dtype not in _INT_TYPES:
        raise TypeError(f"Value passed to parameter 'image_size' has DataType {image_size.dtype.base_dtype.name} "
                        "not in list of allowed values: uint8, int8, int16, int32, int64")
    check_rank(image_size.shape, 1)
    check_rank(boxes.shape, 3)
    check_rank(min_object_covered.shape, 0)
    if image_size.shape.dim_values[0] not in (None, 3):
        raise ValueError(f"Dimension must be 3 but is {image_size.shape.dim_values[0]}")
    if boxes.shape.dim_values[2] not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {boxes.shape.dim_values[2]}")
    dtype = image_size.dtype.base_dtype
    return [(dtype, TensorShape([3])), (dtype, TensorShape([3])), (dtypes.float32, TensorShape([1, 1, 4]))]


not_differentiable("SampleDistortedBoundingBoxV2")


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """A random crop of an image of ``image_size`` (``[height, width, channels]``) that covers at least
    ``min_object_covered`` of one of the ``bounding_boxes`` (``[batch, N, 4]``, ``y_min, x_min,
    y_max, x_max`` in [0, 1]), with an aspect ratio in ``aspect_ratio_range`` and an area (a
    fraction of the image's) in ``area_range``, found in at most ``max_attempts`` draws; the
    whole image when none is found.

    Returns
    -------
    SampleDistortedBoundingBoxV2
        ``begin`` and ``size`` for ``tf.slice`` (the channels kept whole), and the crop as a box,
        ``[1, 1, 4]``, for ``tf.image.draw_bounding_boxes``.
    """
    # As in TensorFlow 1, the seeds go to the op as they are: the graph's seed plays no part, and
    # with neither seed each session draws other crops.
    attrs = {"seed": int(seed or 0), "seed2": int(seed2 or 0),
             "aspect_ratio_range": [float(r) for r in (aspect_ratio_range or (0.75, 1.33))],
             "area_range": [float(r) for r in (area_range or (0.05, 1.0))],
             "max_attempts": int(max_attempts or 100),
             "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}
    with get_default_graph().name_scope(name or "sample_distorted_bounding_box"):
        with get_default_graph().name_scope("SampleDistortedBoundingBoxV2") as scope:
            image_size = convert_to_tensor(image_size, name="image_size")
            bounding_boxes = convert_to_tensor(bounding_boxes, dtype=dtypes.float32)
            min_object_covered = convert_to_tensor(min_object_covered, dtype=dtypes.float32,
                                                   name="min_object_covered")
            outputs = _out("SampleDistortedBoundingBoxV2", [image_size, bounding_boxes, min_object_covered], attrs,
                           name=scope)
    return SampleDistortedBoundingBoxV2(*outputs)
