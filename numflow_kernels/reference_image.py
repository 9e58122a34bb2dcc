"""NumPy kernels of the image ops: ResizeBilinear, ResizeNearestNeighbor, ResizeBicubic, ResizeArea, the
gradients of the first two, and AdjustContrastv2.

The spec, as TensorFlow's kernels compute it on ``[batch, height, width, channels]`` images: along each axis
the scale is ``in / out``, or ``(in - 1) / (out - 1)`` with ``align_corners`` (float32). Output row ``y`` samples
the input at ``y * scale`` (legacy), or ``(y + 0.5) * scale - 0.5`` with ``half_pixel_centers`` (nearest
neighbour: ``(y + 0.5) * scale``, rounded down, or to nearest with ``align_corners``). Bilinear mixes the two rows
around the sample (``lerp = src - floor(src)``, indices clamped); bicubic mixes four with the weights of
TensorFlow's 1024-entry table of Keys' cubic (``a = -0.75``, or ``-0.5`` with half-pixel centers, where
weights that fall outside the image are dropped and the rest renormalised); area averages the input cells each
output cell covers, weighted by the part covered. All four are separable, so each is computed here as two
matrix products with per-axis weight matrices (in float64, rounded to float32 once); the gradients are the
transposed products, so ``ResizeBilinearGrad`` and ``ResizeNearestNeighborGrad`` scatter-add exactly what the
forward op gathered.
"""

import numpy as np

from numflow_kernels.registry import REFERENCE, register

_TABLE_SIZE = 1024


def kernel(op_type, **flags):
    return register(op_type, REFERENCE, **flags)


def _scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


def _check(attrs, images_shape, size):
    if len(images_shape) != 4:
        raise ValueError(f"input must be 4-dimensional{list(images_shape)}")
    if np.shape(size) != (2,):
        raise ValueError(f"shape_t must be 1-dimensional with two elements: {list(np.shape(size))}")
    if attrs.get("half_pixel_centers") and attrs["align_corners"]:
        raise ValueError("If half_pixel_centers is True, align_corners must be False.")
    out_h, out_w = (int(s) for s in size)
    if out_h <= 0 or out_w <= 0:
        raise ValueError("output dimensions must be positive")
    if images_shape[1] == 0 or images_shape[2] == 0:
        raise ValueError("input image must be of non-zero size")
    return out_h, out_w


def linear_taps(in_size, out_size, align_corners, half_pixel):
    """Bilinear resampling along one axis as TensorFlow computes it: each output index's lower and upper
    input index and the float32 weight of the upper one."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale
    floor = np.floor(src)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(src).astype(np.int64), in_size - 1)
    return lower, upper, (src - floor).astype(np.float32)


def _linear(in_size, out_size, align_corners, half_pixel):
    """The ``[out, in]`` weights of bilinear resampling along one axis."""
    lower, upper, lerp = linear_taps(in_size, out_size, align_corners, half_pixel)
    lerp = lerp.astype(np.float64)
    weights = np.zeros((out_size, in_size))
    rows = np.arange(out_size)
    np.add.at(weights, (rows, lower), 1 - lerp)
    np.add.at(weights, (rows, upper), lerp)
    return weights


def _nearest_index(in_size, out_size, align_corners, half_pixel):
    """The input index each output index copies along one axis."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale if half_pixel else i * scale
    # roundf rounds halves away from zero; the sources are never negative.
    index = np.floor(src + np.float32(0.5)) if align_corners else np.floor(src)
    index = np.minimum(index.astype(np.int64), in_size - 1)
    return np.maximum(index, 0) if half_pixel else index


def _cubic_table(a):
    x = (np.arange(_TABLE_SIZE + 1) / _TABLE_SIZE).astype(np.float32).astype(np.float64)
    near = (((a + 2) * x - (a + 3)) * x * x + 1).astype(np.float32)
    x = (x.astype(np.float32) + np.float32(1.0)).astype(np.float64)
    far = (((a * x - 5 * a) * x + 8 * a) * x - 4 * a).astype(np.float32)
    return near, far


_CUBIC_TABLES = {False: _cubic_table(-0.75), True: _cubic_table(-0.5)}


def _cubic(in_size, out_size, align_corners, half_pixel):
    """The ``[out, in]`` weights of bicubic resampling along one axis."""
    scale = _scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    src = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel else i * scale
    base = np.floor(src).astype(np.int64)
    offset = np.rint((src - base.astype(np.float32)) * np.float32(_TABLE_SIZE)).astype(np.int64)
    near, far = _CUBIC_TABLES[half_pixel]
    taps = np.stack([far[offset], near[offset], near[_TABLE_SIZE - offset], far[_TABLE_SIZE - offset]], 1)
    index = base[:, None] + np.arange(-1, 3)
    bounded = np.clip(index, 0, in_size - 1)
    if half_pixel:
        taps = np.where(bounded == index, taps, np.float32(0))
        total = taps.sum(1, dtype=np.float32)
        usable = np.abs(total) >= 1000 * np.finfo(np.float32).tiny
        taps = np.where(usable[:, None], taps * (np.float32(1) / np.where(usable, total, 1))[:, None], taps)
    weights = np.zeros((out_size, in_size))
    np.add.at(weights, (np.repeat(np.arange(out_size), 4), bounded.reshape(-1)), taps.reshape(-1))
    return weights


