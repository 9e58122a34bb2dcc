"""Bad input to the convolutions, pools and dropout: TensorFlow's error classes and words, one row each.

Build-time rows raise while the graph is built; every message was checked against TensorFlow 2.21's
``tf.compat.v1`` in graph mode (the shape functions' messages go on with the node's summary, as
there). Run-time rows build from inputs whose shapes are unknown until run time and fail in
``Session.run`` with the class given, naming the op.
"""

import numpy as np
import pytest

import numflow as tf


def _f(*shape):
    return tf.ones(list(shape))


def _late(*shape):
    return tf.placeholder_with_default(tf.ones(list(shape)), [None] * len(shape))


def _node(name, op_type):
    """The end of a shape function's message: the node's summary, as TensorFlow writes it."""
    return rf" for '\{{\{{node {name}\}}\}} = {op_type}\[.*\]\(.*\)' with input shapes: .*\."

BUILD = [
    ("max_pool_rank", lambda: tf.nn.max_pool(_f(4, 4, 3), [1, 2, 2, 1], [1, 2, 2, 1], "SAME"), ValueError,
     "Shape must be rank 4 but is rank 3" + _node("MaxPool", "MaxPool")),
    ("max_pool_padding", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), 2, 2, "same"), ValueError,
     "Attr 'padding' of 'MaxPool' Op passed string 'same' not in: \"SAME\", \"VALID\", \"EXPLICIT\"."),
    ("max_pool_ksize_length", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), [1, 2, 2], 2, "SAME"), ValueError,
     r"ksize should be of length 1, 2 or 4. Received: ksize=\[1, 2, 2\] of length 3"),
    ("max_pool_ksize_zero", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), [1, 0, 2, 1], 2, "SAME"), ValueError,
     r"`ksize` cannot be zero. Received: ksize=\[1, 0, 2, 1\]"),
    ("max_pool_stride_zero", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), 2, [1, 0, 2, 1], "SAME"), ValueError,
     "Stride must be > 0, but got 0" + _node("MaxPool", "MaxPool")),
    ("max_pool_too_big", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), 5, 1, "VALID"), ValueError,
     "Negative dimension size caused by subtracting 5 from 4"),
    ("max_pool_format", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), 2, 2, "SAME", data_format="NHCW"), ValueError,
     "Attr 'data_format' of 'MaxPool' Op passed string 'NHCW' not in: \"NHWC\", \"NCHW\", \"NCHW_VECT_C\"."),
    ("max_pool_bool", lambda: tf.nn.max_pool(tf.ones([1, 4, 4, 3], tf.bool), 2, 2, "SAME"), TypeError,
     "Value passed to parameter 'input' has DataType bool not in list of allowed values"),
    ("max_pool_explicit_pairs", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), 2, 2, [[0, 0], [1, 1], [1, 1]]), ValueError,
     r"When padding is a list, it must be of size 4. Received: padding=\[\[0, 0\], \[1, 1\], \[1, 1\]\] of size 3"),
    ("max_pool_v2_rank", lambda: tf.nn.max_pool_v2(_f(4, 3), 2, 2, "SAME"), ValueError,
     r"`input.shape.rank` must be 3, 4 or 5. Received: input.shape=\(4, 3\) of rank 2."),
    ("max_pool3d_rank", lambda: tf.nn.max_pool3d(_f(1, 4, 4, 3), 2, 2, "SAME"), ValueError,
     "Shape must be rank 5 but is rank 4" + _node("MaxPool3D", "MaxPool3D")),
    ("avg_pool_padding", lambda: tf.nn.avg_pool(_f(1, 4, 4, 3), 2, 2, "FULL"), ValueError,
     "Attr 'padding' of 'AvgPool' Op passed string 'FULL' not in: \"SAME\", \"VALID\"."),
    ("avg_pool_int", lambda: tf.nn.avg_pool(tf.ones([1, 4, 4, 3], tf.int32), 2, 2, "SAME"), TypeError,
     "Value passed to parameter 'value' has DataType int32 not in list of allowed values: float16"),
    ("avg_pool_format", lambda: tf.nn.avg_pool(_f(1, 4, 4, 3), 2, 2, "SAME", data_format="HWNC"), ValueError,
     "Attr 'data_format' of 'AvgPool' Op passed string 'HWNC' not in: \"NHWC\", \"NCHW\"."),
    ("avg_pool_explicit", lambda: tf.nn.avg_pool(_f(1, 4, 4, 3), 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]),
     TypeError, r"Expected string for argument 'padding' not \[\[0, 0\], \[1, 1\], \[1, 1\], \[0, 0\]\]."),
    ("argmax_format", lambda: tf.nn.max_pool_with_argmax(_f(1, 4, 4, 3), 2, 2, "SAME", data_format="NCHW"),
     ValueError, "`data_format` values other  than 'NHWC' are not supported. Received: data_format=NCHW"),
    ("pool_type", lambda: tf.nn.pool(_f(1, 8, 8, 3), [2, 2], "MIN", "SAME"), ValueError,
     "2-D MIN pooling is not supported."),
    ("pool_dilated_same", lambda: tf.nn.pool(_f(1, 8, 8, 3), [2, 2], "AVG", "SAME", dilation_rate=[2, 2]),
     ValueError, "pooling with 'SAME' padding is not implemented for `dilation_rate` > 1"),
    ("conv2d_format", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(2, 2, 3, 4), 1, "SAME", data_format="NHCW"),
     ValueError, "Attr 'data_format' of 'Conv2D' Op passed string 'NHCW' not in: \"NHWC\", \"NCHW\"."),
    ("conv2d_filter_rank", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(2, 3, 4), 1, "SAME"), ValueError,
     "Shape must be rank 4 but is rank 3" + _node("Conv2D", "Conv2D")),
    ("conv2d_stride_zero", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(2, 2, 3, 4), [1, 0, 1, 1], "SAME"), ValueError,
     "Stride must be > 0, but got 0"),
    ("conv2d_dilation_zero", lambda: tf.nn.conv2d(_f(1, 4, 4, 3), _f(2, 2, 3, 4), 1, "SAME", dilations=[1, 0, 1, 1]),
     ValueError, "Dilation rate must be >= 1, but got 0"),
    ("conv1d_format", lambda: tf.nn.conv1d(_f(1, 4, 3), _f(2, 3, 4), 1, "SAME", data_format="NCHW_X"), ValueError,
     "`data_format` must be 'NWC' or 'NCW'. Received: data_format=NCHW_X"),
    ("conv1d_rank", lambda: tf.nn.conv1d(_f(4, 3), _f(2, 3, 4), 1, "SAME"), ValueError,
     "Shape must be rank 4 but is rank 3" + _node("conv1d", "Conv2D")),
    ("conv3d_format", lambda: tf.nn.conv3d(_f(1, 4, 4, 4, 3), _f(2, 2, 2, 3, 4), [1] * 5, "SAME", data_format="NHWC"),
     ValueError, "Attr 'data_format' of 'Conv3D' Op passed string 'NHWC' not in: \"NDHWC\", \"NCDHW\"."),
    ("conv3d_padding", lambda: tf.nn.conv3d(_f(1, 4, 4, 4, 3), _f(2, 2, 2, 3, 4), [1] * 5, "EXPLICIT"), ValueError,
     "Attr 'padding' of 'Conv3D' Op passed string 'EXPLICIT' not in: \"SAME\", \"VALID\"."),
    ("conv3d_strides", lambda: tf.nn.conv3d(_f(1, 4, 4, 4, 3), _f(2, 2, 2, 3, 4), [1] * 4, "SAME"), ValueError,
     "Attr 'strides' of 'Conv3D' Op passed list of length 4 less than minimum 5."),
    ("conv3d_depth", lambda: tf.nn.conv3d(_f(1, 4, 4, 4, 3), _f(2, 2, 2, 2, 4), [1] * 5, "SAME"), ValueError,
     r"Depth of input \(3\) is not a multiple of input depth of filter \(2\)"),
    ("transpose_depth", lambda: tf.nn.conv2d_transpose(_f(1, 4, 4, 3), _f(2, 2, 5, 2), [1, 8, 8, 5], 2, "SAME"),
     ValueError, "Dimensions must be equal, but are 3 and 2" + _node("conv2d_transpose", "Conv2DBackpropInput")),
    ("transpose_output_shape", lambda: tf.nn.conv2d_transpose(_f(1, 4, 4, 3), _f(2, 2, 5, 3), [8, 8, 5], 2, "SAME"),
     ValueError, "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: 3"),
    ("transpose_padding", lambda: tf.nn.conv2d_transpose(_f(1, 4, 4, 3), _f(2, 2, 5, 3), [1, 8, 8, 5], 2, "FULL"),
     ValueError, "Attr 'padding' of 'Conv2DBackpropInput' Op passed string 'FULL' not in"),
    ("depthwise_channels", lambda: tf.nn.depthwise_conv2d(_f(1, 4, 4, 3), _f(2, 2, 4, 2), [1] * 4, "SAME"),
     ValueError, "Dimensions must be equal, but are 3 and 4" + _node("depthwise", "DepthwiseConv2dNative")),
    ("depthwise_strides", lambda: tf.nn.depthwise_conv2d(_f(1, 4, 4, 3), _f(2, 2, 3, 2), [1, 2, 2], "SAME"),
     ValueError, "DepthwiseConv2D requires the stride attribute to contain 4 values, but got: 3"),
    ("separable_pointwise", lambda: tf.nn.separable_conv2d(_f(1, 4, 4, 3), _f(2, 2, 3, 2), _f(2, 1, 6, 8), [1] * 4,
                                                           "SAME"),
     ValueError, "Dimensions 2 and 1 are not compatible"),
    ("atrous_rate", lambda: tf.nn.atrous_conv2d(_f(1, 8, 8, 3), _f(2, 2, 3, 2), 0, "SAME"), ValueError,
     r"all values of `dilation_rate` must be positive. Received: dilation_rate=\[0 0\]"),
    ("atrous_padding", lambda: tf.nn.atrous_conv2d(_f(1, 8, 8, 3), _f(2, 2, 3, 2), 2, "same"), ValueError,
     "`padding` must be one of 'SAME' or 'VALID'. Received: padding=same"),
    ("convolution_rank", lambda: tf.nn.convolution(_f(1, 8, 8, 8, 8, 3), _f(2, 2, 2, 2, 3, 2), "SAME"), ValueError,
     "`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims=4."),
    ("convolution_dilated_stride", lambda: tf.nn.convolution(_f(1, 8, 8, 3), _f(2, 2, 3, 2), "SAME", strides=[2, 2],
                                                             dilation_rate=[2, 2]), ValueError,
     r"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=\[2 2\]"),
    ("dropout_rate_one", lambda: tf.nn.dropout(_f(2, 3), rate=1.0), ValueError,
     r"`rate` must be a scalar tensor or a float in the range \[0, 1\). Received: rate=1.0"),
    ("dropout_keep_zero", lambda: tf.nn.dropout(_f(2, 3), keep_prob=0.0), ValueError,
     r"`rate` must be a scalar tensor or a float in the range \[0, 1\). Received: rate=1.0"),
    ("dropout_int", lambda: tf.nn.dropout(tf.ones([2, 3], tf.int32), rate=0.5), ValueError,
     "`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=<dtype: 'int32'>"),
    ("dropout_no_rate", lambda: tf.nn.dropout(_f(2, 3)), ValueError, "`rate` must be provided. Received: rate=None"),
    ("dropout_both", lambda: tf.nn.dropout(_f(2, 3), keep_prob=0.5, rate=0.5), ValueError,
     "Cannot specify both 'keep_prob' and 'rate'."),
    ("dropout_keep_string", lambda: tf.nn.dropout(_f(2, 3), keep_prob="a"), ValueError,
     "`keep_prob` must be a floating point number or Tensor. Received: keep_prob=a"),
    ("dropout_rate_vector", lambda: tf.nn.dropout(_f(2, 3), rate=tf.constant([0.5, 0.5])), ValueError,
     r"Shape \(2,\) must have rank 0"),
    ("dropout_rate_float64", lambda: tf.nn.dropout(_f(2, 3), rate=tf.constant(0.5, tf.float64)), ValueError,
     "`x.dtype` must be compatible with `rate.dtype`. Received: x.dtype=<dtype: 'float32'> and "
     "rate.dtype=<dtype: 'float64'>"),
    ("dropout_rate_list", lambda: tf.nn.dropout(_f(2, 3), rate=[0.5]), ValueError,
     r"`rate` must be a scalar or scalar tensor. Received: rate=\[0.5\]"),
    ("dropout_noise_shape", lambda: tf.nn.dropout(_f(2, 3), rate=0.5, noise_shape=[2, 2]), ValueError,
     "Dimensions must be equal, but are 2 and 3" + _node("dropout/SelectV2", "SelectV2")),
]


