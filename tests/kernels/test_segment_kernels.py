"""The Numba segment kernels (``numflow_kernels/cpu/segments.py``) give the numpy references' bits: rows added
one after another in index order, NaN winning max and min, for every dtype the loop takes and one it
does not (float16, which goes to numpy)."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels import registry
from numflow_kernels.reference_math import SORTED_SEGMENT_OPS, UNSORTED_SEGMENT_OPS


def _both(op_type, *inputs):
    ctx = SimpleNamespace(attrs={}, op_name=op_type)
    cpu, reference = registry.lookup(op_type, "CPU"), registry.lookup(op_type, registry.REFERENCE)
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
