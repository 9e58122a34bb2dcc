"""``tf.strings``: the string ops numflow has, under the names ``tf.compat.v1.strings`` gives them; re-exports
only."""

from numflow.ops.logging_ops import string_format as format
from numflow.ops.string_ops import as_string
from numflow.ops.string_ops import string_join as join
from numflow.ops.string_ops import string_length as length
from numflow.ops.string_ops import strings_split as split

__all__ = ["as_string", "format", "join", "length", "split"]
