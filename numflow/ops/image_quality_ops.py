"""Image measures and transforms of ``tf.image`` composed as TensorFlow composes them: ``psnr``, ``ssim``,
``total_variation``, ``image_gradients``, ``sobel_edges``, ``adjust_gamma`` and the YIQ and YUV color
spaces (a ``tensordot`` with TensorFlow's matrices)."""

import numpy as np

from numflow.framework import dtypes
from numflow.framework.graph import Tensor, get_default_graph
from numflow.ops import array_ops, math_ops
from numflow.ops.array_more_ops import shape_n
from numflow.ops.check_ops import Assert
from numflow.ops.constant_op import constant, convert_to_tensor
from numflow.ops.control_flow_ops import with_dependencies
from numflow.ops.conv_impl import depthwise_conv2d
from numflow.ops.einsum_ops import tensordot
from numflow.ops.image_color_ops import convert_image_dtype
from numflow.ops.nn_ops import softmax
from numflow.ops.sequence_ops import size
from numflow.ops.tile_pad_split_ops import pad, tile

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _color_transform(matrix, doc):
    def fn(images):
        images = convert_to_tensor(images, name="images")
        kernel = convert_to_tensor(matrix, dtype=images.dtype, name="kernel")
        ndims = images.shape.ndims
        return tensordot(images, kernel, axes=[[ndims - 1], [0]])

    fn.__doc__ = doc
    return fn


rgb_to_yiq = _color_transform(_RGB_TO_YIQ, "Float RGB images (last dimension 3) in the YIQ color space.")
yiq_to_rgb = _color_transform(_YIQ_TO_RGB, "YIQ images back in RGB.")
rgb_to_yuv = _color_transform(_RGB_TO_YUV, "Float RGB images (last dimension 3) in the YUV color space.")
yuv_to_rgb = _color_transform(_YUV_TO_RGB, "YUV images back in RGB.")


def adjust_gamma(image, gamma=1, gain=1):
    """``gain * image ** gamma`` of an image scaled to [0, 1] (integers are converted and back, saturating)."""
    with get_default_graph().name_scope("adjust_gamma"):
        image = convert_to_tensor(image, name="image")
        orig_dtype = image.dtype.base_dtype
        flt_image = image if orig_dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image,
                                                                                                       dtypes.float32)
        if isinstance(gamma, Tensor):
            gamma = with_dependencies([Assert(gamma >= 0, ["Gamma should be a non-negative real number."])], gamma)
        elif gamma < 0:
            raise ValueError("Gamma should be a non-negative real number.")
        adjusted_img = gain * flt_image ** gamma
        return convert_image_dtype(adjusted_img, orig_dtype, saturate=True)


def total_variation(images, name=None):
    """The sum of the absolute differences of neighbouring pixels of one image (3-D) or of each (4-D)."""
    with get_default_graph().name_scope(name or "total_variation"):
        ndims = images.shape.ndims
        if ndims == 3:
            pixel_dif1 = images[1:, :, :] - images[:-1, :, :]
            pixel_dif2 = images[:, 1:, :] - images[:, :-1, :]
            sum_axis = None
        elif ndims == 4:
            pixel_dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            pixel_dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            sum_axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        return (math_ops.reduce_sum(math_ops.abs(pixel_dif1), axis=sum_axis)
                + math_ops.reduce_sum(math_ops.abs(pixel_dif2), axis=sum_axis))


def image_gradients(image):
    """``(dy, dx)``: each pixel's difference with its lower and right neighbour (0 on the last row or column)
    of images ``[batch, height, width, depth]``."""
    if image.shape.ndims != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    image_shape = array_ops.shape(image)
    batch_size, height, width, depth = array_ops.unstack(image_shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    shape = array_ops.stack([batch_size, 1, width, depth])
    dy = array_ops.reshape(array_ops.concat([dy, array_ops.zeros(shape, image.dtype)], 1), image_shape)
    shape = array_ops.stack([batch_size, height, 1, depth])
    dx = array_ops.reshape(array_ops.concat([dx, array_ops.zeros(shape, image.dtype)], 2), image_shape)
    return dy, dx


def sobel_edges(image):
    """The Sobel filters' responses (``[..., 2]``: vertical then horizontal) of images
    ``[batch, height, width, depth]``, reflected at the borders."""
    static_image_shape = image.shape
    image_shape = array_ops.shape(image)
    kernels = np.expand_dims(np.transpose(np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                                                      [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]), (1, 2, 0)), -2)
    kernels_tf = constant(kernels, dtype=image.dtype)
    kernels_tf = tile(kernels_tf, [1, 1, image_shape[-1], 1], name="sobel_filters")
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = depthwise_conv2d(padded, kernels_tf, [1, 1, 1, 1], "VALID")
    output = array_ops.reshape(output, shape=array_ops.concat([image_shape, [2]], 0))
    output.set_shape(static_image_shape.concatenate([2]))
    return output


