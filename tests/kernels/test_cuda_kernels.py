"""CUDA kernels (a GPU, or Numba's simulator): the CPU kernels' bits, the same errors and results.

The simulator runs every CUDA thread as a Python thread, so sizes stay small (a few hundred).
Numba chooses the simulator only when ``NUMBA_ENABLE_CUDASIM=1`` is set before ``numba.cuda`` is
first imported: ``NUMBA_ENABLE_CUDASIM=1 pytest -m cuda`` (the README's test command, CI, tox -e
cudasim) runs these tests without a GPU; a plain run skips them unless a GPU is present.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from numflow_kernels.cpu import assign as cpu_assign
from numflow_kernels.cpu import init as cpu_init
from numflow_kernels.cuda import assign as cuda_assign
from numflow_kernels.cuda import init as cuda_init

cuda = pytest.importorskip("numba.cuda")
pytestmark = pytest.mark.cuda
needs_cuda = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator in this process")

FLOATS = [np.float16, np.float32, np.float64]
N = 203  # a partial last group for both group sizes


def _same_bits(a, b):
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


@needs_cuda
@pytest.mark.parametrize("name", ["random_uniform", "random_normal", "truncated_normal"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_random_floats_are_the_cpus_bits(name, dtype):
    expected = np.empty(N, dtype)
    getattr(cpu_init, name)(expected, 5, 7, 0.25, 1.5, counter=3)
    out = cuda.to_device(np.zeros(N, dtype))
    getattr(cuda_init, name)(out, 5, 7, 0.25, 1.5, counter=3)
    _same_bits(out.copy_to_host(), expected)


@needs_cuda
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_random_ints_are_the_cpus(dtype):
    expected = np.empty(N, dtype)
    cpu_init.random_uniform_int(expected, 9, 10, -3, 1000)
    out = cuda.to_device(np.zeros(N, dtype))
    cuda_init.random_uniform_int(out, 9, 10, -3, 1000)
    np.testing.assert_array_equal(out.copy_to_host(), expected)


@needs_cuda
def test_golden_float32_cases_on_the_device():
    from test_golden_random import CASES, assert_same_bits, generate

    for name, op, seed, seed2, a, b, run, expected in CASES:
        if expected.dtype == np.float32 and name.endswith(("_0", "_scaled", "_run1", "_run2")):
            out = cuda.to_device(np.zeros_like(expected))
            generate(cuda_init, op, seed, seed2, a, b, run, out)
            assert_same_bits(out.copy_to_host(), expected, name)


@needs_cuda
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int64, np.bool_])
def test_fill(dtype):
    out = cuda.to_device(np.zeros(37, dtype))
    cuda_init.fill(out, 1)
    np.testing.assert_array_equal(out.copy_to_host(), np.ones(37, dtype))


@needs_cuda
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32])
def test_assign_family_is_the_cpus(dtype):
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(N) * 100).astype(dtype), (rng.standard_normal(N) * 100).astype(dtype)
    for name in ("assign", "assign_add", "assign_sub"):
        expected = a.copy()
        getattr(cpu_assign, name)(expected, b)
        dst = cuda.to_device(a)
        getattr(cuda_assign, name)(dst, cuda.to_device(b))
        _same_bits(dst.copy_to_host(), expected)


@needs_cuda
@pytest.mark.parametrize("op", ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
                                "scatter_max", "scatter_min"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_scatter_is_the_cpus(op, dtype):
    rng = np.random.default_rng(1)
    ref = rng.standard_normal((7, 5)).astype(dtype)
    indices = np.array([3, 0, 3, 6, 3], np.int32)
    updates = (rng.standard_normal((5, 5)) * 4).astype(dtype)
    updates[updates == 0] = 3  # no integer division by zero
    expected = ref.copy()
    assert getattr(cpu_assign, op)(expected, indices, updates) == -1
    device_ref = cuda.to_device(ref)
    assert getattr(cuda_assign, op)(device_ref, cuda.to_device(indices), cuda.to_device(updates)) == -1
    _same_bits(device_ref.copy_to_host(), expected)


@needs_cuda
@pytest.mark.parametrize("indices, position", [([1, 7, 9], 1), ([-1, 2], 0)])
def test_bad_scatter_index_leaves_ref_untouched(indices, position):
    ref = np.arange(10, dtype=np.float32).reshape(5, 2)
    device_ref = cuda.to_device(ref)
    updates = cuda.to_device(np.ones((len(indices), 2), np.float32))
    assert cuda_assign.scatter_add(device_ref, cuda.to_device(np.array(indices)), updates) == position
    np.testing.assert_array_equal(device_ref.copy_to_host(), ref)


@needs_cuda
def test_host_arrays_are_refused():
    with pytest.raises(ValueError, match="device array"):
        cuda_init.random_normal(np.zeros(4, np.float32), 1, 2)
    with pytest.raises(TypeError, match="not int32"):
        cuda_init.random_normal(cuda.to_device(np.zeros(4, np.int32)), 1, 2)


def test_modules_import_without_cuda_or_simulator():
    """Importing (not launching) needs neither; where a GPU exists this just imports for it."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    code = "import numflow_kernels.cuda.init, numflow_kernels.cuda.assign; print('ok')"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]
