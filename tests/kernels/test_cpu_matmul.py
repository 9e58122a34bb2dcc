"""The CPU MatMul kernel: blocks fixed by the shapes, the same bits on any number of threads."""

import numpy as np
import pytest

from numflow_kernels import cpu_threads, tuning
from numflow_kernels.cpu import matmul

rng = np.random.default_rng(5)


@pytest.mark.parametrize("shape", [(1024, 784, 200), (200, 784, 1024), (300, 5000, 300), (64, 784, 200),
                                   (32, 192, 512), (192, 512, 32), (16, 64, 512), (1, 1, 1), (0, 4, 3), (5000, 1, 1)])
def test_blocks_tile_the_longer_side_of_the_output_and_depend_on_the_shape_alone(shape):
    m, k, n = shape
    bounds = matmul.spans(m, k, n)
    work, side = m * k * n, max(m, n)
    if not bounds:
        assert work < tuning.MATMUL_SHARED_WORK or side < tuning.MATMUL_MIN_SPAN
        return
    assert bounds[0][0] == 0 and bounds[-1][1] == side
    assert all(hi == lo for (_, hi), (lo, _) in zip(bounds, bounds[1:]))
    if work >= 2 * tuning.MATMUL_BLOCK_WORK and side >= 2 * tuning.MATMUL_MIN_SPAN:
        assert all(hi - lo >= tuning.MATMUL_MIN_SPAN for lo, hi in bounds[:-1])
        assert all((hi - lo) % tuning.MATMUL_MIN_SPAN == 0 for lo, hi in bounds[:-1])
    else:  # a medium product: halves or quarters, in whole vectors
        assert len(bounds) == (4 if side >= 4 * tuning.MATMUL_MIN_SPAN else 2)
        assert all((hi - lo) % 4 == 0 and hi - lo >= (side + 3) // len(bounds) - 4 for lo, hi in bounds[:-1])


def _operands(m, k, n, dtype, transpose_a=False, transpose_b=False):
    a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(dtype)
    return (a.T if transpose_a else a), (b.T if transpose_b else b)


@pytest.mark.parametrize("m, k, n", [(1024, 784, 200), (200, 784, 1024)])
@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False), (False, True)])
def test_a_blocked_product_is_the_product_with_the_same_bits_on_any_number_of_threads(
        monkeypatch, m, k, n, transpose_a, transpose_b):
    a, b = _operands(m, k, n, np.float32, transpose_a, transpose_b)
    assert len(matmul.spans(m, k, n)) >= 2
    results = []
    with cpu_threads.one_blas_thread():
        with cpu_threads.one_thread_each():
            results.append(matmul.matmul(a, b))
        for cores in (1, 2, 3, 8):
            monkeypatch.setattr(cpu_threads, "cores", lambda cores=cores: cores)
            results.append(matmul.matmul(a, b))
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(results[0], exact, rtol=1e-4, atol=1e-3)
    for other in results[1:]:
        assert other.tobytes() == results[0].tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32, np.float16])
def test_every_dtype_gives_numpys_product(dtype):
    a, b = _operands(600, 300, 500, dtype)
    got = matmul.matmul(a, b)
    assert got.dtype == np.dtype(dtype) and got.shape == (600, 500)
    if np.dtype(dtype).kind == "i":
        np.testing.assert_array_equal(got, a @ b)
    else:
        rtol, atol = (5e-2, 1.0) if dtype == np.float16 else (1e-4, 1e-3)
        np.testing.assert_allclose(got, a.astype(np.complex128) @ b.astype(np.complex128), rtol=rtol, atol=atol)


def test_zero_times_infinity_and_overflows_give_nan_and_inf_quietly(recwarn):
    a = np.full((512, 256), 3e38, np.float32)
    a[0] = 0.0
    b = np.ones((256, 512), np.float32)
    b[:, 0] = np.inf
    assert matmul.spans(512, 256, 512)
    out = matmul.matmul(a, b)
    assert np.isnan(out[0, 0]) and (out[0, 1:] == 0).all() and np.isposinf(out[1:]).all()
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("m, k, n", [(32, 512, 192), (16, 192, 1024)])
def test_a_short_product_by_a_transposed_matrix_is_computed_the_other_way_round_in_c_order(m, k, n):
    a, b = _operands(m, k, n, np.float32, transpose_b=True)
    assert matmul._swapped(a, b) and not matmul._swapped(a, np.ascontiguousarray(b))
    with cpu_threads.one_blas_thread():
        got = matmul.matmul(a, b)
    assert got.flags.c_contiguous and got.dtype == np.float32
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_product_of_one_column_by_one_row_has_blas_bits_signed_zeros_included(dtype):
    a = rng.standard_normal((300, 1)).astype(dtype)
    b = rng.standard_normal((1, 70)).astype(dtype)
    a[:3, 0] = [0.0, -0.0, np.inf]
    b[0, :2] = [-1.5, 0.0]
    with cpu_threads.one_blas_thread(), np.errstate(invalid="ignore"):
        got = matmul.matmul(a, b)
        want = np.matmul(a, b)
    assert got.dtype == want.dtype and got.flags.c_contiguous
    assert got.tobytes() == want.tobytes()  # 0 * -1.5 is +0, as BLAS sums from +0; inf * 0 is NaN