def area_taps(in_size, out_size, align_corners):
    """Area resampling along one axis as TensorFlow computes it: for each output index, the input indices it
    covers (clamped into the image) and the float32 part of each it covers, as ``offsets``, ``indices`` and
    ``parts`` (output ``o`` owns ``offsets[o]:offsets[o + 1]``), and the float32 scale ``in / out``."""
    scale = _scale(in_size, out_size, align_corners)
    offsets, indices, parts = [0], [], []
    for o in range(out_size):
        start, end = np.float32(o) * scale, np.float32(o + 1) * scale
        for i in range(int(np.floor(start)), int(np.ceil(end))):
            if i < start:
                part = scale if i + 1 > end else np.float32(i + 1) - start
            else:
                part = end - np.float32(i) if i + 1 > end else np.float32(1)
            indices.append(min(max(i, 0), in_size - 1))
            parts.append(part)
        offsets.append(len(indices))
    return np.array(offsets, np.int64), np.array(indices, np.int64), np.array(parts, np.float32), scale


def _area(in_size, out_size, align_corners):
    """The ``[out, in]`` weights of area resampling along one axis (each row sums to 1 inside the image)."""
    offsets, indices, parts, scale = area_taps(in_size, out_size, align_corners)
    weights = np.zeros((out_size, in_size))
    rows = np.repeat(np.arange(out_size), np.diff(offsets))
    np.add.at(weights, (rows, indices), parts.astype(np.float64) / float(scale))
    return weights


def _resample(images, weights_y, weights_x):
    across = np.einsum("yi,bijc->byjc", weights_y, images.astype(np.float64), optimize=True)
    return np.einsum("xj,byjc->byxc", weights_x, across, optimize=True)


def check_resize(attrs, images_shape, size):
    """The output height and width, after TensorFlow's checks of a resize's arguments."""
    return _check(attrs, images_shape, size)


def _axis_weights(ctx, images_shape, size, weights):
    out_h, out_w = _check(ctx.attrs, images_shape, size)
    options = (ctx.attrs["align_corners"],) + ((ctx.attrs.get("half_pixel_centers", False),)
                                               if weights is not _area else ())
    return weights(images_shape[1], out_h, *options), weights(images_shape[2], out_w, *options)


def _resize(weights):
    def run(ctx, images, size):
        return _resample(images, *_axis_weights(ctx, images.shape, size, weights)).astype(np.float32)
    return run


# The separable products are BLAS calls (einsum's tensordot).
resize_bilinear = kernel("ResizeBilinear", calls_blas=True)(_resize(_linear))
kernel("ResizeBicubic", calls_blas=True)(_resize(_cubic))
resize_area = kernel("ResizeArea", calls_blas=True)(_resize(_area))


def nearest_indices(ctx, in_shape, size):
    """The input row and column each output row and column of a nearest-neighbour resize copies."""
    out_h, out_w = _check(ctx.attrs, in_shape, size)
    options = ctx.attrs["align_corners"], ctx.attrs["half_pixel_centers"]
    return _nearest_index(in_shape[1], out_h, *options), _nearest_index(in_shape[2], out_w, *options)


@kernel("ResizeNearestNeighbor")
def resize_nearest_neighbor(ctx, images, size):
    rows, cols = nearest_indices(ctx, images.shape, size)
    return np.ascontiguousarray(images[:, rows][:, :, cols])


@kernel("ResizeNearestNeighborGrad")
def resize_nearest_neighbor_grad(ctx, grads, size):
    in_h, in_w = (int(s) for s in np.reshape(size, -1))
    if in_h <= 0 or in_w <= 0:
        raise ValueError("output dimensions must be positive")
    original = (grads.shape[0], in_h, in_w, grads.shape[3])
    rows, cols = nearest_indices(ctx, original, grads.shape[1:3])
    out = np.zeros(original, np.float64)
    np.add.at(out, (slice(None), rows[:, None], cols[None, :]), grads)
    return out.astype(grads.dtype)


@kernel("ResizeBilinearGrad", calls_blas=True)
def resize_bilinear_grad(ctx, grads, original_image):
    weights_y, weights_x = _axis_weights(ctx, original_image.shape, grads.shape[1:3], _linear)
    return _resample(grads, weights_y.T, weights_x.T).astype(original_image.dtype)


@kernel("AdjustContrastv2")
def adjust_contrast(ctx, images, contrast_factor):
    if images.ndim < 3:
        raise ValueError(f"input must be at least 3-D, got shape[{','.join(map(str, images.shape))}]")
    if np.ndim(contrast_factor) != 0:
        raise ValueError(f"contrast_factor must be scalar: {list(np.shape(contrast_factor))}")
    x = images.astype(np.float32)
    mean = x.mean(axis=(-3, -2), keepdims=True, dtype=np.float64).astype(np.float32)
    return ((x - mean) * np.float32(contrast_factor) + mean).astype(images.dtype)


