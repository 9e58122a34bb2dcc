"""The Numba kernels of ResizeBilinear, its gradient, ResizeNearestNeighbor and ResizeArea against the numpy
reference, and the serial and parallel twins giving the same bits."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels import reference_image
from numflow_kernels.cpu import image

ATTRS = [dict(align_corners=a, half_pixel_centers=h) for a, h in ((False, False), (True, False), (False, True))]


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64, np.float16])
def test_bilinear_and_gradient_as_the_reference(attrs, dtype):
    rng = np.random.RandomState(0)
    ctx = SimpleNamespace(attrs=attrs, op_name="resize")
    images = (rng.rand(2, 5, 7, 3) * 200).astype(dtype)
    for size in ([9, 4], [3, 11]):
        got = image.resize_bilinear(ctx, images, np.array(size, np.int32))
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, reference_image.resize_bilinear(ctx, images, np.array(size, np.int32)),
                                   rtol=2e-6, atol=2e-4)
        area_ctx = SimpleNamespace(attrs={"align_corners": attrs["align_corners"]}, op_name="area")
        np.testing.assert_allclose(image.resize_area(area_ctx, images, np.array(size, np.int32)),
                                   reference_image.resize_area(area_ctx, images, np.array(size, np.int32)),
                                   rtol=2e-6, atol=2e-4)
        nearest = image.resize_nearest_neighbor(ctx, images, np.array(size, np.int32))
        np.testing.assert_array_equal(nearest, reference_image.resize_nearest_neighbor(ctx, images,
                                                                                      np.array(size, np.int32)))
        if dtype in (np.float32, np.float64, np.float16):
            grads = rng.randn(2, *size, 3).astype(np.float32)
            got = image.resize_bilinear_grad(ctx, grads, images)
            assert got.dtype == dtype
            np.testing.assert_allclose(got, reference_image.resize_bilinear_grad(ctx, grads, images),
                                       rtol=1e-3 if dtype == np.float16 else 1e-5, atol=1e-5)


def test_serial_and_parallel_twins_give_the_same_bits():
    rng = np.random.RandomState(1)
    images = rng.rand(4, 6, 5, 2).astype(np.float32)
    grads = rng.randn(4, 9, 8, 2).astype(np.float32)
    taps = image._taps(ATTRS[2], images.shape, 9, 8)
    results = []
    for forward, backward in zip(image._BILINEAR, image._BILINEAR_GRAD):
        out = np.empty((4, 9, 8, 2), np.float32)
        forward(images, out, *taps)
        dx = np.zeros(images.shape, np.float32)
        backward(grads, dx, *taps)
        results.append((out, dx))
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