def _verify_compatible_image_shapes(img1, img2):
    shape1 = img1.shape.with_rank_at_least(3)
    shape2 = img2.shape.with_rank_at_least(3)
    shape1[-3:].assert_is_compatible_with(shape2[-3:])
    if shape1.ndims is not None and shape2.ndims is not None:
        for dim1, dim2 in zip(reversed(shape1.dims[:-3]), reversed(shape2.dims[:-3])):
            if not (dim1 == 1 or dim2 == 1 or dim1.is_compatible_with(dim2)):
                raise ValueError(f"Two images are not compatible: {shape1} and {shape2}")
    shape1, shape2 = shape_n([img1, img2])
    return [Assert(math_ops.greater_equal(size(shape1), 3), [shape1, shape2], summarize=10),
            Assert(math_ops.reduce_all(math_ops.equal(shape1[-3:], shape2[-3:])), [shape1, shape2], summarize=10)]


def psnr(a, b, max_val, name=None):
    """The peak signal-to-noise ratio of images ``a`` and ``b`` (``[..., height, width, channels]``) of
    dynamic range ``max_val``: ``20 log10(max_val) - 10 log10(mse)``, per image."""
    with get_default_graph().name_scope(name or "PSNR"):
        max_val = math_ops.cast(max_val, a.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        a = convert_image_dtype(a, dtypes.float32)
        b = convert_image_dtype(b, dtypes.float32)
        mse = math_ops.reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        psnr_val = math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(10.0),
                                     np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
        checks = _verify_compatible_image_shapes(a, b)
        with get_default_graph().control_dependencies(checks):
            return array_ops.identity(psnr_val)


def _fspecial_gauss(size, sigma):
    size = convert_to_tensor(size, dtypes.int32)
    sigma = convert_to_tensor(sigma)
    coords = math_ops.cast(math_ops.range(size), sigma.dtype)
    coords -= math_ops.cast(size - 1, sigma.dtype) / 2.0
    g = math_ops.square(coords)
    g *= -0.5 / math_ops.square(sigma)
    g = array_ops.reshape(g, shape=[1, -1]) + array_ops.reshape(g, shape=[-1, 1])
    g = softmax(array_ops.reshape(g, shape=[1, -1]))
    return array_ops.reshape(g, shape=[size, size, 1, 1])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map):
    filter_size = constant(filter_size, dtype=dtypes.int32)
    filter_sigma = constant(filter_sigma, dtype=img1.dtype)
    shape1, shape2 = shape_n([img1, img2])
    checks = [Assert(math_ops.reduce_all(math_ops.greater_equal(shape1[-3:-1], filter_size)), [shape1, filter_size],
                     summarize=8),
              Assert(math_ops.reduce_all(math_ops.greater_equal(shape2[-3:-1], filter_size)), [shape2, filter_size],
                     summarize=8)]
    with get_default_graph().control_dependencies(checks):
        img1 = array_ops.identity(img1)
    kernel = tile(_fspecial_gauss(filter_size, filter_sigma), multiples=[1, 1, shape1[-1], 1])

    def reducer(x):
        shape = array_ops.shape(x)
        x = array_ops.reshape(x, shape=array_ops.concat([[-1], shape[-3:]], 0))
        y = depthwise_conv2d(x, kernel, strides=[1, 1, 1, 1], padding="VALID")
        return array_ops.reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(img1), reducer(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(img1 * img2) * 2.0
    den1 = reducer(math_ops.square(img1) + math_ops.square(img2))
    c2 *= 1.0  # TensorFlow's compensation factor: an op of its own, kept for the names of those after it
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        return luminance * cs
    axes = constant([-3, -2], dtype=dtypes.int32)
    ssim_val = math_ops.reduce_mean(luminance * cs, axes)
    math_ops.reduce_mean(cs, axes)  # TensorFlow's mean contrast-structure (for MS-SSIM), named before the result
    return ssim_val


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """The structural similarity of images ``img1`` and ``img2`` (``[..., height, width, channels]``, at
    least ``filter_size`` each way) under a Gaussian window, averaged over channels."""
    with get_default_graph().name_scope("SSIM"):
        img1 = convert_to_tensor(img1, name="img1")
        img2 = convert_to_tensor(img2, name="img2")
        checks = _verify_compatible_image_shapes(img1, img2)
        with get_default_graph().control_dependencies(checks):
            img1 = array_ops.identity(img1)
        max_val = math_ops.cast(max_val, img1.dtype)
        max_val = convert_image_dtype(max_val, dtypes.float32)
        img1 = convert_image_dtype(img1, dtypes.float32)
        img2 = convert_image_dtype(img2, dtypes.float32)
        per_channel = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map)
        return math_ops.reduce_mean(per_channel, [-1])