@kernel("ResizeBicubicGrad", calls_blas=True)
def resize_bicubic_grad(ctx, grads, original_image):
    weights_y, weights_x = _axis_weights(ctx, original_image.shape, grads.shape[1:3], _cubic)
    return _resample(grads, weights_y.T, weights_x.T).astype(original_image.dtype)


# -- colour spaces ------------------------------------------------------------------------------------
def _channels(images, op_type):
    if op_type.startswith("Adjust") and images.ndim < 3:
        raise ValueError(f"input must be at least 3-D, got shape[{','.join(map(str, images.shape))}]")
    if images.ndim < 1 or images.shape[-1] != 3:
        raise ValueError(f"input must have 3 channels but input only has {images.shape[-1] if images.ndim else 0} "
                         "channels.")
    return images[..., 0], images[..., 1], images[..., 2]


def _rgb_to_hsv(r, g, b):
    v = np.maximum(np.maximum(r, g), b)
    value_range = v - np.minimum(np.minimum(r, g), b)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, value_range / v, 0).astype(r.dtype)
        norm = (1 / value_range) * r.dtype.type(1 / 6)
        h = np.where(r == v, norm * (g - b), np.where(g == v, norm * (b - r) + r.dtype.type(2 / 6),
                                                      norm * (r - g) + r.dtype.type(4 / 6)))
    h = np.where(value_range > 0, h, 0)
    return np.where(h < 0, h + 1, h).astype(r.dtype), s, v


@kernel("RGBToHSV")
def rgb_to_hsv(ctx, images):
    return np.stack(_rgb_to_hsv(*_channels(images, "RGBToHSV")), -1)


@kernel("HSVToRGB")
def hsv_to_rgb(ctx, images):
    h, s, v = _channels(images, "HSVToRGB")
    dh = h * h.dtype.type(6)
    dr = np.clip(np.abs(dh - 3) - 1, 0, 1)
    dg = np.clip(2 - np.abs(dh - 2), 0, 1)
    db = np.clip(2 - np.abs(dh - 4), 0, 1)
    one_s = 1 - s
    return np.stack([(one_s + s * d) * v for d in (dr, dg, db)], -1).astype(images.dtype)


def _hsv_sextants_to_rgb(h6, c, v):
    """RGB from a hue in [0, 6), chroma ``c`` and value ``v`` (AdjustSaturation's own conversion)."""
    m = v - c
    sextant = h6.astype(np.int64)
    fmodu = np.mod(h6, np.float32(2))
    fmodu = np.where(fmodu <= 0, fmodu + 2, fmodu)
    x = c * (1 - np.abs(fmodu - 1))
    zero = np.zeros_like(c)
    table = [(c, x, zero), (x, c, zero), (zero, c, x), (zero, x, c), (x, zero, c), (c, zero, x)]
    rgb = [np.select([sextant == k for k in range(6)], [row[i] for row in table], 0) for i in range(3)]
    return np.stack([channel + m for channel in rgb], -1)


@kernel("AdjustSaturation")
def adjust_saturation(ctx, images, scale):
    r, g, b = (c.astype(np.float32) for c in _channels(images, "AdjustSaturation"))
    h, s, v = _rgb_to_hsv(r, g, b)
    s = np.minimum(np.float32(1), np.maximum(np.float32(0), s * np.float32(scale)))
    return _hsv_sextants_to_rgb(h * np.float32(6), s * v, v).astype(images.dtype)


def _hue_ranges(r, g, b):
    """TensorFlow's hue in [0, 6) with the smallest and largest channel, by the order of the channels."""
    order = [(r < g) & (b < r), (r < g) & (b > g), r < g, (b < g), (b > r)]
    v_max = np.select(order, [g, b, g, r, b], r)
    v_mid = np.select(order, [r, g, b, g, r], b)
    v_min = np.select(order, [b, r, r, b, g], g)
    category = np.select(order, [1, 3, 2, 0, 4], 5)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (v_mid - v_min) / (v_max - v_min)
    h = category + np.where(category % 2 == 0, ratio, 1 - ratio)
    return np.where(v_max == v_min, 0, h).astype(np.float32), v_min, v_max


@kernel("AdjustHue")
def adjust_hue(ctx, images, delta):
    h, v_min, v_max = _hue_ranges(*(c.astype(np.float32) for c in _channels(images, "AdjustHue")))
    h = np.mod(h + np.float32(delta) * np.float32(6), np.float32(6))
    category = np.minimum(h.astype(np.int64), 5)
    ratio = h - category
    ratio = np.where(category % 2 == 0, ratio, 1 - ratio)
    v_mid = v_min + ratio * (v_max - v_min)
    table = [(v_max, v_mid, v_min), (v_mid, v_max, v_min), (v_min, v_max, v_mid), (v_min, v_mid, v_max),
             (v_mid, v_min, v_max), (v_max, v_min, v_mid)]
    rgb = [np.select([category == k for k in range(6)], [row[i] for row in table]) for i in range(3)]
    return np.stack(rgb, -1).astype(images.dtype)
