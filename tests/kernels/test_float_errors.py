"""quiet_call: numpy's divide, invalid and overflow errors ignored around one call, the caller's
settings kept outside it and for underflow."""

import warnings

import numpy as np
import pytest

from numflow_kernels.float_errors import quiet_call


def test_overflow_invalid_and_divide_are_ignored_even_where_the_caller_raises():
    big = np.array([3e38, 0.0, 1.0], np.float32)
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        product = quiet_call(np.multiply, big, np.array([10.0, np.inf, 1.0], np.float32))
        quotient = quiet_call(np.divide, big, np.zeros(3, np.float32))
        assert np.geterr() == {"divide": "raise", "over": "raise", "under": "raise", "invalid": "raise"}
    assert product[0] == np.inf and np.isnan(product[1]) and product[2] == 1.0
    assert np.isinf(quotient[0]) and np.isnan(quotient[1])


def test_the_callers_underflow_setting_holds_inside_and_each_state_is_its_own():
    tiny = np.array([1e-30], np.float32)
    with np.errstate(under="raise"), pytest.raises(FloatingPointError, match="underflow"):
        quiet_call(np.multiply, tiny, tiny)
    with np.errstate(under="ignore"):
        assert quiet_call(np.multiply, tiny, tiny)[0] == 0.0
    assert quiet_call(np.geterr) == {**np.geterr(), "divide": "ignore", "invalid": "ignore", "over": "ignore"}
