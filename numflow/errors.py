"""``tf.errors``: TensorFlow's error classes and codes."""

from numflow.framework.errors import *  # noqa: F403
from numflow.framework.errors import (  # noqa: F401
    OpError,
    error_code_from_exception_type,
    exception_type_from_error_code,
)
