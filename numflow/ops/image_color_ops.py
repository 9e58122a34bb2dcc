"""``tf.image``'s pixel-value functions as TensorFlow 1 builds them: convert_image_dtype, per_image_standardization,
adjust_brightness and adjust_contrast (op ``AdjustContrastv2``) with their seeded random forms, and
rgb_to_grayscale / grayscale_to_rgb. Kernel of ``AdjustContrastv2``: ``numflow_kernels/reference_image.py``."""

from numflow.framework import dtypes
from numflow.framework.graph import get_default_graph
from numflow.framework.registry import declare
from numflow.framework.shapes import TensorShape
from numflow.ops import array_ops, math_ops, random_ops
from numflow.ops.constant_op import convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.einsum_ops import tensordot
from numflow.ops.elementwise_ops import saturate_cast
from numflow.ops.image_ops import assert_at_least_3d
from numflow.ops.math_composites import reduce_std
from numflow.ops.op_util import _out, check_dtype, check_rank


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """``image`` converted to ``dtype``, rescaling values: floats span [0, 1), integers [0, dtype.max].

    Parameters
    ----------
    image : Tensor
        Any integer or floating-point image.
    dtype : DType
        The result's integer or floating-point dtype.
    saturate : bool
        Clip to ``dtype``'s range before casting (casting out of range wraps otherwise).
    name : str, optional
    """
    image = convert_to_tensor(image, name="image")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if not (image.dtype.is_floating or image.dtype.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype.base_dtype:
        return array_ops.identity(image, name=name)
    with get_default_graph().name_scope(name or "convert_image") as name:
        cast = (lambda x, **kw: saturate_cast(x, dtype, **kw)) if saturate else (
            lambda x, **kw: math_ops.cast(x, dtype, **kw))
        if image.dtype.is_integer and dtype.is_integer:
            scale_in, scale_out = image.dtype.max, dtype.max
            if scale_in > scale_out:
                return cast(math_ops.floordiv(image, (scale_in + 1) // (scale_out + 1)), name=name)
            return math_ops.multiply(cast(image), (scale_out + 1) // (scale_in + 1), name=name)
        if image.dtype.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if image.dtype.is_integer:
            return math_ops.multiply(math_ops.cast(image, dtype), 1.0 / image.dtype.max, name=name)
        # The half added to max avoids the rounding down of values just below 1.
        return cast(math_ops.multiply(image, dtype.max + 0.5), name=name)


def per_image_standardization(image):
    """Each image scaled to zero mean and unit variance: ``(x - mean) / max(stddev, 1 / sqrt(num_pixels))``."""
    with get_default_graph().name_scope("per_image_standardization") as scope:
        image = assert_at_least_3d(convert_to_tensor(image, name="image"))
        image = math_ops.cast(image, dtypes.float32)
        num_pixels = math_ops.reduce_prod(array_ops.shape(image)[-3:])
        image_mean = math_ops.reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, dtypes.float32))
        adjusted_stddev = math_ops.maximum(stddev, min_stddev)
        image -= image_mean
        return math_ops.divide(image, adjusted_stddev, name=scope)


def _as_float(image):
    return image if image.dtype.base_dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(
        image, dtypes.float32)


def adjust_brightness(image, delta):
    """``image`` plus ``delta`` (on the [0, 1] scale for integer images, saturated back)."""
    with get_default_graph().name_scope("adjust_brightness") as name:
        image = convert_to_tensor(image, name="image")
        flt_image = _as_float(image)
        adjusted = math_ops.add(flt_image, math_ops.cast(delta, flt_image.dtype), name=name)
        return convert_image_dtype(adjusted, image.dtype.base_dtype, saturate=True)


@declare("AdjustContrastv2")
def _adjust_contrast_infer(op):
    images, factor = op.inputs
    check_dtype(images, (dtypes.float16, dtypes.float32), "images")
    check_rank(images.shape, 3, at_least=True)
    check_rank(factor.shape, 0)
    return [(images.dtype.base_dtype, images.shape if images.shape.ndims is not None else TensorShape(None))]


def adjust_contrast(images, contrast_factor):
    """Each channel of each image moved from its mean by ``contrast_factor``: ``(x - mean) * factor + mean``."""
    with get_default_graph().name_scope("adjust_contrast") as name:
        images = convert_to_tensor(images, name="images")
        flt_images = _as_float(images)
        factor = convert_to_tensor(contrast_factor, dtype=dtypes.float32, name="contrast_factor")
        adjusted = _out("AdjustContrastv2", [flt_images, factor], name=name)[0]
        return convert_image_dtype(adjusted, images.dtype.base_dtype, saturate=True)


def random_brightness(image, max_delta, seed=None):
    """:func:`adjust_brightness` by a delta drawn uniformly from ``[-max_delta, max_delta)``."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))


def random_contrast(image, lower, upper, seed=None):
    """:func:`adjust_contrast` by a factor drawn uniformly from ``[lower, upper)``."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, random_ops.random_uniform([], lower, upper, seed=seed))


def rgb_to_grayscale(images, name=None):
    """RGB images (last dimension 3) to one channel: ``0.2989 R + 0.5870 G + 0.1140 B``, in their dtype."""
    with get_default_graph().name_scope(name or "rgb_to_grayscale") as name:
        images = convert_to_tensor(images, name="images")
        flt_image = convert_image_dtype(images, dtypes.float32)
        gray = tensordot(flt_image, [0.2989, 0.5870, 0.1140], [-1, -1])
        return convert_image_dtype(array_ops.expand_dims(gray, -1), images.dtype.base_dtype, name=name)


def _check_grayscale(image):
    shape = image.shape
    try:
        shape = shape.with_rank(2) if shape.ndims is None else shape.with_rank_at_least(2)
    except ValueError:
        raise ValueError(f"A grayscale image (shape {image.shape}) must be at least two-dimensional.") from None
    if shape.is_fully_defined():
        if shape.dim_values[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return []
    from numflow.ops import check_ops

    return [check_ops.assert_equal(array_ops.shape(image)[-1], 1,
                                   message="Last dimension of a grayscale image should be size 1."),
            check_ops.assert_greater_equal(array_ops.rank(image), 3,
                                           message="A grayscale image must be at least two-dimensional.")]


def grayscale_to_rgb(images, name=None):
    """One-channel images repeated into three channels."""
    with get_default_graph().name_scope(name or "grayscale_to_rgb") as name:
        images = convert_to_tensor(images, name="images")
        images = convert_to_tensor(with_dependencies(_check_grayscale(images), images), name="images")
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        multiples = array_ops.concat([array_ops.ones(rank_1, dtype=dtypes.int32), array_ops.expand_dims(3, 0)], 0)
        rgb = array_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.shape[:-1].concatenate([3]))
        return rgb


def _rgb_infer(op):
    images = op.inputs[0]
    check_dtype(images, _HSV_TYPES if op.type in ("RGBToHSV", "HSVToRGB") else (dtypes.float16, dtypes.float32),
                "images")
    check_rank(images.shape, 1 if op.type in ("RGBToHSV", "HSVToRGB") else 3, at_least=True)
    last = images.shape.dim_values[-1] if images.shape.ndims else None
    if last is not None and last != 3:
        raise ValueError(f"Dimension must be 3 but is {last}")
    for scalar in op.inputs[1:]:
        check_rank(scalar.shape, 0)
    return [(images.dtype.base_dtype, images.shape)]


_HSV_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
for _op_type in ("RGBToHSV", "HSVToRGB", "AdjustSaturation", "AdjustHue"):
    declare(_op_type)(_rgb_infer)


def rgb_to_hsv(images, name=None):
    """RGB images (floats in [0, 1], last dimension 3) as hue, saturation and value, each in [0, 1] (op
    ``RGBToHSV``)."""
    with get_default_graph().name_scope(name or "RGBToHSV") as scope:
        return _out("RGBToHSV", [convert_to_tensor(images, name="images")], name=scope)[0]


def hsv_to_rgb(images, name=None):
    """HSV images (last dimension 3, each in [0, 1]) as RGB (op ``HSVToRGB``)."""
    with get_default_graph().name_scope(name or "HSVToRGB") as scope:
        return _out("HSVToRGB", [convert_to_tensor(images, name="images")], name=scope)[0]


def _adjust_in_float(op_type, scope_name, image, amount, amount_name, name):
    with get_default_graph().name_scope(name or scope_name):
        image = convert_to_tensor(image, name="image")
        flt_image = _as_float(image)
        amount = convert_to_tensor(amount, dtype=dtypes.float32, name=amount_name)
        adjusted = _out(op_type, [flt_image, amount])[0]
        return convert_image_dtype(adjusted, image.dtype.base_dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """RGB images with their HSV saturation multiplied by ``saturation_factor`` (clipped to [0, 1])."""
    return _adjust_in_float("AdjustSaturation", "adjust_saturation", image, saturation_factor, "scale", name)


def adjust_hue(image, delta, name=None):
    """RGB images with ``delta`` (in [-1, 1], a fraction of a turn) added to their hue."""
    return _adjust_in_float("AdjustHue", "adjust_hue", image, delta, "delta", name)


def random_saturation(image, lower, upper, seed=None):
    """:func:`adjust_saturation` by a factor drawn uniformly from ``[lower, upper)``."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_saturation(image, random_ops.random_uniform([], lower, upper, seed=seed))


def random_hue(image, max_delta, seed=None):
    """:func:`adjust_hue` by a delta drawn uniformly from ``[-max_delta, max_delta)``, ``max_delta <= 0.5``."""
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, random_ops.random_uniform([], -max_delta, max_delta, seed=seed))
