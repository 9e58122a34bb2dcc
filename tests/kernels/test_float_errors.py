"""quiet_call: numpy's divide, invalid and overflow errors ignored around one call, the caller's
settings kept outside it and for underflow; quiet: the same state held around many calls."""

import warnings

import numpy as np
import pytest

from numflow_kernels.float_errors import quiet, quiet_call


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


def test_quiet_holds_the_quiet_state_around_many_calls_which_then_keep_it_and_restores_the_callers():
    quiet_settings = {"divide": "ignore", "invalid": "ignore", "over": "ignore"}
    with np.errstate(all="raise"):
        with quiet():
            assert np.geterr() == {**quiet_settings, "under": "raise"}
            assert np.isinf(quiet_call(np.divide, np.float32(1), np.float32(0)))
            assert np.geterr() == {**quiet_settings, "under": "raise"}
        assert np.geterr() == {"divide": "raise", "over": "raise", "under": "raise", "invalid": "raise"}


def test_a_while_loop_divides_by_zero_silently_and_leaves_the_callers_state():
    import numflow as tf

    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2])
        _, out = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v / (v - v)), [0, x])
        with tf.Session() as sess, warnings.catch_warnings(), np.errstate(all="warn"):
            warnings.simplefilter("error")
            got = sess.run(out, {x: [1.0, 0.0]})
            assert np.geterr() == {"divide": "warn", "over": "warn", "under": "warn", "invalid": "warn"}
    assert np.isnan(got).all()
