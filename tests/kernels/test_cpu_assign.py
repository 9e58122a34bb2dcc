"""CPU update kernels against numpy: assign family exactly, scatters in index order, bad indices."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numflow_kernels.cpu import assign
from numflow_kernels.parallel import PARALLEL_THRESHOLD

NUMERIC = [np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.complex64]


def _pair(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(n) * 100).astype(dtype), (rng.standard_normal(n) * 100).astype(dtype)
    return a, b


@pytest.mark.parametrize("n", [1, 1001, PARALLEL_THRESHOLD + 7])
@pytest.mark.parametrize("dtype", NUMERIC)
def test_assign_family_matches_numpy_exactly(dtype, n):
    a, b = _pair(dtype, n)
    for kernel, expected in ((assign.assign, b), (assign.assign_add, a + b), (assign.assign_sub, a - b)):
        dst = a.copy()
        kernel(dst, b)
        np.testing.assert_array_equal(dst.view(np.uint8), expected.view(np.uint8))


def test_assign_copies_any_dtype():
    for src in (np.array([True, False]), np.array([1 + 2j, 3j]), np.array([b"ab", b"cd"])):
        dst = np.zeros_like(src)
        assign.assign(dst, src)
        np.testing.assert_array_equal(dst, src)


def test_integers_wrap():
    dst = np.array([2**31 - 1], np.int32)
    assign.assign_add(dst, np.array([1], np.int32))
    assert dst[0] == -(2**31)


def test_assign_errors():
    with pytest.raises(ValueError, match="3 values for a variable of 4 elements"):
        assign.assign_add(np.zeros(4, np.float32), np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="float64 is not the variable's float32"):
        assign.assign(np.zeros(4, np.float32), np.zeros(4))
    with pytest.raises(TypeError, match="numeric dtype"):
        assign.assign_add(np.zeros(4, bool), np.zeros(4, bool))
    with pytest.raises(ValueError, match="1-D C-contiguous"):
        assign.assign(np.zeros((2, 2)), np.zeros((2, 2)))


def scatter_reference(op, ref, indices, updates):
    """numpy's version: rows in index order."""
    out = ref.copy()
    for k, row in enumerate(indices):
        value, update = out[row], updates[k]
        if op == "scatter_div" and ref.dtype.kind in "iu":  # C's division, toward zero
            quotient = np.abs(value) // np.abs(update)
            out[row] = np.where((value < 0) != (update < 0), -quotient, quotient)
            continue
        with np.errstate(divide="ignore", invalid="ignore"):  # x / 0 is inf or NaN, as the kernels give it
            out[row] = _COMBINE[op](value, update)
    return out


_COMBINE = {"scatter_update": lambda value, update: update, "scatter_add": np.add, "scatter_sub": np.subtract,
            "scatter_mul": np.multiply, "scatter_div": np.divide,
            "scatter_max": lambda value, update: np.where(value < update, update, value),  # std::max
            "scatter_min": lambda value, update: np.where(update < value, update, value)}


