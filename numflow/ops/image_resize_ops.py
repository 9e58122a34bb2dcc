"""TensorFlow 1's resize ops (``ResizeBilinear``, ``ResizeNearestNeighbor``, ``ResizeBicubic``, ``ResizeArea``) and
their gradients, with ``tf.image.resize_images`` (``tf.image.resize`` in compat.v1) on top.

Each op takes ``[batch, height, width, channels]`` images and a 1-D int32 ``size`` of two elements
(``new_height, new_width``); nearest neighbour keeps the images' dtype, the others give float32. Kernels:
``numflow_kernels/reference_image.py``, which states what each computes.
"""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops
from numflow.ops.array_grad import gradient, not_differentiable
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.math_ops import FLOATS, SIGNED, UNSIGNED
from numflow.ops.op_util import _out, check_dtype, check_rank, shape_from_tensor

_IMAGE_TYPES = (dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.int64) + FLOATS
_NEAREST_TYPES = SIGNED + UNSIGNED + FLOATS
_GRAD_TYPES = FLOATS


class ResizeMethod:
    """TensorFlow 1's resize methods (``tf.image.ResizeMethod``)."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def _resized_shape(images, size):
    check_rank(images.shape, 4)
    check_rank(size.shape, 1)
    n = size.shape.dim_values[0]
    if n is not None and n != 2:
        raise ValueError(f"Dimension must be 2 but is {n}")
    check_dtype(size, (dtypes.int32,), "size")
    new = shape_from_tensor(size)
    height, width = (None, None) if new.ndims is None else new.dim_values
    dims = images.shape.dim_values if images.shape.ndims is not None else [None] * 4
    return TensorShape([dims[0], height, width, dims[3]])


def _resize_infer(op):
    images, size = op.inputs
    nearest = op.type == "ResizeNearestNeighbor"
    check_dtype(images, _NEAREST_TYPES if nearest else _IMAGE_TYPES, "images")
    return [(images.dtype.base_dtype if nearest else dtypes.float32, _resized_shape(images, size))]


for _op_type in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea"):
    declare(_op_type)(_resize_infer)


@declare("ResizeBilinearGrad")
@declare("ResizeBicubicGrad")
def _resize_grad_infer(op):
    grads, original = op.inputs
    check_dtype(grads, (dtypes.float32,), "grads")
    check_dtype(original, _GRAD_TYPES, "original_image")
    check_rank(grads.shape, 4)
    check_rank(original.shape, 4)
    return [(original.dtype.base_dtype, original.shape)]


@declare("ResizeNearestNeighborGrad")
def _nearest_grad_infer(op):
    grads, size = op.inputs
    check_dtype(grads, _NEAREST_TYPES, "grads")
    return [(grads.dtype.base_dtype, _resized_shape(grads, size))]


def _resize_op(op_type, images, size, name, **attrs):
    with get_default_graph().name_scope(name or op_type) as scope:
        images = convert_to_tensor(images, name="images")
        size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        return _out(op_type, [images, size], {k: bool(v) for k, v in attrs.items()}, name=scope)[0]


def resize_bilinear(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """``images`` resized to ``size`` by bilinear interpolation (op ``ResizeBilinear``, float32 result).

    Parameters
    ----------
    images : Tensor
        ``[batch, height, width, channels]``, any real dtype.
    size : Tensor or list of int
        ``[new_height, new_width]``, int32.
    align_corners : bool
        Map the corner pixels' centres onto each other.
    name : str, optional
    half_pixel_centers : bool
        Sample at pixel centres (``(y + 0.5) * scale - 0.5``); excludes ``align_corners``.
    """
    return _resize_op("ResizeBilinear", images, size, name, align_corners=align_corners,
                      half_pixel_centers=half_pixel_centers)


def resize_nearest_neighbor(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """``images`` resized to ``size`` by copying the nearest pixel (op ``ResizeNearestNeighbor``, same dtype)."""
    return _resize_op("ResizeNearestNeighbor", images, size, name, align_corners=align_corners,
                      half_pixel_centers=half_pixel_centers)


def resize_bicubic(images, size, align_corners=False, name=None, half_pixel_centers=False):
    """``images`` resized to ``size`` by Keys' cubic interpolation (op ``ResizeBicubic``, float32 result)."""
    return _resize_op("ResizeBicubic", images, size, name, align_corners=align_corners,
                      half_pixel_centers=half_pixel_centers)


