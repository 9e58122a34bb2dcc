"""TensorLists and optionals (TensorFlow 2's control flow values), their kernels against hand-made
expectations: a list value never changes under its users, and errors carry TensorFlow's messages."""

from types import SimpleNamespace

import numpy as np
import pytest

import numflow as tf
from numflow_kernels import reference
from numflow_kernels import variant_ops as ops


def _ctx(**attrs):
    return SimpleNamespace(op_name="list", attrs={"element_dtype": np.dtype(np.float32), **attrs})


def _f(*values):
    return np.array(values, np.float32)


def test_pushing_onto_a_list_leaves_the_earlier_value_as_it_was():
    ctx = _ctx()
    empty = ops.empty_tensor_list(ctx, np.int32(-1), np.int32(-1))
    one = ops.tensor_list_push_back(ctx, empty, _f(1, 2))
    two = ops.tensor_list_push_back(ctx, one, _f(3, 4))
    other = ops.tensor_list_push_back(ctx, one, _f(5, 6))  # a second push onto `one`: its own items
    np.testing.assert_array_equal(ops.tensor_list_stack(ctx, two, np.int32(-1)), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(ops.tensor_list_stack(ctx, other, np.int32(-1)), [[1, 2], [5, 6]])
    assert (ops.tensor_list_length(ctx, one), ops.tensor_list_length(ctx, empty)) == (1, 0)
    rest, last = ops.tensor_list_pop_back(ctx, two, np.int32(-1))
    np.testing.assert_array_equal(last, [3, 4])
    np.testing.assert_array_equal(ops.tensor_list_get_item(ctx, two, np.int32(1), np.int32(-1)), [3, 4])
    assert ops.tensor_list_length(ctx, rest) == 1


def test_a_reserved_list_reads_unset_items_as_zeros_of_a_known_shape():
    ctx = _ctx()
    reserved = ops.tensor_list_reserve(ctx, np.array([2], np.int32), np.int32(3))
    written = ops.tensor_list_set_item(ctx, reserved, np.int32(1), _f(7, 8))
    np.testing.assert_array_equal(ops.tensor_list_stack(ctx, written, np.int32(-1)), [[0, 0], [7, 8], [0, 0]])
    unknown = ops.tensor_list_reserve(ctx, np.int32(-1), np.int32(2))
    with pytest.raises(ValueError, match="element_shape is not fully defined: <unknown>"):
        ops.tensor_list_get_item(ctx, unknown, np.int32(0), np.int32(-1))


def test_a_list_refuses_items_of_another_dtype_or_shape_and_indices_past_its_end():
    ctx = _ctx()
    shaped = ops.empty_tensor_list(ctx, np.array([2], np.int32), np.int32(1))
    with pytest.raises(ValueError, match="list elements float32 but tried to append float64"):
        ops.tensor_list_push_back(ctx, shaped, np.zeros(2))
    with pytest.raises(ValueError, match=r"incompatible shape to a list. Op element shape: \[3\] list shape: \[2\]"):
        ops.tensor_list_push_back(ctx, shaped, _f(1, 2, 3))
    full = ops.tensor_list_push_back(ctx, shaped, _f(1, 2))
    with pytest.raises(ValueError, match="push item into a full list list size: 1 max_num_elements: 1"):
        ops.tensor_list_push_back(ctx, full, _f(1, 2))
    with pytest.raises(ValueError, match="access element 4 in a list with 1 elements"):
        ops.tensor_list_get_item(ctx, full, np.int32(4), np.int32(-1))


def test_add_n_adds_lists_item_by_item_and_zeros_like_keeps_unset_items_unset():
    ctx = _ctx()
    a = ops.tensor_list_set_item(ctx, ops.tensor_list_reserve(ctx, np.int32(-1), np.int32(2)), np.int32(0), _f(1, 2))
    b = ops.tensor_list_from_tensor(ctx, _f([10, 20], [30, 40]).reshape(2, 2), np.int32(-1))
    total = reference.add_n(ctx, a, b, b)
    np.testing.assert_array_equal(ops.tensor_list_stack(ctx, total, np.int32(-1)), [[21, 42], [60, 80]])
    zeros = reference.zeros_like(ctx, a)
    assert zeros.items()[1] is None
    np.testing.assert_array_equal(zeros.items()[0], [0, 0])
    short = ops.tensor_list_reserve(ctx, np.int32(-1), np.int32(1))
    with pytest.raises(ValueError, match="different lengths. One is 2 and the other is 1"):
        reference.add_n(ctx, a, short)


def test_an_optional_gives_its_value_or_fails_as_tensorflow_when_empty():
    ctx = _ctx()
    full = ops.optional_from_value(ctx, _f(1, 2))
    assert ops.optional_has_value(ctx, full) and not ops.optional_has_value(ctx, ops.optional_none(ctx))
    np.testing.assert_array_equal(ops.optional_get_value(ctx, full), [1, 2])
    np.testing.assert_array_equal(ops.optional_get_value(ctx, reference.zeros_like(ctx, full)), [0, 0])
    with pytest.raises(ValueError, match="The optional does not have a value."):
        ops.optional_get_value(ctx, ops.optional_none(ctx))


def test_invert_permutation_inverts_and_refuses_what_is_not_a_permutation():
    with tf.Graph().as_default() as graph, tf.Session() as sess:
        perm = tf.placeholder(tf.int32, [None])
        inverse = graph.create_op("InvertPermutation", [perm], {"T": tf.int32}).outputs[0]
        np.testing.assert_array_equal(sess.run(inverse, {perm: [2, 0, 3, 1]}), [1, 3, 0, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="1 is duplicated in the input"):
            sess.run(inverse, {perm: [1, 1, 0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="3 is not between 0 and 3"):
            sess.run(inverse, {perm: [0, 3, 1]})
