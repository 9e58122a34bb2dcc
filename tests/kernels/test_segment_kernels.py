"""The Numba segment and scatter kernels (``numflow_kernels/cpu/segments.py``) give the numpy references' bits:
rows added one after another in index order, NaN winning max and min, for every dtype the loop takes
and one it does not (float16, which goes to numpy)."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow.devices.cpu import CPUDevice
from numflow_kernels import registry
from numflow_kernels.reference_math import SORTED_SEGMENT_OPS, UNSORTED_SEGMENT_OPS


def _both(op_type, *inputs):
    ctx = SimpleNamespace(attrs={}, op_name=op_type)
    cpu, reference = CPUDevice().kernel(op_type), registry.reference(op_type)
    assert cpu is not reference
    return cpu(ctx, *inputs), reference(ctx, *inputs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16])
@pytest.mark.parametrize("op_type", SORTED_SEGMENT_OPS + UNSORTED_SEGMENT_OPS)
def test_same_bits_as_the_reference(op_type, dtype):
    rng = np.random.default_rng(3)
    data = (rng.standard_normal((400, 3)) * 50).astype(dtype)
    if data.dtype.kind == "f":
        data[[5, 77], 1] = np.nan
    if op_type.startswith("Unsorted"):
        inputs = (data, rng.integers(-1, 30, 400).astype(np.int32), np.int32(30))
    else:
        inputs = (data, np.sort(rng.integers(0, 30, 400)).astype(np.int64))
    got, want = _both(op_type, *inputs)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16])
@pytest.mark.parametrize("op_type", ["ScatterNd", "TensorScatterAdd", "TensorScatterSub", "TensorScatterUpdate"])
def test_scatters_give_the_references_bits(op_type, dtype):
    rng = np.random.default_rng(4)
    indices = rng.integers(0, 6, (300, 2)).astype(np.int32)  # many duplicates
    updates = (rng.standard_normal((300, 3)) * 50).astype(dtype)
    if op_type == "ScatterNd":
        inputs = (indices, updates, np.array([6, 6, 3], np.int32))
    else:
        inputs = ((rng.standard_normal((6, 6, 3)) * 50).astype(dtype), indices, updates)
    got, want = _both(op_type, *inputs)
    np.testing.assert_array_equal(got, want)


def test_a_scatter_into_rows_of_width_zero():
    got, want = _both("ScatterNd", np.array([[1], [2]], np.int32), np.zeros((2, 0), np.float32),
                      np.array([3, 0], np.int32))
    assert got.shape == want.shape == (3, 0)
