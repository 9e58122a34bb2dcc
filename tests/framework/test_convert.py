"""convert_to_tensor and the binary operators: TensorFlow's dtype rules, no silent promotion."""

import numpy as np
import pytest

import numflow as tf


@pytest.mark.parametrize(
    "value, dtype",
    [
        (1, tf.int32), (2**40, tf.int64), (1.0, tf.float32), (True, tf.bool), ("s", tf.string),
        ([1, 2], tf.int32), ([1, 2.0], tf.float32), ([[1], [2]], tf.int32),
        (np.float64(1), tf.float64), (np.arange(3), tf.int64), (np.arange(3, dtype=np.int32), tf.int32),
        (np.ones(2, np.float16), tf.float16), (np.array([True]), tf.bool),
    ],
)
def test_default_dtype_of_python_and_numpy_values(graph, value, dtype):
    assert tf.convert_to_tensor(value).dtype == dtype


def test_requested_dtype_converts_python_numbers(graph):
    assert tf.convert_to_tensor(1, dtype=tf.float32).dtype == tf.float32
    assert tf.convert_to_tensor(np.arange(3), dtype=tf.float32).dtype == tf.float32
    assert tf.convert_to_tensor(np.arange(3.0), dtype=tf.float32).dtype == tf.float32


@pytest.mark.parametrize("value", [1.5, [1, 2.5]])
def test_a_float_cannot_become_an_int(graph, value):
    with pytest.raises(TypeError, match=r"Expected int32, (but )?got .*2?\.5 of type 'float'"):
        tf.convert_to_tensor(value, dtype=tf.int32)


def test_a_tensor_keeps_its_dtype(graph):
    t = tf.constant(1)
    assert tf.convert_to_tensor(t) is t
    msg = r"Tensor conversion requested dtype float32 for Tensor with dtype int32"
    with pytest.raises(ValueError, match=msg):
        tf.convert_to_tensor(t, dtype=tf.float32)


def test_unconvertible_object(graph):
    with pytest.raises(TypeError):
        tf.convert_to_tensor(object())


def test_adding_int_and_float_tensors_raises_tensorflows_error(graph):
    msg = "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."
    with pytest.raises(TypeError, match=msg):
        tf.constant(1) + tf.constant(1.0)


def test_multiplying_float32_and_float64_tensors_raises(graph):
    with pytest.raises(TypeError, match="has type float64 that does not match type float32"):
        tf.constant(1.0) * tf.constant(np.float64(2.0))


def test_python_numbers_take_the_tensors_dtype(graph):
    f = tf.constant(1.0)
    i = tf.constant(1)
    assert (f + 1).dtype == tf.float32
    assert (1 + f).dtype == tf.float32
    assert (i * 2).dtype == tf.int32
    assert (f * np.float32(2)).dtype == tf.float32


def test_a_float_python_number_with_an_int_tensor_raises(graph):
    with pytest.raises(TypeError):
        tf.constant(1) + 1.5


def test_the_dtype_mismatch_message_is_exactly_tensorflows(graph):
    with pytest.raises(TypeError) as info:
        tf.constant(1) + tf.constant(1.0)
    assert str(info.value) == "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."


def test_a_shape_error_names_the_op(graph):
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3") as info:
        tf.add(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]), name="plus")
    assert "plus" in str(info.value)


@pytest.mark.parametrize("make", [lambda: tf.convert_to_tensor(None), lambda: tf.constant(None),
                                  lambda: tf.constant(None, dtype=tf.float32), lambda: tf.add(None, 1.0),
                                  lambda: tf.identity(None)])
def test_none_is_refused_with_tensorflows_value_error(make):
    # A cond branch or a helper that returned nothing, as TensorFlow words it.
    with tf.Graph().as_default(), pytest.raises(ValueError, match="None values not supported"):
        make()


def test_a_list_holding_what_has_no_dtype_names_the_whole_list():
    with tf.Graph().as_default(), pytest.raises(TypeError) as raised:
        tf.constant([1.0, None])
    assert str(raised.value) == ("Failed to convert elements of [1.0, None] to Tensor. Consider casting elements to a "
                                 "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for "
                                 "supported TF dtypes.")
