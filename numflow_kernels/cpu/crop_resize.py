"""Numba kernels of ``CropAndResize`` and its gradients ``CropAndResizeGradImage`` and
``CropAndResizeGradBoxes``, in TensorFlow's arithmetic.

Spec: ``tensorflow/core/kernels/image/crop_and_resize_op.cc`` (CPU). Coordinates and weights are
float32 as there, except where a one-pixel crop mixes in the double ``0.5``; C's int-to-float
promotions are written out, since Numba would promote to float64. The forward op and the box
gradient compute each box alone (boxes in parallel); the image gradient adds the boxes'
contributions one box after another, in TensorFlow's order, on one thread, so overlapping boxes
round alike on any machine.
"""

import math

import numpy as np

from numflow_kernels.cpu import twins
from numflow_kernels.errors import OutOfRange
from numflow_kernels.registry import register

prange = range  # Numba's once the twin is compiled (see twins.LazyTwin)


def _source(lo, hi, index, count, size, scale):
    """Where output row (or column) ``index`` of ``count`` samples the input of ``size`` pixels."""
    if count > 1:
        return lo * np.float32(size - 1) + np.float32(index) * scale
    return np.float32(0.5 * np.float64(lo + hi) * (size - 1))


def _scale(lo, hi, count, size):
    if count > 1:
        return (hi - lo) * np.float32(size - 1) / np.float32(count - 1)
    return np.float32(0)


def _taps(coordinate, size):
    """``(inside, low, high, lerp)``: the two pixels around ``coordinate`` of an axis of ``size`` and
    its weight between them; ``inside`` False when it falls outside the axis."""
    if coordinate < 0 or coordinate > np.float32(size - 1):
        return False, 0, 0, np.float32(0)
    low = int(math.floor(coordinate))
    return True, low, int(math.ceil(coordinate)), coordinate - np.float32(low)


def _nearest(coordinate):
    """C's ``roundf`` of a coordinate (never negative here): halves away from zero."""
    whole = math.floor(coordinate)
    return int(whole) + (1 if coordinate - whole >= 0.5 else 0)


def _crop(image, boxes, box_index, out, bilinear, extrapolation):
    _, height, width, depth = image.shape
    num_boxes, crop_h, crop_w, _ = out.shape
    for b in prange(num_boxes):
        y1, x1, y2, x2 = boxes[b, 0], boxes[b, 1], boxes[b, 2], boxes[b, 3]
        source = box_index[b]
        height_scale = _scale(y1, y2, crop_h, height)
        width_scale = _scale(x1, x2, crop_w, width)
        for y in range(crop_h):
            in_y = _source(y1, y2, y, crop_h, height, height_scale)
            inside, top, bottom, y_lerp = _taps(in_y, height)
            if not inside:
                out[b, y, :, :] = extrapolation
                continue
            for x in range(crop_w):
                in_x = _source(x1, x2, x, crop_w, width, width_scale)
                inside, left, right, x_lerp = _taps(in_x, width)
                if not inside:
                    out[b, y, x, :] = extrapolation
                    continue
                if bilinear:
                    for d in range(depth):
                        top_left = np.float32(image[source, top, left, d])
                        top_right = np.float32(image[source, top, right, d])
                        bottom_left = np.float32(image[source, bottom, left, d])
                        bottom_right = np.float32(image[source, bottom, right, d])
                        upper = top_left + (top_right - top_left) * x_lerp
                        lower = bottom_left + (bottom_right - bottom_left) * x_lerp
                        out[b, y, x, d] = upper + (lower - upper) * y_lerp
                else:
                    row, col = _nearest(in_y), _nearest(in_x)
                    for d in range(depth):
                        out[b, y, x, d] = np.float32(image[source, row, col, d])


