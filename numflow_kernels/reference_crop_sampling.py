"""Kernel of ``SampleDistortedBoundingBoxV2``: TensorFlow's random crops for the same seeds.

Spec: ``tensorflow/core/kernels/image/sample_distorted_bounding_box_op.cc``. Each run reserves
``4 * max_attempts`` 32-bit samples of the op's Philox stream (``max_attempts`` Philox calls) and
reads them in order through ``SimplePhilox``: per attempt one ``RandFloat`` for the aspect ratio,
then ``Uniform`` draws for the height and the corner. The arithmetic is float32 where TensorFlow's
is (areas, aspect ratios, ``lrintf``: round half to even), double where it mixes in a double
literal, and C's truncation where it casts to int.
"""

import math

import numpy as np

from numflow_kernels.buffer_ops import random_stream
from numflow_kernels.reference_math import kernel
from numflow_kernels.reference_sampling import SimplePhilox

_f32 = np.float32


def _lrint(value):
    return int(np.rint(value))


def _area(x0, y0, x1, y1):
    return _f32((x1 - x0) * (y1 - y0))


def _intersection_area(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return _f32(0.0) if x0 > x1 or y0 > y1 else _area(x0, y0, x1, y1)


def _covers(crop, min_covered, boxes):
    if _area(*crop) < _f32(1.0):
        return False
    for box in boxes:
        box_area = _area(*box)
        if box_area < _f32(1.0):
            continue
        if _intersection_area(crop, box) / box_area >= min_covered:
            return True
    return False


def _random_crop(width, height, min_fraction, max_fraction, aspect, rnd):
    """``GenerateRandomCrop``: ``(x0, y0, x1, y1)``, or None when the constraints cannot be met."""
    if max_fraction <= 0 or aspect <= 0 or width <= 0 or height <= 0 or min_fraction > max_fraction:
        return None
    min_area = min_fraction * _f32(width) * _f32(height)
    max_area = max_fraction * _f32(width) * _f32(height)
    crop_h = _lrint(np.sqrt(min_area / aspect))
    max_h = _lrint(np.sqrt(max_area / aspect))
    if _lrint(_f32(max_h) * aspect) > width:
        max_h = int((width + 0.5 - float(_f32(1e-7))) / float(aspect))
        if _lrint(_f32(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    crop_h = min(crop_h, max_h)
    if crop_h < max_h:
        crop_h += rnd.uniform32(max_h - crop_h + 1)
    crop_w = _lrint(_f32(crop_h) * aspect)
    area = _f32(crop_w * crop_h)
    if area < min_area:
        crop_h += 1
        crop_w = _lrint(_f32(crop_h) * aspect)
        area = _f32(crop_w * crop_h)
    if area > max_area:
        crop_h -= 1
        crop_w = _lrint(_f32(crop_h) * aspect)
        area = _f32(crop_w * crop_h)
    if area < min_area or area > max_area or crop_w > width or crop_h > height or crop_w <= 0 or crop_h <= 0:
        return None
    y = rnd.uniform32(height - crop_h) if crop_h < height else 0
    x = rnd.uniform32(width - crop_w) if crop_w < width else 0
    return x, y, x + crop_w, y + crop_h


def _checked(attrs, min_covered):
    aspect, area = attrs["aspect_ratio_range"], attrs["area_range"]
    if min_covered < 0:
        raise ValueError(f"Min object covered must be non-negative: {min_covered:g}")
    if len(aspect) != 2:
        raise ValueError("Aspect ratio range field must specify 2 dimensions")
    if not (aspect[0] > 0 and aspect[1] > 0):
        raise ValueError(f"Aspect ratio range must be non-negative: [{aspect[0]:g}, {aspect[1]:g}]")
    if len(area) != 2:
        raise ValueError("Area range field must specify 2 dimensions")
    if not (area[0] > 0 and area[1] > 0):
        raise ValueError(f"Area range must be non-negative: [{area[0]:g}, {area[1]:g}]")
    if not (area[0] <= 1 and area[1] <= 1):
        raise ValueError(f"Area range must be less then or equal to 1.0: [{area[0]:g}, {area[1]:g}]")
    if attrs["max_attempts"] <= 0:
        raise ValueError(f"Max attempts must be non-negative: {attrs['max_attempts']}")
    return [_f32(v) for v in aspect], [_f32(v) for v in area]


def _boxes(boxes, width, height, use_image):
    rects = []
    for y0, x0, y1, x1 in np.asarray(boxes, np.float32).reshape(-1, 4):
        for coordinate in (y0, x0, y1, x1):
            if not 0.0 <= coordinate <= 1.0:
                raise ValueError(f"All bounding box coordinates must be in [0.0, 1.0]: {coordinate:g}")
        rects.append((int(x0 * _f32(width)), int(y0 * _f32(height)), int(x1 * _f32(width)), int(y1 * _f32(height))))
    if not rects:
        if not use_image:
            raise ValueError("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes "
                             "if you wish to not provide any bounding boxes.")
        rects.append((0, 0, width, height))
    return rects


@kernel("SampleDistortedBoundingBoxV2")
def sample_distorted_bounding_box(ctx, image_size, boxes, min_object_covered):
    a = ctx.attrs
    if np.ndim(image_size) != 1 or np.size(image_size) != 3:
        raise ValueError(f"image_size must contain 3 elements[{np.size(image_size)}]")
    if np.ndim(boxes) != 3 or np.shape(boxes)[-1] != 4:
        raise ValueError(f"bounding boxes must have shape [4] or [*, 4], got {list(np.shape(boxes))}")
    min_covered = _f32(min_object_covered)
    (min_aspect, max_aspect), (min_area, max_area) = _checked(a, min_covered)
    height, width = int(image_size[0]), int(image_size[1])
    rects = _boxes(boxes, width, height, a["use_image_if_no_bounding_boxes"])
    stream = random_stream(ctx)
    rnd = SimplePhilox(stream.seed, stream.seed2, stream.reserve_calls(math.ceil(4 * a["max_attempts"] / 4)))
    crop = (0, 0, width, height)
    for _ in range(a["max_attempts"]):
        aspect = rnd.rand_float() * (max_aspect - min_aspect) + min_aspect
        candidate = _random_crop(width, height, min_area, max_area, aspect, rnd)
        if candidate is not None and _covers(candidate, min_covered, rects):
            crop = candidate
            break
    x0, y0, x1, y1 = crop
    dtype = np.asarray(image_size).dtype
    begin = np.array([y0, x0, 0], dtype)
    size = np.array([y1 - y0, x1 - x0, -1], dtype)
    box = np.array([[[y0 / _f32(height), x0 / _f32(width), y1 / _f32(height), x1 / _f32(width)]]], np.float32)
    return begin, size, box
