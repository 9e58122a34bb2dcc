"""CPU initializer kernels: ranges and moments, determinism, and argument checks."""

import numpy as np
import pytest

from numflow_kernels import philox
from numflow_kernels.cpu import init
from numflow_kernels.parallel import PARALLEL_THRESHOLD

FLOATS = [np.float16, np.float32, np.float64]
DISTRIBUTIONS = [init.random_uniform, init.random_normal, init.truncated_normal]


def _bits(a):
    return a.view(np.uint8)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.int64, np.bool_,
                                   np.uint8, np.complex64])
def test_fill(dtype):
    out = np.zeros(1001, dtype)
    init.fill(out, 1)
    np.testing.assert_array_equal(out, np.ones(1001, dtype))


def test_fill_large_takes_the_parallel_kernel():
    out = np.zeros(PARALLEL_THRESHOLD + 5, np.float32)
    init.fill(out, -2.5)
    assert (out == -2.5).all()


@pytest.mark.parametrize("dtype", FLOATS)
def test_uniform_range_and_moments(dtype):
    out = np.empty(100_003, dtype)
    init.random_uniform(out, 11, 12, minval=-2.0, maxval=3.0)
    assert out.min() >= -2 and out.max() < 3
    values = out.astype(np.float64)
    assert abs(values.mean() - 0.5) < 0.03
    assert abs(values.std() - 5 / np.sqrt(12)) < 0.03


@pytest.mark.parametrize("dtype", FLOATS)
def test_normal_moments(dtype):
    out = np.empty(100_001, dtype)
    init.random_normal(out, 3, 4, mean=1.5, stddev=2.0)
    values = out.astype(np.float64)
    assert abs(values.mean() - 1.5) < 0.03
    assert abs(values.std() - 2.0) < 0.03
    assert 0.30 < np.mean(np.abs(values - 1.5) > 2.0) < 0.34  # 31.7% beyond one stddev


@pytest.mark.parametrize("dtype", FLOATS)
def test_truncated_normal_stays_within_two_stddev(dtype):
    out = np.empty(100_002, dtype)
    init.truncated_normal(out, 5, 6, mean=-1.0, stddev=0.5)
    values = out.astype(np.float64)
    assert np.all(np.abs(values + 1.0) <= 1.0)
    assert abs(values.mean() + 1.0) < 0.01
    assert abs(values.std() - 0.5 * 0.8796) < 0.01  # sd of a standard normal cut at +-2


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_uniform_int_range(dtype):
    out = np.empty(10_001, dtype)
    init.random_uniform_int(out, 1, 2, -5, 10)
    assert out.min() == -5 and out.max() == 9
    assert len(np.unique(out)) == 15
    with pytest.raises(ValueError, match="Need minval < maxval: 3 >= 3"):
        init.random_uniform_int(out, 1, 2, 3, 3)


def test_uniform_int64_full_range_wraps_correctly():
    out = np.empty(1001, np.int64)
    init.random_uniform_int(out, 1, 2, -(2**63), 2**63 - 1)
    assert out.min() < -(2**61) and out.max() > 2**61


@pytest.mark.parametrize("fill", DISTRIBUTIONS)
@pytest.mark.parametrize("dtype", FLOATS)
def test_value_at_i_is_independent_of_length(fill, dtype):
    long, short = np.empty(1000, dtype), np.empty(10, dtype)
    fill(long, 7, 8)
    fill(short, 7, 8)
    np.testing.assert_array_equal(_bits(long[:10]), _bits(short))


def _uniform_int(out, seed, seed2, counter=0):
    init.random_uniform_int(out, seed, seed2, 0, 7, counter=counter)


@pytest.mark.parametrize("fill, dtype", [(f, d) for f in DISTRIBUTIONS for d in FLOATS]
                         + [(_uniform_int, np.int32), (_uniform_int, np.int64)])
def test_parallel_kernel_gives_the_serial_kernels_values(fill, dtype):
    big = np.empty(PARALLEL_THRESHOLD + 3, dtype)  # takes the parallel kernel
    fill(big, 21, 22)
    head = np.empty(PARALLEL_THRESHOLD - 1, dtype)  # takes the serial one
    fill(head, 21, 22)
    np.testing.assert_array_equal(_bits(big[: head.size]), _bits(head))
    # The tail again, serially, from its first group's Philox counter.
    per = 2 if np.dtype(dtype).itemsize == 8 else 4
    calls_per_group = philox.RESERVED_PER_OUTPUT * per // 4 if fill is init.truncated_normal else 1
    start = (head.size // per) * per
    tail = np.empty(big.size - start, dtype)
    fill(tail, 21, 22, counter=start // per * calls_per_group)
    np.testing.assert_array_equal(_bits(big[start:]), _bits(tail))


def test_counter_shifts_the_stream_by_whole_groups():
    base, shifted = np.empty(40, np.float32), np.empty(36, np.float32)
    init.random_normal(base, 1, 2)
    init.random_normal(shifted, 1, 2, counter=1)
    np.testing.assert_array_equal(base[4:], shifted)
    trunc, trunc_shifted = np.empty(8, np.float32), np.empty(4, np.float32)
    init.truncated_normal(trunc, 1, 2)
    init.truncated_normal(trunc_shifted, 1, 2, counter=philox.RESERVED_PER_OUTPUT)
    np.testing.assert_array_equal(trunc[4:], trunc_shifted)


def test_seeds_change_the_values():
    a, b, c = (np.empty(64, np.float32) for _ in range(3))
    init.random_normal(a, 1, 2)
    init.random_normal(b, 1, 3)
    init.random_normal(c, 2, 2)
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


def test_empty_output():
    for fill in DISTRIBUTIONS:
        fill(np.empty(0, np.float32), 1, 2)


@pytest.mark.parametrize("fill", DISTRIBUTIONS)
def test_argument_errors(fill):
    with pytest.raises(TypeError, match="not int32"):
        fill(np.empty(4, np.int32), 1, 2)
    with pytest.raises(ValueError, match="1-D C-contiguous"):
        fill(np.empty((2, 2), np.float32), 1, 2)
    with pytest.raises(ValueError, match="1-D C-contiguous"):
        fill(np.empty(8, np.float32)[::2], 1, 2)
    readonly = np.empty(4, np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        fill(readonly, 1, 2)
