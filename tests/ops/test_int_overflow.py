"""Python integers that do not fit a fixed-width type raise, or take a wider type; they never wrap.

Shapes, indices and axes take int64 when int32 is too narrow, as TensorFlow's "int64 if needed"
rule does: the static shapes and error classes below were checked against TensorFlow 2.21's
``tf.compat.v1`` in graph mode. Where TensorFlow itself wraps (a ``one_hot`` depth, an ``argmax``
axis, an int32 ``range``), numflow raises instead. No case here runs an op that would allocate its
output: those that run ask for exabytes, which fail at once.
"""

import numpy as np
import pytest

import numflow as tf

BIG = 1 << 40


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


@pytest.mark.parametrize("make", [
    lambda: tf.zeros([BIG, 1 << 20]),
    lambda: tf.ones([BIG, 1 << 20]),
    lambda: tf.fill([BIG, 1 << 20], 1.0),
    lambda: tf.zeros(tf.constant([BIG, 1 << 20])),
    lambda: tf.fill(np.array([BIG, 1 << 20], np.int64), 1.0),
])
def test_a_shape_past_int32_keeps_its_size_and_runs_out_of_memory_as_in_tensorflow(make):
    x = make()
    assert x.shape.as_list() == [BIG, 1 << 20]
    assert x.op.inputs[0].dtype == tf.int64
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating"):
        _run(x)


@pytest.mark.parametrize("dims", [[1 << 63], [(1 << 64) + 1], [2, -1]])
def test_a_dimension_outside_int64_or_negative_is_refused(dims):
    with pytest.raises(ValueError, match=f"Invalid value in tensor used for shape: {dims[-1]}"):
        tf.zeros(dims)


def test_python_integers_take_int64_then_uint64_and_never_wrap():
    assert tf.constant(1 << 40).dtype == tf.int64
    assert tf.constant([1, -(1 << 40)]).dtype == tf.int64
    big = tf.constant(1 << 63)
    assert big.dtype == tf.uint64 and int(_run(big)) == 1 << 63
    with pytest.raises(TypeError, match="Failed to convert elements of 18446744073709551616 to Tensor"):
        tf.constant(1 << 64)