def _grad_image(grads, boxes, box_index, out, bilinear):
    _, height, width, _ = out.shape
    num_boxes, crop_h, crop_w, depth = grads.shape
    one = np.float32(1)
    for b in range(num_boxes):
        y1, x1, y2, x2 = boxes[b, 0], boxes[b, 1], boxes[b, 2], boxes[b, 3]
        source = box_index[b]
        height_scale = _scale(y1, y2, crop_h, height)
        width_scale = _scale(x1, x2, crop_w, width)
        for y in range(crop_h):
            in_y = _source(y1, y2, y, crop_h, height, height_scale)
            inside, top, bottom, y_lerp = _taps(in_y, height)
            if not inside:
                continue
            for x in range(crop_w):
                in_x = _source(x1, x2, x, crop_w, width, width_scale)
                inside, left, right, x_lerp = _taps(in_x, width)
                if not inside:
                    continue
                if bilinear:
                    for d in range(depth):
                        dtop = (one - y_lerp) * grads[b, y, x, d]
                        out[source, top, left, d] += (one - x_lerp) * dtop
                        out[source, top, right, d] += x_lerp * dtop
                        dbottom = y_lerp * grads[b, y, x, d]
                        out[source, bottom, left, d] += (one - x_lerp) * dbottom
                        out[source, bottom, right, d] += x_lerp * dbottom
                else:
                    row, col = _nearest(in_y), _nearest(in_x)
                    for d in range(depth):
                        out[source, row, col, d] += grads[b, y, x, d]


def _grad_boxes(grads, image, boxes, box_index, out):
    _, height, width, _ = image.shape
    num_boxes, crop_h, crop_w, depth = grads.shape
    one = np.float32(1)
    for b in prange(num_boxes):
        y1, x1, y2, x2 = boxes[b, 0], boxes[b, 1], boxes[b, 2], boxes[b, 3]
        source = box_index[b]
        height_ratio = np.float32(height - 1) / np.float32(crop_h - 1) if crop_h > 1 else np.float32(0)
        width_ratio = np.float32(width - 1) / np.float32(crop_w - 1) if crop_w > 1 else np.float32(0)
        height_scale = (y2 - y1) * height_ratio if crop_h > 1 else np.float32(0)
        width_scale = (x2 - x1) * width_ratio if crop_w > 1 else np.float32(0)
        dy1, dx1, dy2, dx2 = np.float32(0), np.float32(0), np.float32(0), np.float32(0)
        for y in range(crop_h):
            in_y = _source(y1, y2, y, crop_h, height, height_scale)
            inside, top, bottom, y_lerp = _taps(in_y, height)
            if not inside:
                continue
            for x in range(crop_w):
                in_x = _source(x1, x2, x, crop_w, width, width_scale)
                inside, left, right, x_lerp = _taps(in_x, width)
                if not inside:
                    continue
                for d in range(depth):
                    top_left = np.float32(image[source, top, left, d])
                    top_right = np.float32(image[source, top, right, d])
                    bottom_left = np.float32(image[source, bottom, left, d])
                    bottom_right = np.float32(image[source, bottom, right, d])
                    grad_y = (one - x_lerp) * (bottom_left - top_left) + x_lerp * (bottom_right - top_right)
                    grad_x = (one - y_lerp) * (top_right - top_left) + y_lerp * (bottom_right - bottom_left)
                    g = grads[b, y, x, d]
                    grad_y *= g
                    grad_x *= g
                    if crop_h > 1:
                        dy1 += grad_y * (np.float32(height - 1) - np.float32(y) * height_ratio)
                        dy2 += grad_y * (np.float32(y) * height_ratio)
                    else:
                        half = np.float64(grad_y) * 0.5 * (height - 1)
                        dy1 = np.float32(np.float64(dy1) + half)
                        dy2 = np.float32(np.float64(dy2) + half)
                    if crop_w > 1:
                        dx1 += grad_x * (np.float32(width - 1) - np.float32(x) * width_ratio)
                        dx2 += grad_x * (np.float32(x) * width_ratio)
                    else:
                        half = np.float64(grad_x) * 0.5 * (width - 1)
                        dx1 = np.float32(np.float64(dx1) + half)
                        dx2 = np.float32(np.float64(dx2) + half)
        out[b, 0], out[b, 1], out[b, 2], out[b, 3] = dy1, dx1, dy2, dx2


