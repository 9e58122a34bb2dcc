"""``tf.strings``: the string ops numflow has, under the names ``tf.compat.v1.strings`` gives them; re-exports
only."""

from numflow.ops.logging_ops import string_format as format
from numflow.ops.string_ops import as_string
from numflow.ops.string_ops import string_join as join
from numflow.ops.string_ops import string_length as length
from numflow.ops.string_ops import strings_split as split
from numflow.ops.string_transform_ops import (
    lower,
    reduce_join,
    regex_full_match,
    regex_replace,
    strip,
    substr,
    upper,
)
from numflow.ops.string_transform_ops import string_to_hash_bucket as to_hash_bucket
from numflow.ops.string_transform_ops import string_to_hash_bucket_fast as to_hash_bucket_fast
from numflow.ops.string_transform_ops import string_to_hash_bucket_strong as to_hash_bucket_strong
from numflow.ops.string_transform_ops import string_to_number as to_number

__all__ = ["as_string", "format", "join", "length", "lower", "reduce_join", "regex_full_match", "regex_replace",
           "split", "strip", "substr", "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number",
           "upper"]
