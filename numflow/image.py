"""``tf.image``: image files, resizing, cropping and padding, flips and rotations, colour and dtype
conversions, HSV, and non-max suppression; re-exports only."""

from numflow.ops.image_box_ops import (
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_padded,
    non_max_suppression_with_scores,
)
from numflow.ops.image_codec_ops import (
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
)
from numflow.ops.image_color_ops import (
    adjust_brightness,
    adjust_contrast,
    adjust_hue,
    adjust_saturation,
    convert_image_dtype,
    grayscale_to_rgb,
    hsv_to_rgb,
    per_image_standardization,
    random_brightness,
    random_contrast,
    random_hue,
    random_saturation,
    rgb_to_grayscale,
    rgb_to_hsv,
)
from numflow.ops.image_crop_ops import crop_and_resize
from numflow.ops.image_crop_sampling_ops import sample_distorted_bounding_box
from numflow.ops.image_draw_ops import draw_bounding_boxes
from numflow.ops.image_ops import (
    central_crop,
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    pad_to_bounding_box,
    random_flip_left_right,
    random_flip_up_down,
    resize_image_with_crop_or_pad,
    resize_image_with_pad,
    rot90,
    transpose,
)
from numflow.ops.image_quality_ops import (
    adjust_gamma,
    image_gradients,
    psnr,
    rgb_to_yiq,
    rgb_to_yuv,
    sobel_edges,
    ssim,
    total_variation,
    yiq_to_rgb,
    yuv_to_rgb,
)
from numflow.ops.image_resize_ops import (
    ResizeMethod,
    resize_area,
    resize_bicubic,
    resize_bilinear,
    resize_images,
    resize_nearest_neighbor,
)
from numflow.ops.patch_ops import extract_image_patches
from numflow.ops.sampling_ops import random_crop

extract_patches = extract_image_patches
resize = resize_images
resize_with_crop_or_pad = resize_image_with_crop_or_pad
transpose_image = transpose

__all__ = [
    "adjust_brightness", "adjust_contrast", "adjust_gamma", "adjust_hue", "adjust_saturation", "central_crop",
    "convert_image_dtype", "crop_and_resize", "crop_to_bounding_box", "decode_bmp", "decode_gif", "decode_image",
    "decode_jpeg", "decode_png", "draw_bounding_boxes", "encode_jpeg", "encode_png", "extract_image_patches",
    "extract_jpeg_shape", "extract_patches", "flip_left_right", "flip_up_down", "grayscale_to_rgb", "hsv_to_rgb",
    "image_gradients", "is_jpeg", "non_max_suppression", "non_max_suppression_overlaps",
    "non_max_suppression_padded", "non_max_suppression_with_scores", "pad_to_bounding_box",
    "per_image_standardization", "psnr", "random_brightness", "random_contrast", "random_crop",
    "random_flip_left_right", "random_flip_up_down", "random_hue", "random_saturation", "resize", "resize_area",
    "resize_bicubic", "resize_bilinear", "resize_image_with_crop_or_pad", "resize_image_with_pad", "resize_images",
    "resize_nearest_neighbor", "resize_with_crop_or_pad", "ResizeMethod", "rgb_to_grayscale", "rgb_to_hsv",
    "rgb_to_yiq", "rgb_to_yuv", "rot90", "sample_distorted_bounding_box", "sobel_edges", "ssim", "total_variation",
    "transpose", "transpose_image", "yiq_to_rgb", "yuv_to_rgb",
]
