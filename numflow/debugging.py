"""``tf.debugging``: assertions and numeric checks under the names ``tf.compat.v1.debugging`` gives them;
re-exports only."""

from numflow.ops.check_ops import (
    Assert,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_integer,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_proper_iterable,
    assert_rank,
    assert_rank_at_least,
    assert_rank_in,
    assert_same_float_dtype,
    assert_scalar,
    assert_type,
    check_numerics,
    is_non_decreasing,
    is_numeric_tensor,
    is_strictly_increasing,
)
from numflow.ops.check_ops import verify_tensor_all_finite as assert_all_finite
from numflow.ops.elementwise_ops import is_finite, is_inf, is_nan

_log_device_placement = [False]  # one process-wide flag, as TensorFlow's context holds it


def set_log_device_placement(enabled):
    """Set the process-wide flag ``get_log_device_placement`` reads (TensorFlow's eager context flag;
    a session logs placements when its ``ConfigProto(log_device_placement=True)`` asks)."""
    _log_device_placement[0] = bool(enabled)


def get_log_device_placement():
    """The flag ``set_log_device_placement`` set (False at first)."""
    return _log_device_placement[0]


__all__ = [
    "Assert", "assert_all_finite", "assert_equal", "assert_greater", "assert_greater_equal", "assert_integer",
    "assert_less", "assert_less_equal", "assert_near", "assert_negative", "assert_non_negative", "assert_non_positive",
    "assert_none_equal", "assert_positive", "assert_proper_iterable", "assert_rank", "assert_rank_at_least",
    "assert_rank_in", "assert_same_float_dtype", "assert_scalar", "assert_type", "check_numerics", "is_finite",
    "is_inf", "is_nan", "is_non_decreasing", "is_numeric_tensor", "is_strictly_increasing",
    "get_log_device_placement", "set_log_device_placement",
]
