"""Numba kernels of ResizeBilinear and ResizeBilinearGrad, in TensorFlow's float32 arithmetic, and of
ResizeNearestNeighbor (a gather) and ResizeArea (TensorFlow's sums of covered cells, in its order).

The spec and the per-axis taps are ``reference_image.py``'s. The forward op computes each output pixel alone
(rows in parallel); the gradient adds each batch image's contributions in TensorFlow's order (row by row), one image
per thread, so the result does not depend on the thread count. Numba is imported when a kernel first runs.
"""

import numpy as np

from numflow_kernels import reference_image
from numflow_kernels.cpu import twins
from numflow_kernels.registry import register

prange = range  # Numba's once the twin is compiled (see twins.LazyTwin)


def _bilinear(images, out, top, bottom, y_lerp, left, right, x_lerp):
    batch, out_h, out_w, channels = out.shape
    for row in prange(batch * out_h):
        b, y = row // out_h, row % out_h
        t, d, yl = top[y], bottom[y], y_lerp[y]
        for x in range(out_w):
            lo, hi, xl = left[x], right[x], x_lerp[x]
            for c in range(channels):
                top_left = np.float32(images[b, t, lo, c])
                top_right = np.float32(images[b, t, hi, c])
                bottom_left = np.float32(images[b, d, lo, c])
                bottom_right = np.float32(images[b, d, hi, c])
                upper = top_left + (top_right - top_left) * xl
                lower = bottom_left + (bottom_right - bottom_left) * xl
                out[b, y, x, c] = upper + (lower - upper) * yl


def _bilinear_grad(grads, out, top, bottom, y_lerp, left, right, x_lerp):
    batch, grad_h, grad_w, channels = grads.shape
    one = np.float32(1)
    for b in prange(batch):
        for y in range(grad_h):
            t, d, yl = top[y], bottom[y], y_lerp[y]
            for x in range(grad_w):
                lo, hi, xl = left[x], right[x], x_lerp[x]
                for c in range(channels):
                    g = grads[b, y, x, c]
                    out[b, t, lo, c] += g * (one - yl) * (one - xl)
                    out[b, t, hi, c] += g * (one - yl) * xl
                    out[b, d, lo, c] += g * yl * (one - xl)
                    out[b, d, hi, c] += g * yl * xl


def _nearest(images, out, rows, cols):
    batch, out_h, out_w, channels = out.shape
    for row in prange(batch * out_h):
        b, y = row // out_h, row % out_h
        source = rows[y]
        for x in range(out_w):
            for c in range(channels):
                out[b, y, x, c] = images[b, source, cols[x], c]


def _area(images, out, y_offsets, y_indices, y_parts, x_offsets, x_indices, x_parts, scale):
    batch, out_h, out_w, channels = out.shape
    for row in prange(batch * out_h):
        b, y = row // out_h, row % out_h
        for x in range(out_w):
            for c in range(channels):
                total = np.float32(0)
                for i in range(y_offsets[y], y_offsets[y + 1]):
                    across = np.float32(0)
                    for j in range(x_offsets[x], x_offsets[x + 1]):
                        across += x_parts[j] * np.float32(images[b, y_indices[i], x_indices[j], c])
                    total += y_parts[i] * across
                out[b, y, x, c] = total * scale


_BILINEAR = twins.LazyTwin(_bilinear)
_AREA = twins.LazyTwin(_area)
_NEAREST = twins.LazyTwin(_nearest)
_BILINEAR_GRAD = twins.LazyTwin(_bilinear_grad)


def _taps(attrs, in_shape, out_h, out_w):
    options = attrs["align_corners"], attrs["half_pixel_centers"]
    return (*reference_image.linear_taps(in_shape[1], out_h, *options),
            *reference_image.linear_taps(in_shape[2], out_w, *options))


@register("ResizeBilinear")
def resize_bilinear(ctx, images, size):
    if images.dtype == np.float16:  # Numba has no float16 arithmetic
        return reference_image.resize_bilinear(ctx, images, size)
    out_h, out_w = reference_image.check_resize(ctx.attrs, images.shape, size)
    out = np.empty((images.shape[0], out_h, out_w, images.shape[3]), np.float32)
    twins.launch(_BILINEAR, out.size, np.ascontiguousarray(images), out, *_taps(ctx.attrs, images.shape, out_h, out_w))
    return out


@register("ResizeBilinearGrad")
def resize_bilinear_grad(ctx, grads, original_image):
    if original_image.dtype == np.float16:
        return reference_image.resize_bilinear_grad(ctx, grads, original_image)
    reference_image.check_resize(ctx.attrs, original_image.shape, grads.shape[1:3])
    out = np.zeros(original_image.shape, original_image.dtype)
    grads = np.ascontiguousarray(grads, np.float32)
    twins.launch(_BILINEAR_GRAD, grads.size, grads, out, *_taps(ctx.attrs, original_image.shape, *grads.shape[1:3]))
    return out


@register("ResizeNearestNeighbor")
def resize_nearest_neighbor(ctx, images, size):
    if images.dtype == np.float16:
        return reference_image.resize_nearest_neighbor(ctx, images, size)
    rows, cols = reference_image.nearest_indices(ctx, images.shape, size)
    out = np.empty((images.shape[0], len(rows), len(cols), images.shape[3]), images.dtype)
    twins.launch(_NEAREST, out.size, np.ascontiguousarray(images), out, rows, cols)
    return out


@register("ResizeArea")
def resize_area(ctx, images, size):
    if images.dtype == np.float16:
        return reference_image.resize_area(ctx, images, size)
    out_h, out_w = reference_image.check_resize(ctx.attrs, images.shape, size)
    out = np.empty((images.shape[0], out_h, out_w, images.shape[3]), np.float32)
    *rows, height_scale = reference_image.area_taps(images.shape[1], out_h, ctx.attrs["align_corners"])
    *cols, width_scale = reference_image.area_taps(images.shape[2], out_w, ctx.attrs["align_corners"])
    scale = np.float32(1.0 / (float(height_scale) * float(width_scale)))
    twins.launch(_AREA, out.size, np.ascontiguousarray(images), out, *rows, *cols, scale)
    return out