def resize_area(images, size, align_corners=False, name=None):
    """``images`` resized to ``size`` by averaging the area each output pixel covers (op ``ResizeArea``)."""
    return _resize_op("ResizeArea", images, size, name, align_corners=align_corners)


_METHODS = {ResizeMethod.BILINEAR: resize_bilinear, ResizeMethod.NEAREST_NEIGHBOR: resize_nearest_neighbor,
            ResizeMethod.BICUBIC: resize_bicubic, ResizeMethod.AREA: resize_area,
            "bilinear": resize_bilinear, "nearest": resize_nearest_neighbor, "bicubic": resize_bicubic,
            "area": resize_area}


def resize_images(images, size, method=ResizeMethod.BILINEAR, align_corners=False, preserve_aspect_ratio=False,
                  name=None):
    """``images`` (``[batch, h, w, c]`` or ``[h, w, c]``) resized to ``size`` by ``method``, as TensorFlow 1's
    ``tf.image.resize_images``: unchanged when the size is statically the same; float32 unless nearest neighbour.

    Parameters
    ----------
    images : Tensor
        3-D or 4-D images.
    size : Tensor or list of int
        ``[new_height, new_width]``.
    method : int or str
        A :class:`ResizeMethod`.
    align_corners : bool
    preserve_aspect_ratio : bool
        Fit inside ``size`` keeping the height:width ratio.
    name : str, optional
    """
    with get_default_graph().name_scope(name or "resize"):
        images = convert_to_tensor(images, name="images")
        if images.shape.ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = images.shape.ndims == 4
        if images.shape.ndims == 3:
            images = array_ops.expand_dims(images, 0)
        elif not is_batch:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.shape.dim_values
        try:
            size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.shape.is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
        if preserve_aspect_ratio:
            size = _aspect_size(images, size)
        new_height, new_width = shape_from_tensor(size).dim_values
        if None not in (height, width, new_height, new_width) and (height, width) == (new_height, new_width):
            return images if is_batch else array_ops.squeeze(images, axis=[0])
        if method not in _METHODS:
            raise ValueError(f"Resize method is not implemented: {method}")
        images = _METHODS[method](images, size, align_corners=align_corners)
        images.set_shape([None, new_height, new_width, None])
        return images if is_batch else array_ops.squeeze(images, axis=[0])


def _aspect_size(images, size):
    shape = array_ops.shape(images) if not images.shape.is_fully_defined() else None
    current = [d if d is not None else shape[i] for i, d in ((1, images.shape.dim_values[1]),
                                                             (2, images.shape.dim_values[2]))]
    as_float = lambda v: math_ops.cast(v, dtypes.float32)
    scale = math_ops.minimum(as_float(size[0]) / as_float(current[0]), as_float(size[1]) / as_float(current[1]))
    scaled = [math_ops.cast(math_ops.round(scale * as_float(d)), dtypes.int32) for d in current]
    return convert_to_tensor(array_ops.stack(scaled), dtype=dtypes.int32, name="size")


def _resize_attrs(op):
    return {k: op._attrs[k] for k in ("align_corners", "half_pixel_centers")}


@gradient("ResizeBilinear")
def _resize_bilinear_grad(op, grad):
    return [_out("ResizeBilinearGrad", [grad, op.inputs[0]], _resize_attrs(op))[0], None]


@gradient("ResizeBicubic")
def _resize_bicubic_grad(op, grad):
    if op.inputs[0].dtype.base_dtype not in (dtypes.float32, dtypes.float64):
        return [None, None]
    return [_out("ResizeBicubicGrad", [grad, op.inputs[0]], _resize_attrs(op))[0], None]


@gradient("ResizeNearestNeighbor")
def _resize_nearest_neighbor_grad(op, grad):
    image = op.inputs[0]
    dims = image.shape.dim_values[1:3] if image.shape.ndims is not None else [None, None]
    image_shape = dims if None not in dims else array_ops.shape(image)[1:3]
    image_shape = convert_to_tensor(image_shape, dtype=dtypes.int32)
    return [_out("ResizeNearestNeighborGrad", [grad, image_shape], _resize_attrs(op))[0], None]


not_differentiable("ResizeBilinearGrad", "ResizeBicubicGrad")
