"""Errors in TensorFlow's classes and words, at build time and at run time, one table row per case.

Build-time rows raise while the graph is built (ValueError, TypeError; a few InvalidArgumentError, as
TF raises them). Run-time rows build fine from inputs whose shape is unknown until run time, then
``Session.run`` raises ``InvalidArgumentError`` (or the given class) naming the failing op. Every
message below was checked against TensorFlow 2.21's ``tf.compat.v1`` in graph mode.
"""

import numpy as np
import pytest

import numflow as tf


def _f(*shape):
    return tf.ones(list(shape))


def _i(*shape):
    return tf.ones(list(shape), tf.int32)


def _late(value, dtype=None):
    """``value`` with a fully unknown static shape: checks on it happen at run time."""
    return tf.placeholder_with_default(tf.constant(value, dtype=dtype), shape=None)


_DTYPE = "has DataType {} not in list of allowed values"

BUILD = [
    # -- math dtype rules -------------------------------------------------------------------------
    ("int_plus_float_tensor", lambda: tf.constant(1) + tf.constant(1.0), TypeError,
     "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    ("int_plus_python_float", lambda: tf.constant(1) + 1.5, TypeError,
     "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    ("python_float_plus_int", lambda: 1.5 + tf.constant(1), TypeError,
     "^Expected int32, but got 1.5 of type 'float'.$"),
    ("int_times_python_float", lambda: tf.constant(2) * 1.5, TypeError,
     "Expected int32 passed to parameter 'y' of op 'Mul', got 1.5 of type 'float' instead. "
     "Error: Expected int32, but got 1.5 of type 'float'."),
    ("equal_int_float_tensor", lambda: tf.equal(tf.constant([1]), tf.constant(2.5)), TypeError,
     "Input 'y' of 'Equal' Op has type float32 that does not match type int32"),
    ("bool_plus_bool", lambda: tf.constant(True) + tf.constant(False), TypeError,
     "Value passed to parameter 'x' " + _DTYPE.format("bool")),
    ("string_minus_string", lambda: tf.constant("a") - tf.constant("b"), TypeError, _DTYPE.format("string")),
    ("pow_uint8", lambda: tf.pow(tf.ones([1], tf.uint8), tf.ones([1], tf.uint8)), TypeError,
     _DTYPE.format("uint8")),
    ("sqrt_int", lambda: tf.sqrt(tf.constant([4])), TypeError, _DTYPE.format("int32")),
    ("exp_int", lambda: tf.exp(tf.constant([4])), TypeError, _DTYPE.format("int32")),
    ("negative_bool", lambda: -tf.constant(True), TypeError, _DTYPE.format("bool")),
    ("abs_uint8", lambda: tf.abs(tf.ones([1], tf.uint8)), TypeError, _DTYPE.format("uint8")),
    ("floor_int", lambda: tf.floor(tf.constant([1])), TypeError, _DTYPE.format("int32")),
    ("logical_and_int", lambda: tf.logical_and(tf.constant(1), tf.constant(0)), TypeError,
     "Input 'x' of 'LogicalAnd' Op has type int32 that does not match expected type of bool."),
    ("logical_not_float", lambda: tf.logical_not(tf.constant(1.0)), TypeError,
     "Input 'x' of 'LogicalNot' Op has type float32 that does not match expected type of bool."),
    ("truediv_bool", lambda: tf.constant(True) / tf.constant(False), TypeError,
     r"Invalid dtype tf.bool in __truediv__"),
    ("truediv_mixed", lambda: tf.truediv(tf.constant(1), tf.constant(1.0)), TypeError,
     "x and y must have the same dtype"),
    ("broadcast", lambda: tf.constant([1, 2]) + tf.constant([1, 2, 3]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("broadcast_placeholders", lambda: tf.placeholder(tf.int32, [2]) + tf.placeholder(tf.int32, [None, 3]),
     ValueError, "Dimensions must be equal, but are 2 and 3"),
    ("matmul_inner", lambda: tf.matmul(_f(2, 3), _f(2, 3)), ValueError, "Dimensions must be equal, but are 3 and 2"),
    ("matmul_rank1", lambda: tf.matmul(_f(3), _f(3, 4)), ValueError, "Shape must be rank 2 but is rank 1"),
    ("matmul_bool", lambda: tf.matmul(tf.zeros([1, 1], tf.bool), tf.zeros([1, 1], tf.bool)), TypeError,
     "Value passed to parameter 'a' " + _DTYPE.format("bool")),
    ("batch_matmul_inner", lambda: tf.matmul(_f(2, 2, 3), _f(2, 2, 3)), ValueError,
     "Dimensions must be equal, but are 3 and 2"),
    ("reduce_axis", lambda: tf.reduce_sum(_f(2, 3, 4), axis=3), ValueError,
     "Invalid reduction dimension 3 for input with 3 dimensions."),
    ("reduce_scalar_axis", lambda: tf.reduce_sum(tf.constant(3.0), axis=0), ValueError,
     "Invalid reduction dimension 0 for input with 0 dimensions."),
    ("reduce_sum_bool", lambda: tf.reduce_sum(tf.constant([True])), TypeError,
     "Value passed to parameter 'input' " + _DTYPE.format("bool")),
    ("reduce_all_int", lambda: tf.reduce_all(tf.constant([1])), TypeError,
     "Input 'input' of 'All' Op has type int32 that does not match expected type of bool."),
    ("argmax_axis", lambda: tf.argmax(tf.constant([[1, 3], [4, 2]]), 2), ValueError,
     r"Dimension \(2\) must be in the range \[-2, 2\), where 2 is the number of dimensions in the input."),
    ("range_delta_zero", lambda: tf.range(5, 0, 0), ValueError, "Requires delta != 0"),
    ("range_down", lambda: tf.range(0, 5, -1), ValueError, "Requires start >= limit when delta < 0: 0/5"),
    ("range_up", lambda: tf.range(5, 0, 1), ValueError, "Requires start <= limit when delta > 0: 5/0"),
    # -- creating and reshaping -------------------------------------------------------------------
    ("zeros_partial_shape", lambda: tf.zeros(tf.TensorShape([2, None])), ValueError,
     r"Cannot convert a partially known TensorShape \(2, \?\) to a Tensor."),
    ("zeros_negative", lambda: tf.zeros([-2]), ValueError, "Invalid value in tensor used for shape: -2"),
    ("zeros_float_shape_tensor", lambda: tf.zeros(tf.constant([2.0, 3.0])), TypeError,
     "Value passed to parameter 'dims' " + _DTYPE.format("float32")),
    ("ones_string", lambda: tf.ones([2], tf.string), TypeError, "Expected string, but got 1 of type 'int'."),
    ("fill_vector_value", lambda: tf.fill([2], [1, 2]), ValueError, "Shape must be rank 0 but is rank 1"),
    ("fill_negative", lambda: tf.fill([-1, 2], 1), ValueError, "Fill dimensions must be >= 0"),
    ("fill_matrix_dims", lambda: tf.fill([[2]], 1), ValueError, "Shape must be rank 1 but is rank 2"),
    ("reshape_count", lambda: tf.reshape(tf.range(6), [4]), ValueError,
     r"Cannot reshape a tensor with 6 elements to shape \[4\] \(4 elements\)"),
    ("reshape_divisible", lambda: tf.reshape(tf.range(6), [4, -1]), ValueError,
     "Dimension size must be evenly divisible by 4 but is 6"),
    ("reshape_partial_in", lambda: tf.reshape(tf.placeholder(tf.float32, [None, 6]), [5, 7]), ValueError,
     "Dimension size must be evenly divisible by 6 but is 35"),
    ("reshape_partial_out", lambda: tf.reshape(tf.placeholder(tf.float32, [4, 6]), [5, -1]), ValueError,
     "Dimension size must be evenly divisible by 5 but is 24"),
    ("reshape_minus_two", lambda: tf.reshape(tf.range(6), [-2, 3]), ValueError,
     "Invalid value in tensor used for shape: -2"),
    ("reshape_matrix_shape", lambda: tf.reshape(tf.range(2), [[2]]), ValueError,
     "Shape must be rank 1 but is rank 2"),
    ("reshape_float_shape", lambda: tf.reshape(tf.range(2), [2.0]), TypeError,
     "Value passed to parameter 'shape' " + _DTYPE.format("float32")),
    ("transpose_perm_size", lambda: tf.transpose(_f(2, 3, 4), [1, 0]), ValueError, "Dimension must be 3 but is 2"),
    ("transpose_perm_range", lambda: tf.transpose(_f(2, 3, 4), [1, 3, 0]), ValueError,
     "perm dim 3 is out of range of input rank 3"),
    ("expand_dims_range", lambda: tf.expand_dims(_f(2, 3), 3), ValueError, r"dim 3 not in the interval \[-3, 2\]."),
    ("expand_dims_negative", lambda: tf.expand_dims(_f(2, 3), -4), ValueError,
     r"dim -4 not in the interval \[-3, 2\]."),
    ("expand_dims_no_axis", lambda: tf.expand_dims(_f(2, 3)), ValueError,
     r"Must specify an axis argument to tf.expand_dims\(\)"),
    ("expand_dims_two_values", lambda: tf.expand_dims(_f(2, 3), [0, 1]), ValueError,
     "'dim' input must be a tensor with a single value"),
    ("squeeze_not_one", lambda: tf.squeeze(_f(1, 2, 1, 3), [1]), ValueError,
     r"Can not squeeze dim\[1\], expected a dimension of 1, got 2"),
    ("squeeze_range", lambda: tf.squeeze(_f(1, 2, 1, 3), [4]), ValueError, r"squeeze_dims\[0\] not in \[-4,4\)."),
    # -- joining ----------------------------------------------------------------------------------
    ("concat_dims", lambda: tf.concat([_f(2, 3), _f(3, 1)], 1), ValueError,
     r"Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are \[2\] and \[3\]."),
    ("concat_rank", lambda: tf.concat([_f(2, 3), _f(3)], 0), ValueError, "Shape must be rank 2 but is rank 1"),
    ("concat_axis", lambda: tf.concat([_f(2, 3), _f(2, 3)], 2), ValueError,
     "Shape must be at least rank 3 but is rank 2"),
    ("concat_dtypes", lambda: tf.concat([_f(2, 3), _i(2, 3)], 0), TypeError,
     r"Tensors in list passed to 'values' of 'ConcatV2' Op have types \[float32, int32\] that don't all match."),
    ("concat_scalars", lambda: tf.concat([tf.constant(1), tf.constant(2)], 0), ValueError,
     r"Can't concatenate scalars \(use tf.stack instead\)"),
    ("concat_nothing", lambda: tf.concat([], 0), ValueError,
     "List argument 'values' to 'ConcatV2' Op with length 0 shorter than minimum length 2."),
    ("stack_axis", lambda: tf.stack([_f(2), _f(2)], axis=2), ValueError, r"Argument `axis` = 2 not in range \[-2, 2\)"),
    ("stack_shapes", lambda: tf.stack([_f(2), _f(3)]), ValueError,
     "Dimension 0 in both shapes must be equal, but are 2 and 3."),
    ("stack_dtypes", lambda: tf.stack([_f(2), _i(2)]), TypeError,
     r"Tensors in list passed to 'values' of 'Pack' Op have types \[float32, int32\] that don't all match."),
    ("unstack_unknown", lambda: tf.unstack(tf.placeholder(tf.float32, [None, 3])), ValueError,
     r"Cannot infer argument `num` from shape \(\?, 3\)"),
    ("unstack_num", lambda: tf.unstack(_f(2, 3), num=4), ValueError, "Dimension must be 4 but is 2"),
    ("unstack_axis", lambda: tf.unstack(_f(2, 3), axis=2), ValueError, r"Argument `axis` = 2 not in range \[-2, 2\)"),
    # -- slicing ----------------------------------------------------------------------------------
    ("slice_index", lambda: _f(2, 3, 4)[2], ValueError, "slice index 2 of dimension 0 out of bounds."),
    ("slice_negative_index", lambda: _f(2, 3, 4)[-3], ValueError, "slice index -1 of dimension 0 out of bounds."),
    ("slice_placeholder_dim", lambda: tf.placeholder(tf.float32, [None, 3])[:, 5], ValueError,
     "slice index 5 of dimension 1 out of bounds."),
    ("slice_too_many", lambda: _f(2, 3, 4)[0, 0, 0, 0], ValueError,
     "Index out of range using input dim 3; input has only 3 dims"),
    ("slice_scalar", lambda: tf.constant(1.0)[0], ValueError, "Attempting to slice scalar input."),
    ("slice_ellipses", lambda: _f(2, 3)[..., ...], ValueError, "Multiple ellipses in slice spec not allowed"),
    ("slice_zero_step", lambda: _f(2, 3)[::0], ValueError, r"strides\[0\] must be non-zero"),
    ("slice_float", lambda: _f(2, 3)[1.5], TypeError,
     r"Only integers, slices \(`:`\), ellipsis \(`...`\), tf.newaxis \(`None`\) and scalar tf.int32/tf.int64 "
     "tensors are valid indices, got 1.5"),
    ("slice_float_tensor", lambda: _f(2, 3)[tf.constant(1.0)], TypeError, "are valid indices, got <tf.Tensor"),
    ("slice_vector_tensor", lambda: _f(2, 3)[tf.constant([1])], TypeError, "are valid indices"),
    # -- nn ---------------------------------------------------------------------------------------
    ("relu_bool", lambda: tf.nn.relu(tf.constant([True])), TypeError,
     "Value passed to parameter 'features' " + _DTYPE.format("bool")),
    ("softmax_int", lambda: tf.nn.softmax([1, 2]), TypeError,
     "Value passed to parameter 'logits' " + _DTYPE.format("int32")),
    ("softmax_scalar", lambda: tf.nn.softmax(1.0), ValueError, "Shape must be at least rank 1 but is rank 0"),
    ("softmax_axis", lambda: tf.nn.softmax(_f(2, 3), axis=2), tf.errors.InvalidArgumentError,
     r"`dim` must be in the range \[-2, 2\) where 2 is the number of dimensions in the input. Received: dim=2"),
    ("l2_loss_int", lambda: tf.nn.l2_loss([1, 2]), TypeError,
     "Value passed to parameter 't' " + _DTYPE.format("int32")),
    ("bias_add_size", lambda: tf.nn.bias_add(_f(2, 3), [1.0, 2.0]), ValueError,
     "Dimensions must be equal, but are 3 and 2"),
    ("bias_add_rank1", lambda: tf.nn.bias_add(_f(3), [1.0, 2.0, 3.0]), ValueError,
     "Shape must be at least rank 2 but is rank 1"),
    ("bias_add_matrix_bias", lambda: tf.nn.bias_add(_f(2, 3), [[1.0, 2.0, 3.0]]), ValueError,
     "Shape must be rank 1 but is rank 2"),
    ("bias_add_nchw_rank", lambda: tf.nn.bias_add(_f(2, 3), [1.0, 2.0, 3.0], data_format="NC"), ValueError,
     "Shape must be at least rank 3 but is rank 2"),
    ("bias_add_format", lambda: tf.nn.bias_add(_f(2, 3), [1.0, 2.0, 3.0], data_format="NHCW"), ValueError,
     "`data_format` must be of the form `N...C` or `NC...`. Received: data_format=NHCW"),
    ("bias_add_dtype", lambda: tf.nn.bias_add(_f(2, 3), tf.constant([1, 2, 3])), ValueError,
     "bias: Tensor conversion requested dtype float32 for Tensor with dtype int32"),
    ("conv_rank", lambda: tf.nn.conv2d(_f(10, 10, 3), _f(5, 5, 3, 8), strides=[1, 1, 1, 1], padding="SAME"),
     ValueError, "Shape must be rank 4 but is rank 3"),
    ("conv_depth", lambda: tf.nn.conv2d(_f(1, 10, 10, 3), _f(5, 5, 4, 8), strides=[1, 1, 1, 1], padding="SAME"),
     ValueError, r"Depth of input \(3\) is not a multiple of input depth of filter \(4\)"),
    ("conv_too_big", lambda: tf.nn.conv2d(_f(1, 3, 3, 3), _f(5, 5, 3, 8), strides=[1, 1, 1, 1], padding="VALID"),
     ValueError, "Negative dimension size caused by subtracting 5 from 3"),
    ("conv_dilated_too_big", lambda: tf.nn.conv2d(_f(1, 7, 6, 4), _f(3, 4, 4, 6), strides=[1, 2, 2, 1],
                                                  padding="VALID", dilations=[1, 2, 2, 1]),
     ValueError, "Negative dimension size caused by subtracting 7 from 6"),
    ("conv_padding", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(1, 1, 3, 8), strides=1, padding="same"), ValueError,
     "Attr 'padding' of 'Conv2D' Op passed string 'same' not in: \"SAME\", \"VALID\", \"EXPLICIT\"."),
    ("conv_strides", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(1, 1, 3, 8), strides=[1, 1, 1], padding="SAME"),
     ValueError, r"strides should be of length 1, 2 or 4. Received: strides=\[1, 1, 1\] of length 3"),
    ("conv_explicit_batch", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(1, 1, 3, 8), strides=1,
                                                 padding=[[1, 1], [1, 2], [3, 4], [0, 0]]),
     ValueError, "Nonzero explicit padding in the batch or depth dimensions is not supported"),
    ("conv_dtypes", lambda: tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.float64), _f(1, 1, 1, 1), strides=1,
                                         padding="SAME"),
     TypeError, "Input 'filter' of 'Conv2D' Op has type float32 that does not match type float64 of argument 'input'."),
    ("xent_int", lambda: tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0, 1]], logits=[[1, 2]]), TypeError,
     "Value passed to parameter 'features' " + _DTYPE.format("int32")),
    ("xent_classes", lambda: tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0]], logits=_f(2, 3)),
     ValueError, "Dimensions must be equal, but are 3 and 2"),
    ("sparse_float_labels", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1.0], logits=_f(1, 3)),
     TypeError, "Value passed to parameter 'labels' " + _DTYPE.format("float32")),
    ("sparse_rank", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1, 0]], logits=_f(2, 3)),
     ValueError, "`labels.shape.rank` must equal `logits.shape.rank - 1`"),
    ("sparse_shape", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0, 2], logits=_f(2, 3)),
     ValueError, "`labels.shape` must equal `logits.shape` except for the last dimension"),
    ("sparse_scalar_logits", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=1, logits=2.0),
     ValueError, "`logits` cannot be a scalar"),
]


