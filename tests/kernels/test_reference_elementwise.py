"""The numpy kernels of elementwise ops that are one ufunc: arrays of the op's dtype (0-d ones
included, never numpy scalars), strings kept as objects, float warnings off."""

import warnings

import numpy as np
import pytest

from numflow_kernels import registry


def _kernel(op_type):
    return registry.reference(op_type)


@pytest.mark.parametrize("op_type, inputs, expected", [
    ("Less", (np.int32(3), np.int32(5)), np.array(True)),
    ("AddV2", (np.int32(3), np.int32(5)), np.array(8, np.int32)),
    ("AddV2", (np.float32(0.5), np.float32(0.25)), np.array(0.75, np.float32)),
    ("Mul", (np.int64(3), np.int64(-5)), np.array(-15, np.int64)),
    ("Neg", (np.float64(2.0),), np.array(-2.0)),
    ("Maximum", (np.uint8(3), np.uint8(200)), np.array(200, np.uint8)),
    ("LogicalNot", (np.bool_(True),), np.array(False)),
])
def test_a_0d_result_is_an_array_of_the_ops_dtype(op_type, inputs, expected):
    got = _kernel(op_type)(None, *(np.asarray(x) for x in inputs))
    assert type(got) is np.ndarray and got.shape == () and got.dtype == expected.dtype
    assert got == expected


def test_strings_added_stay_object_arrays():
    got = _kernel("AddV2")(None, np.asarray(b"ab", dtype=object), np.asarray(b"cd", dtype=object))
    assert type(got) is np.ndarray and got.dtype == object and got[()] == b"abcd"
    equal = _kernel("Equal")(None, np.asarray(b"ab", dtype=object), np.asarray(b"ab", dtype=object))
    assert equal.dtype == bool and equal[()]


def test_float_overflow_and_invalid_values_warn_nothing():
    big = np.array([3e38, -np.inf], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        product = _kernel("Mul")(None, big, np.array([10.0, 0.0], np.float32))
        total = _kernel("AddV2")(None, big, np.array([3e38, np.inf], np.float32))
    assert product[0] == np.inf and np.isnan(product[1]) and product.dtype == np.float32
    assert total[0] == np.inf and np.isnan(total[1])
