"""``tf.image``: resizing, cropping and padding, flips and rotations, colour and dtype conversions."""

from numflow.ops.image_resize_ops import (
    ResizeMethod,
    resize_area,
    resize_bicubic,
    resize_bilinear,
    resize_images,
    resize_nearest_neighbor,
)

resize = resize_images

__all__ = [
    "ResizeMethod", "resize", "resize_area", "resize_bicubic", "resize_bilinear", "resize_images",
    "resize_nearest_neighbor",
]