def test_a_constant_given_more_values_than_its_shape_holds_is_a_value_error():
    with pytest.raises(ValueError, match=r"^Too many elements provided. Takes at most 2, but got 3.$"):
        tf.constant([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(2, 2\), but got \(2,\)."):
        tf.constant([1, 2], shape=[2, 2], verify_shape=True)


@pytest.mark.parametrize("value, shape, expected", [
    ([1, 2], [2, 2], [[1, 2], [2, 2]]),
    ([1, 2, 3], [3, 2], [[1, 2], [3, 3], [3, 3]]),
    (7, [2, 3], [[7, 7, 7], [7, 7, 7]]),
    ([[1, 2], [3, 4]], [4], [1, 2, 3, 4]),
    ([5], [0], []),
])
def test_a_constant_fills_a_larger_shape_with_its_last_value_as_tensorflow_1_does(value, shape, expected):
    assert _run(tf.constant(value, shape=shape)).tolist() == expected


def test_an_empty_constant_fills_its_shape_with_zeros_or_empty_strings():
    assert _run(tf.constant([], shape=[2])).tolist() == [0.0, 0.0]
    assert _run(tf.constant([], dtype=tf.string, shape=[2])).tolist() == [b"", b""]


def test_a_constant_too_large_for_memory_is_resource_exhausted():
    with pytest.raises(tf.errors.ResourceExhaustedError, match=r"shape\[1099511627776, 1048576\]"):
        tf.constant(0, shape=[BIG, 1 << 20])


@pytest.mark.parametrize("make, shape", [
    (lambda: tf.tile(tf.zeros([2]), [(1 << 32) + 1]), [8589934594]),
    (lambda: tf.pad(tf.zeros([2]), [[(1 << 32) + 1, 0]]), [4294967299]),
    (lambda: tf.range(BIG), [BIG]),
    (lambda: tf.Variable(tf.zeros([(1 << 32) + 1])).value(), [(1 << 32) + 1]),
    (lambda: tf.get_variable("v", [(1 << 32) + 1]).value(), [(1 << 32) + 1]),
    (lambda: tf.zeros([4])[: (1 << 32) + 2], [4]),
    (lambda: tf.zeros([4])[BIG:], [0]),
    (lambda: tf.zeros([4])[-(1 << 63):], [4]),
    (lambda: tf.slice(tf.zeros([2]), [0], [BIG]), [BIG]),
])
def test_static_shapes_of_sizes_past_int32_are_tensorflows(make, shape):
    assert make().shape.as_list() == shape


@pytest.mark.parametrize("make, error, match", [
    (lambda: tf.reshape(tf.zeros([4]), [(1 << 32) + 2, -1]), ValueError,
     "Dimension size must be evenly divisible by 4294967298 but is 4"),
    (lambda: tf.tile(tf.zeros([2]), [1 << 62]), ValueError, "overflows int64"),
    (lambda: tf.tile(tf.zeros([2]), [1 << 63]), TypeError,
     "Value passed to parameter 'multiples' has DataType uint64 not in list of allowed values: int32, int64"),
    (lambda: tf.reshape(tf.zeros([4]), [1 << 63]), TypeError,
     "Value passed to parameter 'shape' has DataType uint64"),
    (lambda: tf.slice(tf.zeros([2]), [1 << 63], [1]), TypeError,
     "Value passed to parameter 'begin' has DataType uint64"),
    (lambda: tf.expand_dims(tf.zeros([2]), 1 << 32), ValueError, r"dim 4294967296 not in the interval \[-2, 1\]"),
    (lambda: tf.expand_dims(tf.zeros([2]), -(1 << 32)), ValueError, "dim -4294967296 not in the interval"),
    (lambda: tf.concat([tf.zeros([2]), tf.zeros([2])], 1 << 32), ValueError, "4294967297"),
    (lambda: tf.gather(tf.zeros([2]), [0], axis=1 << 32), ValueError, "4294967297"),
    (lambda: tf.transpose(tf.zeros([2, 3]), [1 << 32, 0]), ValueError,
     "perm dim 4294967296 is out of range of input rank 2"),
    (lambda: tf.reduce_sum(tf.zeros([2]), axis=1 << 63), ValueError, "Invalid reduction dimension 9223372036854775808"),
    (lambda: tf.argmax(tf.zeros([2]), axis=1 << 32), ValueError, "4294967296"),
    (lambda: tf.squeeze(tf.zeros([1, 2]), [1 << 32]), ValueError, "4294967296"),
    (lambda: tf.pad(tf.zeros([2]), [[-(1 << 32), 0]]), ValueError, "Paddings must be non-negative"),
    (lambda: tf.one_hot([0, 1], BIG), TypeError,
     "Value passed to parameter 'depth' has DataType int64 not in list of allowed values: int32"),
    (lambda: tf.one_hot([0], 2, axis=1 << 32), ValueError, "Attr axis has value 4294967296 out of range for an int32"),
    (lambda: tf.range(0, 1 << 33, 1 << 31, dtype=tf.int32), ValueError,
     "range's limit 8589934592 is out of the range of int32"),
    (lambda: tf.placeholder(tf.float32, [1 << 63]), ValueError, "overflows int64"),
])
def test_an_index_axis_or_size_that_does_not_fit_raises_when_the_graph_is_built(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.parametrize("make, error, match", [
    (lambda: tf.gather(tf.zeros([2]), [1 << 32]), tf.errors.InvalidArgumentError, r"indices\[0\] = 4294967296"),
    (lambda: tf.slice(tf.zeros([2]), [0], [BIG]), tf.errors.InvalidArgumentError,
     r"Expected size\[0\] in \[0, 2\], but got 1099511627776"),
    (lambda: tf.range(BIG), tf.errors.ResourceExhaustedError, "OOM when allocating"),
    (lambda: tf.unsorted_segment_sum(tf.zeros([2]), [0, 1], BIG * 1024), tf.errors.ResourceExhaustedError,
     "OOM when allocating"),
    (lambda: tf.one_hot([0, 1], 2, axis=5), tf.errors.InvalidArgumentError,
     r"Expected axis to be -1 or between \[0, 2\). But received: 5"),
])
def test_run_time_errors_are_tensorflows(make, error, match):
    x = make()
    with pytest.raises(error, match=match):
        _run(x)


@pytest.mark.parametrize("graph_seed, op_seed, expected", [
    (None, -1, [0.4728587865829468, 0.6440449953079224]),
    (None, 1 << 64, [0.956581711769104, 0.2668107748031616]),
    (None, (1 << 64) + 5, [0.45490562915802, 0.31397736072540283]),
    (1 << 64, None, [0.8043032884597778, 0.9943951368331909]),
    (-(1 << 63), 3, [0.5383409261703491, 0.5786727666854858]),
    (None, -(1 << 70), [0.9037235975265503, 0.050011634826660156]),
])
def test_seeds_past_int64_give_tensorflows_draws(graph_seed, op_seed, expected):
    if graph_seed is not None:
        tf.set_random_seed(graph_seed)
    assert _run(tf.random_uniform([2], seed=op_seed)).tolist() == pytest.approx(expected, rel=0, abs=0)