@pytest.mark.parametrize("build, error, message", [pytest.param(*r[1:], id=r[0]) for r in BUILD])
def test_build_time_error(build, error, message):
    with tf.Graph().as_default():
        with pytest.raises(error, match=message):
            build()


RUN = [
    ("max_pool_ksize_negative", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), [1, -1, 2, 1], 2, "SAME"),
     tf.errors.InvalidArgumentError,
     "Sliding window ksize must be positive. The specified or inferred ksize is: 1,-1,2,1"),
    ("max_pool_batch_window", lambda: tf.nn.max_pool(_f(1, 4, 4, 3), [2, 2, 2, 1], 2, "SAME"),
     tf.errors.UnimplementedError, "Pooling is not yet supported on the batch dimension."),
    ("max_pool_too_big", lambda: tf.nn.max_pool(_late(1, 4, 4, 3), 5, 1, "VALID"), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: 0 \[input_size: 4, effective_filter_size: 5, stride: 1\]"),
    ("conv2d_dilated_batch", lambda: tf.nn.conv2d(_f(1, 8, 8, 3), _f(2, 2, 3, 4), 1, "SAME", dilations=[2, 1, 1, 1]),
     tf.errors.InvalidArgumentError,
     "Current implementation does not yet support dilations in the batch and depth dimensions."),
    ("conv3d_depth", lambda: tf.nn.conv3d(_late(1, 4, 4, 4, 3), _f(2, 2, 2, 2, 4), [1] * 5, "SAME"),
     tf.errors.InvalidArgumentError, "input depth must be evenly divisible by filter depth: 3 vs 2"),
    ("transpose_filter_depth", lambda: tf.nn.conv2d_transpose(_f(1, 4, 4, 3), _f(2, 2, 5, 3), [1, 8, 8, 4], 2,
                                                              "SAME"),
     tf.errors.InvalidArgumentError, "input depth must be evenly divisible by filter depth: 4 vs 5"),
    ("transpose_output_size", lambda: tf.nn.conv2d_transpose(_late(1, 4, 4, 3), _f(2, 2, 5, 3), [1, 5, 8, 5], 2,
                                                             "SAME"),
     tf.errors.InvalidArgumentError,
     r"Conv2DBackpropInput: Size of out_backprop doesn't match computed: actual = \[1,4,4,3\], computed = \[1,3,4,3\]"),
    ("depthwise_depth", lambda: tf.nn.depthwise_conv2d_native(_late(1, 4, 4, 3), _f(2, 2, 4, 2), [1] * 4, "SAME"),
     tf.errors.InvalidArgumentError, "input and filter must have the same depth: 3 vs 4"),
]


@pytest.mark.parametrize("build, error, message", [pytest.param(*r[1:], id=r[0]) for r in RUN])
def test_run_time_error_names_the_op(build, error, message):
    with tf.Graph().as_default():
        out = build()
        with tf.Session() as sess, pytest.raises(error, match=message) as info:
            sess.run(out)
    assert info.value.op is not None and f"node {info.value.op.name}" in str(info.value)


def test_dilated_convolution_of_unknown_spatial_sizes_pads_at_run_time():
    # SpaceToBatchND's paddings come from ops when the spatial sizes are unknown at build time.
    x = np.random.RandomState(0).randn(1, 5, 7, 3).astype(np.float32)
    w = np.random.RandomState(1).randn(2, 2, 3, 2).astype(np.float32)
    with tf.Graph().as_default():
        fed = tf.placeholder(tf.float32, [None, None, None, 3])
        out = tf.nn.atrous_conv2d(fed, w, 2, "SAME")
        want = tf.nn.conv2d(x, w, 1, "SAME", dilations=2)
        with tf.Session() as sess:
            got, expected = sess.run([out, want], {fed: x})
    assert got.shape == (1, 5, 7, 2)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