OPS = ["scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_scatter_matches_numpy(op, dtype, index_dtype):
    rng = np.random.default_rng(1)
    ref = (rng.standard_normal((7, 5)) * 10).astype(dtype)
    indices = np.array([3, 0, 3, 6, 3], index_dtype)  # repeats: add twice, last update wins
    updates = (rng.standard_normal((5, 5)) * 10).astype(dtype)
    updates[updates == 0] = 3  # no integer division by zero
    expected = scatter_reference(op, ref, indices, updates)
    assert getattr(assign, op)(ref, indices, updates) == -1
    np.testing.assert_array_equal(ref.view(np.uint8), expected.view(np.uint8))


def test_max_min_keep_the_value_against_a_nan_update_and_integers_divide_toward_zero():
    ref = np.array([[1.0, 4.0]], np.float32)
    assert assign.scatter_max(ref, np.array([0, 0]), np.array([[np.nan, 5.0], [0.0, np.nan]], np.float32)) == -1
    np.testing.assert_array_equal(ref, [[1.0, 5.0]])
    assert assign.scatter_min(ref, np.array([0]), np.array([[np.nan, -1.0]], np.float32)) == -1
    np.testing.assert_array_equal(ref, [[1.0, -1.0]])
    ints = np.array([[7], [-7], [9], [3]], np.int32)
    assert assign.scatter_div(ints, np.array([0, 1, 2]), np.array([[2], [2], [-4]], np.int32)) == -1
    assert ints.ravel().tolist() == [3, -3, -2, 3]  # TensorFlow's values
    with pytest.raises(ZeroDivisionError, match="Integer division by zero"):
        assign.scatter_div(ints, np.array([3, 0]), np.array([[1], [0]], np.int32))
    assert ints.ravel().tolist() == [3, -3, -2, 3]


@pytest.mark.parametrize("op", OPS)
def test_parallel_scatter_keeps_index_order(op):
    rng = np.random.default_rng(2)
    cols = 4 * 256 + 3
    ref = rng.standard_normal((50, cols)).astype(np.float32)
    indices = rng.integers(0, 50, 200)
    updates = rng.standard_normal((200, cols)).astype(np.float32)
    assert indices.size * cols >= PARALLEL_THRESHOLD
    expected = scatter_reference(op, ref, indices, updates)
    assert getattr(assign, op)(ref, indices, updates) == -1
    np.testing.assert_array_equal(ref, expected)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("indices, position", [([1, 7], 1), ([-1, 2], 0), ([0, 4, 5, 9], 2)])
def test_bad_index_leaves_ref_untouched(op, indices, position):
    ref = np.arange(10, dtype=np.float32).reshape(5, 2)
    before = ref.copy()
    updates = np.ones((len(indices), 2), np.float32)
    assert getattr(assign, op)(ref, np.array(indices), updates) == position
    np.testing.assert_array_equal(ref, before)


def test_scatter_errors():
    ref = np.zeros((5, 2), np.float32)
    with pytest.raises(ValueError, match=r"expected \(2, 2\)"):
        assign.scatter_add(ref, np.array([0, 1]), np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError, match="int32 or int64"):
        assign.scatter_add(ref, np.array([0.0]), np.zeros((1, 2), np.float32))
    with pytest.raises(TypeError, match="numeric dtype"):
        assign.scatter_add(np.zeros((2, 2), bool), np.array([0]), np.zeros((1, 2), bool))
    flags = np.zeros((2, 2), bool)
    assert assign.scatter_update(flags, np.array([1]), np.ones((1, 2), bool)) == -1
    assert flags[1].all()


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 4), data=st.data(), op=st.sampled_from(OPS))
def test_scatter_property(rows, cols, data, op):
    count = data.draw(st.integers(0, 8))
    indices = np.array(data.draw(st.lists(st.integers(-2, rows + 1), min_size=count, max_size=count)),
                       dtype=np.int64)
    values = st.floats(-1e3, 1e3, width=32)
    ref = np.array(data.draw(st.lists(values, min_size=rows * cols, max_size=rows * cols)),
                   np.float32).reshape(rows, cols)
    updates = np.array(data.draw(st.lists(values, min_size=count * cols, max_size=count * cols)),
                       np.float32).reshape(count, cols)
    bad = [k for k, i in enumerate(indices) if not 0 <= i < rows]
    before = ref.copy()
    result = getattr(assign, op)(ref, indices, updates)
    if bad:
        assert result == bad[0]
        np.testing.assert_array_equal(ref, before)
    else:
        assert result == -1
        np.testing.assert_array_equal(ref, scatter_reference(op, before, indices, updates))


def test_a_float_scatter_div_by_zero_gives_ieee_results_as_tensorflow():
    ref = np.array([[0.0, 1.0, -2.0], [3.0, 3.0, 3.0]], np.float32)
    assert assign.scatter_div(ref, np.array([0]), np.zeros((1, 3), np.float32)) == -1
    np.testing.assert_array_equal(ref, [[np.nan, np.inf, -np.inf], [3.0, 3.0, 3.0]])