class _Loops(twins.LazyTwin):
    """A twin whose loops call this module's helpers, compiled (inline) before the loops are."""

    def __iter__(self):
        if self._pair is None:
            import numba

            for helper in (_source, _scale, _taps, _nearest):
                if not isinstance(helper, numba.core.dispatcher.Dispatcher):
                    globals()[helper.__name__] = numba.njit(inline="always")(helper)
        return super().__iter__()


_CROP = _Loops(_crop)
_GRAD_IMAGE = _Loops(_grad_image)
_GRAD_BOXES = _Loops(_grad_boxes)


def _checked_boxes(boxes, box_index, batch):
    boxes = np.asarray(boxes)
    box_index = np.asarray(box_index)
    if boxes.size == 0 and box_index.size == 0:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int32)
    if boxes.ndim != 2:
        raise ValueError(f"boxes must be 2-D, got: {list(boxes.shape)}")
    if boxes.shape[1] != 4:
        raise ValueError("boxes must have 4 columns")
    if box_index.ndim != 1:
        raise ValueError(f"box_indices must be rank 1 but is shape {list(box_index.shape)}")
    if box_index.shape[0] != boxes.shape[0]:
        raise ValueError("box_index has incompatible shape")
    if ((box_index < 0) | (box_index >= batch)).any():
        raise OutOfRange("box_index has values outside [0, batch_size)")
    return np.ascontiguousarray(boxes, np.float32), np.ascontiguousarray(box_index, np.int32)


def _image_as_float32(image):
    """The image for the loops: float32 values where Numba cannot compute in its dtype (float16)."""
    return np.ascontiguousarray(image, np.float32 if image.dtype == np.float16 else image.dtype)


@register("CropAndResize")
def crop_and_resize(ctx, image, boxes, box_index, crop_size):
    if image.ndim != 4:
        raise ValueError(f"input image must be 4-D{list(image.shape)}")
    if image.shape[1] <= 0 or image.shape[2] <= 0:
        raise ValueError("image dimensions must be positive")
    boxes, box_index = _checked_boxes(boxes, box_index, image.shape[0])
    crop_h, crop_w = (int(v) for v in np.asarray(crop_size).reshape(-1))
    if crop_h <= 0 or crop_w <= 0:
        raise ValueError("crop dimensions must be positive")
    if not np.isfinite(boxes).all():
        raise ValueError("Boxes contains at least one element that is not finite")
    out = np.empty((len(boxes), crop_h, crop_w, image.shape[3]), np.float32)
    a = ctx.attrs
    twins.launch(_CROP, out.size, _image_as_float32(image), boxes, box_index, out, a["method"] == "bilinear",
                 np.float32(a["extrapolation_value"]))
    return out


@register("CropAndResizeGradImage")
def crop_and_resize_grad_image(ctx, grads, boxes, box_index, image_size):
    batch, height, width, depth = (int(v) for v in np.asarray(image_size).reshape(-1))
    if height <= 0 or width <= 0:
        raise ValueError("image dimensions must be positive")
    boxes, box_index = _checked_boxes(boxes, box_index, batch)
    if grads.shape[0] != len(boxes):
        raise ValueError("boxes and grads have incompatible shape")
    if grads.shape[3] != depth:
        raise ValueError("image_size and grads are incompatible")
    dtype = np.dtype(ctx.attrs["T"])
    out = np.zeros((batch, height, width, depth), np.float32 if dtype == np.float16 else dtype)
    serial, _ = _GRAD_IMAGE
    serial(np.ascontiguousarray(grads, np.float32), boxes, box_index, out, ctx.attrs["method"] == "bilinear")
    return out.astype(dtype, copy=False)


@register("CropAndResizeGradBoxes")
def crop_and_resize_grad_boxes(ctx, grads, image, boxes, box_index):
    if image.shape[3] != grads.shape[3]:
        raise ValueError("image, grads depth differ")
    boxes, box_index = _checked_boxes(boxes, box_index, image.shape[0])
    if grads.shape[0] != len(boxes):
        raise ValueError("boxes and grads have incompatible shape")
    out = np.zeros((len(boxes), 4), np.float32)
    twins.launch(_GRAD_BOXES, grads.size, np.ascontiguousarray(grads, np.float32), _image_as_float32(image), boxes,
                 box_index, out)
    return out