@pytest.mark.parametrize("build, error, message", [pytest.param(*r[1:], id=r[0]) for r in BUILD])
def test_build_time_error(build, error, message):
    with pytest.raises(error, match=message):
        build()


RUN = [
    ("floordiv_zero", lambda: _late([7]) // 0, "Integer division by zero"),
    ("mod_zero", lambda: _late([7]) % 0, "Integer division by zero"),
    ("realdiv_int_zero", lambda: tf.realdiv(_late([7]), 0), "Integer division by zero"),
    ("pow_negative", lambda: _late([2, 3]) ** -1, "Integers to negative integer powers are not allowed"),
    ("reduce_duplicate_axes", lambda: tf.reduce_sum(_f(2, 3, 4), axis=[1, -2]),
     "Invalid reduction arguments: Axes contains duplicate dimension: 1"),
    ("matmul_inner", lambda: tf.matmul(_late(np.ones((2, 3), np.float32)), _f(2, 3)),
     r"Matrix size-incompatible: In\[0\]: \[2, 3\], In\[1\]: \[2, 3\]"),
    ("range_delta_zero", lambda: tf.range(0, 5, _late(0)), "Requires delta != 0"),
    ("fill_negative", lambda: tf.fill(_late([-1, 2]), 1), "Dimension -1 must be >= 0"),
    ("reshape_two_unknown", lambda: tf.reshape(_late([1, 2, 3, 4]), _late([-1, -1])),
     "Only one input size may be -1, not both 0 and 1"),
    ("reshape_count", lambda: tf.reshape(_late([1, 2, 3]), [2]),
     "Input to reshape is a tensor with 3 values, but the requested shape has 2"),
    ("reshape_multiple", lambda: tf.reshape(_late([1, 2, 3]), [2, -1]),
     "Input to reshape is a tensor with 3 values, but the requested shape requires a multiple of 2"),
    ("reshape_negative", lambda: tf.reshape(_late([1, 2, 3]), _late([-2, 3])), "Size 0 must be non-negative, not -2"),
    ("transpose_duplicate", lambda: tf.transpose(_f(2, 3, 4), _late([1, 1, 0])), r"2 is missing from \{1,1,0\}."),
    ("transpose_size", lambda: tf.transpose(_late(np.ones((2, 3))), [1, 0, 2]),
     r"transpose expects a vector of size 2. But input\(1\) is a vector of size 3"),
    ("concat_dims", lambda: tf.concat([_late(np.ones((2, 3), np.float32)), _f(3, 3)], 1),
     r"ConcatOp : Dimension 0 in both shapes must be equal: shape\[0\] = \[2,3\] vs. shape\[1\] = \[3,3\]"),
    ("concat_ranks", lambda: tf.concat([_late(np.ones((2, 3), np.float32)), _f(3)], 0),
     r"ConcatOp : Ranks of all input tensors should match: shape\[0\] = \[2,3\] vs. shape\[1\] = \[3\]"),
    ("concat_axis", lambda: tf.concat([_f(2, 3), _f(2, 3)], _late(5)),
     r"ConcatOp : Expected concatenating dimensions in the range \[-2, 2\), but got 5"),
    ("stack_shapes", lambda: tf.stack([_late(np.ones(2, np.float32)), _f(3)]),
     r"Shapes of all inputs must match: values\[0\].shape = \[2\] != values\[1\].shape = \[3\]"),
    ("unstack_num", lambda: tf.unstack(tf.placeholder_with_default(_f(2, 3), [None, 3]), num=3)[0],
     r"Input shape axis 0 must equal 3, got shape \[2,3\]"),
    ("expand_dims_range", lambda: tf.expand_dims(_f(2, 3), _late(5)),
     "Tried to expand dim index 5 for tensor with 2 dimensions."),
    ("squeeze_not_one", lambda: tf.squeeze(tf.placeholder_with_default(_f(2, 1), [None, 1]), [0]),
     r"Can not squeeze dim\[0\], expected a dimension of 1, got 2"),
    ("slice_index", lambda: tf.placeholder_with_default(_f(2, 3), [None, 3])[5],
     "slice index 5 of dimension 0 out of bounds."),
    ("slice_negative", lambda: tf.placeholder_with_default(_f(2, 3), [None, None])[:, -4],
     "slice index -1 of dimension 1 out of bounds."),
    ("bias_add_size", lambda: tf.nn.bias_add(tf.placeholder_with_default(_f(2, 3), [None, None]), [1.0, 2.0]),
     r"Must provide as many biases as the last dimension of the input tensor: \[2\] vs. \[2,3\]"),
    ("conv_depth", lambda: tf.nn.conv2d(tf.placeholder_with_default(_f(1, 10, 10, 3), [None] * 4), _f(5, 5, 4, 8),
                                        strides=[1, 1, 1, 1], padding="SAME"),
     "input depth must be evenly divisible by filter depth: 3 vs 4"),
    ("conv_negative_size", lambda: tf.nn.conv2d(tf.placeholder_with_default(_f(1, 3, 3, 4), [None] * 4),
                                                _f(5, 5, 4, 8), strides=[1, 1, 1, 1], padding="VALID"),
     r"Computed output size would be negative: -1 \[input_size: 3, effective_filter_size: 5, stride: 1\]"),
    ("xent_broadcast", lambda: tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.placeholder_with_default(_f(2, 3), [None, None]), logits=_f(2, 4)),
     r"logits and labels must be broadcastable: logits_size=\[2,4\] labels_size=\[2,3\]"),
    ("sparse_label_range", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 5], logits=_f(2, 3)),
     r"Received a label value of 5 which is outside the valid range of \[0, 3\).  Label values: 1 5"),
    ("sparse_label_negative", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[-1, 0],
                                                                                       logits=_f(2, 3)),
     r"Received a label value of -1 which is outside the valid range of \[0, 3\).  Label values: -1 0"),
    ("sparse_batch", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.placeholder_with_default([1, 0, 1], [None]), logits=_f(2, 4)),
     r"logits and labels must have the same first dimension, got logits shape \[2,4\] and labels shape \[3\]"),
]


@pytest.mark.parametrize("build, message", [pytest.param(*r[1:], id=r[0]) for r in RUN])
def test_run_time_error_names_the_op(build, message):
    out = build()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message) as info:
            sess.run(out)
    failing = info.value.op
    assert failing is not None
    assert f"node {failing.name}" in str(info.value)
    assert failing is out.op or failing in _ancestors(out.op)


def _ancestors(op):
    seen, stack = set(), [op]
    while stack:
        for t in stack.pop().inputs:
            if t.op not in seen:
                seen.add(t.op)
                stack.append(t.op)
    return seen


def test_conv_strides_in_batch_dimension_are_unimplemented():
    out = tf.nn.conv2d(_f(1, 4, 4, 3), _f(1, 1, 3, 8), strides=[2, 1, 1, 1], padding="SAME")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnimplementedError, match="does not yet support strides in the batch"):
            sess.run(out)


def test_a_build_time_value_error_names_the_op():
    with pytest.raises(ValueError, match="Cannot reshape a tensor with 6 elements.*my_reshape.*Reshape"):
        tf.reshape(tf.range(6), [4], name="my_reshape")
