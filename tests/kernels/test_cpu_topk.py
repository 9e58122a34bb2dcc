"""The Numba TopKV2 kernel against the numpy reference (TensorFlow's order, ties included), for every
dtype it compiles for, every k, sorted and not."""

from types import SimpleNamespace

import numpy as np
import pytest

from numflow_kernels import reference_topk
from numflow_kernels.cpu import topk


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16])
def test_matches_the_reference(dtype):
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 40):
        x = rng.integers(0, 6, size=(3, 2, n)).astype(dtype)
        for k in range(n + 1):
            for sort in (True, False):
                ctx = SimpleNamespace(attrs={"sorted": sort, "index_type": np.dtype(np.int32)})
                got, want = topk.top_k(ctx, x, np.int32(k)), reference_topk.top_k(ctx, x, np.int32(k))
                for g, w in zip(got, want):
                    assert g.dtype == w.dtype and g.shape == w.shape
                    np.testing.assert_array_equal(g, w, err_msg=f"n={n} k={k} sorted={sort}")


def test_serial_and_parallel_rows_agree():
    rng = np.random.default_rng(1)
    rows = rng.integers(0, 50, size=(257, 64)).astype(np.float32)
    topk._compile()
    outs = []
    for kernel in topk._TOP_K:
        values, indices = np.empty((257, 5), np.float32), np.empty((257, 5), np.int64)
        kernel(rows, 5, False, np.empty((257, 6), np.int64), values, indices)
        outs.append(indices)
    np.testing.assert_array_equal(outs[0], outs[1])
