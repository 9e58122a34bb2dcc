"""``tf.errors``: TensorFlow's error classes and codes."""

from numflow.framework.errors import *  # noqa: F403
from numflow.framework.errors import OpError, exception_type_from_error_code  # noqa: F401
