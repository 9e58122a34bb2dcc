"""Matrix-product blocks shared with the spinning helper thread: the same bits as one thread computing the
same blocks, whoever takes which, with the helper parked, busy elsewhere, or absent (a forked child)."""

import multiprocessing
import threading
import time

import numpy as np
import pytest

from numflow_kernels import cpu_threads
from numflow_kernels.cpu import gemm_blocks, matmul

pytestmark = pytest.mark.skipif(not gemm_blocks.available(), reason="numpy's BLAS exposes no cblas gemm")
rng = np.random.default_rng(11)

# (m, k, n): an LSTM's gates, their input gradient (swapped), the example MLP's layer, a large product.
SHAPES = [(32, 192, 512), (32, 512, 192), (64, 784, 200), (200, 300, 1030)]


def _operands(m, k, n, dtype, transpose_a, transpose_b):
    a = rng.standard_normal((k, m) if transpose_a else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if transpose_b else (k, n)).astype(dtype)
    return (a.T if transpose_a else a), (b.T if transpose_b else b)


def _numpy_blocks(a, b):
    """The product as numpy computes the same blocks, one BLAS call each."""
    m, n = a.shape[0], b.shape[1]
    out = np.empty((m, n), np.result_type(a, b))
    for lo, hi in matmul.spans(m, a.shape[1], n):
        if m >= n:
            np.matmul(a[lo:hi], b, out=out[lo:hi])
        else:
            np.matmul(a, b[:, lo:hi], out=out[:, lo:hi])
    return out


@pytest.mark.parametrize("m, k, n", SHAPES)
@pytest.mark.parametrize("transpose_a, transpose_b", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_shared_blocks_give_the_bits_of_the_same_blocks_on_one_thread(m, k, n, transpose_a, transpose_b, dtype):
    a, b = _operands(m, k, n, dtype, transpose_a, transpose_b)
    assert len(matmul.spans(m, k, n)) >= 2
    with cpu_threads.one_blas_thread():
        shared = [matmul.matmul(a, b) for _ in range(3)]
        with cpu_threads.one_thread_each():  # the cores are taken: the caller runs the blocks in order
            serial = matmul.matmul(a, b)
        expected = _numpy_blocks(a, b)
    for got in (*shared, serial):
        assert got.dtype == np.dtype(dtype) and got.flags.c_contiguous
        assert got.tobytes() == expected.tobytes()
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(serial, exact, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("cores_free", [True, False])
def test_operands_blas_cannot_read_in_place_are_refused_and_the_product_still_right(cores_free):
    a = rng.standard_normal((32, 384)).astype(np.float32)[:, ::2]
    b = rng.standard_normal((192, 512)).astype(np.float32)
    out = np.full((32, 512), 7.0, np.float32)
    assert not gemm_blocks.run(a, b, out, 128, False, cores_free)
    assert (out == 7.0).all()
    np.testing.assert_allclose(matmul.matmul(a, b), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)


def test_without_the_helper_the_blocks_go_to_numpy_with_the_same_bits(monkeypatch):
    a, b = _operands(32, 192, 512, np.float32, False, False)
    with cpu_threads.one_blas_thread():
        shared = matmul.matmul(a, b)
        monkeypatch.setattr(gemm_blocks, "_blas", ())
        assert not gemm_blocks.available()
        by_numpy = matmul.matmul(a, b)
    assert by_numpy.tobytes() == shared.tobytes()


def test_more_blocks_than_the_table_holds_go_to_the_thread_pool_with_the_same_bits(monkeypatch):
    a, b = _operands(32, 192, 512, np.float32, False, False)
    with cpu_threads.one_blas_thread():
        shared = matmul.matmul(a, b)
        monkeypatch.setattr(gemm_blocks, "MAX_BLOCKS", 2)
        out = np.empty((32, 512), np.float32)
        assert not gemm_blocks.run(a, b, out, 128, False, True)
        assert matmul.matmul(a, b).tobytes() == shared.tobytes()


def _wait_until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_a_parked_helper_is_woken_by_the_next_product():
    # Parked, the helper sleeps until a product clears its mark and wakes it; it marks itself parked
    # again only after spinning once more, so the mark coming back shows that it woke.
    a, b = _operands(32, 192, 512, np.float32, False, False)
    expected = _numpy_blocks(a, b)
    assert matmul.matmul(a, b).tobytes() == expected.tobytes()
    table = gemm_blocks._table
    parked = (gemm_blocks.MAX_BLOCKS, gemm_blocks.PARKED)
    for _ in range(3):
        _wait_until(lambda: table[parked] == 1)
        assert matmul.matmul(a, b).tobytes() == expected.tobytes()
    _wait_until(lambda: table[parked] == 1)
    assert gemm_blocks._helper.is_alive()


def test_products_from_several_threads_at_once_each_get_their_own_bits():
    cases = [_operands(m, k, n, np.float32, False, t) for (m, k, n), t in zip(SHAPES, (False, True, False, True))]
    with cpu_threads.one_blas_thread():
        expected = [_numpy_blocks(a, b).tobytes() for a, b in cases]
        failures = []

        def work(offset):
            for i in range(60):
                a, b = cases[(i + offset) % len(cases)]
                if matmul.matmul(a, b).tobytes() != expected[(i + offset) % len(cases)]:
                    failures.append((offset, i))

        threads = [threading.Thread(target=work, args=(offset,)) for offset in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert failures == []


def _child_product(queue):
    a, b = _operands(32, 192, 512, np.float32, False, False)
    queue.put((matmul.matmul(a, b).tobytes(), _numpy_blocks(a, b).tobytes()))


def test_a_forked_child_gets_a_helper_of_its_own():
    a, b = _operands(32, 192, 512, np.float32, False, False)
    matmul.matmul(a, b)  # the parent's helper is running, or parked, when the child forks
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_product, args=(queue,))
    child.start()
    got, expected = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert got == expected
