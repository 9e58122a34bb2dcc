"""``tf.nest``: flatten, pack and map nested structures of tensors as TensorFlow does."""

from numflow.framework.nest import (  # noqa: F401 - tf.nest's names
    assert_same_structure,
    flatten,
    is_nested,
    map_structure,
    pack_sequence_as,
)
