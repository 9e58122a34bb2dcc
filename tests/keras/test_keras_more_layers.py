"""The reshaping, activation and noise layers' arguments, static shapes and errors as TensorFlow 2.21's compat.v1
with tf-keras gives them (facts checked against it by hand; their values, names and gradients are checked against
TensorFlow's goldens in ``test_keras_layers_golden.py``)."""

import numpy as np
import pytest

import numflow as tf

L = tf.keras.layers


def test_static_output_shapes():
    assert L.UpSampling2D(2).compute_output_shape((None, 3, 4, 2)).as_list() == [None, 6, 8, 2]
    assert L.Cropping3D(1).compute_output_shape((None, 3, 4, 5, 2)).as_list() == [None, 1, 2, 3, 2]
    assert L.Permute((2, 1)).compute_output_shape((None, 3, 4)).as_list() == [None, 4, 3]
    assert L.ZeroPadding1D(1).compute_output_shape((None, None, 4)).as_list() == [None, None, 4]
    assert L.RepeatVector(3).compute_output_shape((None, 4)).as_list() == [None, 3, 4]
    x = tf.placeholder(tf.float32, [None, None, 5, 2])
    assert L.ZeroPadding2D(((1, 2), (0, 1)))(x).shape.as_list() == [None, None, 6, 2]
    assert L.UpSampling2D((2, 3))(x).shape.as_list() == [None, None, None, 2]  # a run-time size, as TensorFlow


@pytest.mark.parametrize(("make", "error", "message"), [
    (lambda: L.ReLU(max_value=-1), ValueError, "max_value of a ReLU layer cannot be a negative value. Received: -1"),
    (lambda: L.ReLU(negative_slope=-1), ValueError, "negative_slope of a ReLU layer cannot be a negative value."),
    (lambda: L.ThresholdedReLU(-1), ValueError, "The theta value of a Thresholded ReLU layer should be >=0."),
    (lambda: L.LeakyReLU(None), ValueError, "The alpha value of a Leaky ReLU layer cannot be None, Expecting a float."),
    (lambda: L.Permute((1, 3)), ValueError, r"must be consecutive and start from 1. Received dims=\(1, 3\)"),
    (lambda: L.ZeroPadding2D((1, 2, 3)), ValueError, r"`padding` should have two elements. Received: \(1, 2, 3\)."),
    (lambda: L.ZeroPadding2D(((1, 2, 3), 1)), ValueError,
     r"The `1st entry of padding` argument must be a tuple of 2 integers. Received: \(1, 2, 3\)"),
    (lambda: L.Cropping1D((3, 4))(tf.zeros([2, 7, 3])), ValueError,
     r"cropping parameter of Cropping layer must be greater than the input shape. Received: inputs.shape=\(2, 7, "
     r"3\), and cropping=\(3, 4\)"),
    (lambda: L.Cropping2D("a"), ValueError, "`cropping` should have two elements. Received: a."),
    (lambda: L.UpSampling2D(interpolation="x"), NotImplementedError, "Value not recognized for `interpolation`: x."),
    (lambda: L.SpatialDropout2D(0.5, data_format="x"), ValueError,
     '`data_format` must be "channels_last" or "channels_first". Received: data_format=x.'),
    (lambda: L.RepeatVector(2)(tf.zeros([2, 3, 4])), ValueError,
     'Input 0 of layer "repeat_vector" is incompatible with the layer: expected ndim=2, found ndim=3.'),
    (lambda: L.RepeatVector(2.0), TypeError, "Expected an integer value for `n`, got <class 'float'>."),
])
def test_bad_arguments_raise_as_tensorflow(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_attention_dot_and_depthwise_shapes_and_errors():
    assert L.MultiHeadAttention(2, 3).compute_output_shape((None, 5, 4), (None, 6, 4)).as_list() == [None, 5, 4]
    assert L.MultiHeadAttention(2, 3, output_shape=7).compute_output_shape((None, 5, 4), (None, 6, 4)).as_list() == [
        None, 5, 7]
    assert L.Dot(axes=(2, 2)).compute_output_shape([(None, 3, 4), (None, 5, 4)]).as_list() == [None, 3, 5]
    assert L.Dot(1).compute_output_shape([(None, 4), (None, 4)]).as_list() == [None, 1]
    q = tf.zeros([2, 3, 4])
    for make, error, message in [
        (lambda: L.Attention()(q), ValueError,
         r"Attention layer must be called on a list of inputs, namely \[query, value\] or \[query, value, key\]."),
        (lambda: L.Attention()([q]), ValueError, "Attention layer accepts inputs list of length 2 or 3, .* "
                                                  "Received length: 1."),
        (lambda: L.Attention(score_mode="x"), ValueError, r'Received: score_mode=x. Acceptable values are: \["dot", '),
        (lambda: L.EinsumDense("ab->b", 3)(tf.zeros([2, 3])), ValueError, "Invalid einsum equation 'ab->b'."),
        (lambda: L.Dot(axes="a"), TypeError, "Invalid type for argument `axes`: it should be a list or an int."),
        (lambda: L.Dot(axes=(1, 2, 3)), ValueError, "Invalid format for argument `axes`: it should contain two"),
        (lambda: L.Dot(axes=1)([tf.zeros([2, 3]), tf.zeros([2, 4])]), ValueError,
         r"Incompatible input shapes: axis values 3 \(at axis 1\) != 4 \(at axis 1\). Full input shapes: \(2, 3\), "
         r"\(2, 4\)"),
        (lambda: L.DepthwiseConv2D(3)(tf.zeros([2, 5, 5])), ValueError,
         'Input 0 of layer "depthwise_conv2d" is incompatible with the layer: expected min_ndim=4, found ndim=3.'),
    ]:
        with pytest.raises(error, match=message):
            make()


def test_normalization_adapts_to_the_moments_of_numpy_data():
    # TensorFlow 2's numbers (TensorFlow 1.x mode refuses to adapt): the population mean and variance over every
    # axis but ``axis``.
    data = np.array([[1.0, 10.0], [3.0, 14.0], [8.0, 12.0]], np.float32)
    layer = L.Normalization()
    layer.adapt(data)
    out = layer(tf.constant([[4.0, 12.0]]))
    mean, variance, count = tf.keras.backend.batch_get_value([layer.adapt_mean, layer.adapt_variance, layer.count])
    np.testing.assert_allclose(mean, [4.0, 12.0], rtol=1e-6)
    np.testing.assert_allclose(variance, [26.0 / 3.0, 8.0 / 3.0], rtol=1e-6)
    assert count == 3 and [v.name for v in layer.weights] == ["normalization/mean:0", "normalization/variance:0",
                                                              "normalization/count:0"]
    np.testing.assert_allclose(tf.keras.backend.eval(out), [[0.0, 0.0]], atol=1e-6)
    with pytest.raises(ValueError, match="Cannot adapt a `Normalization` layer built from a given `mean`"):
        L.Normalization(mean=1.0, variance=2.0).adapt(data)


@pytest.mark.parametrize(("make", "error", "message"), [
    (lambda: L.Normalization(mean=1.0), ValueError,
     "When setting values directly, both `mean` and `variance` must be set. Got mean: 1.0 and variance: None"),
    (lambda: L.Hashing(0), ValueError, "The `num_bins` for `Hashing` cannot be `None` or non-positive values."),
    (lambda: L.Hashing(3, salt="a"), ValueError, "The `salt` argument for `Hashing` can only be a tuple of size 2"),
    (lambda: L.CategoryEncoding(), ValueError, "num_tokens must be set to use this layer."),
    (lambda: L.CategoryEncoding(0), ValueError, r"`num_tokens` must be >= 1. Received: num_tokens=0."),
    (lambda: L.CategoryEncoding(3, output_mode="multi_hot")(tf.constant([[1]]), count_weights=tf.constant([[1.0]])),
     ValueError, "`count_weights` is not used when `output_mode` is not `'count'`."),
    (lambda: L.Discretization(), NotImplementedError, "adapting to `num_bins` is not implemented"),
])
def test_preprocessing_arguments_raise_as_tensorflow(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_category_encoding_checks_its_inputs_when_run():
    out = L.CategoryEncoding(3)(tf.constant([[0, 5]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input values must be in the range 0 <= values < "
                                                             "num_tokens with num_tokens=3"):
        tf.keras.backend.eval(out)


def test_dense_features_arguments_raise_as_tensorflow():
    fc = tf.feature_column
    with pytest.raises(ValueError, match="Items of feature_columns must be a <class 'tensorflow.python.feature_column."
                                         "feature_column_v2.DenseColumn'>. You can wrap a categorical column"):
        L.DenseFeatures([fc.categorical_column_with_identity("cat", 10)])
    with pytest.raises(ValueError, match="feature_columns must not be empty."):
        L.DenseFeatures([])
    with pytest.raises(ValueError, match="We expected a dictionary here. Instead we got: "):
        L.DenseFeatures([fc.numeric_column("a")])(tf.zeros([2, 1]))


def test_a_layer_made_of_layers_is_one_layer_of_a_functional_model():
    # Names as TensorFlow 2.21's tf-keras lists them for the same model.
    x = tf.keras.Input((4, 8))
    attended = tf.keras.layers.MultiHeadAttention(2, 4, name="mha")(x, x)
    model = tf.keras.Model(x, tf.keras.layers.Dense(1)(tf.keras.layers.Flatten()(attended)))
    assert [layer.name for layer in model.layers] == ["input_1", "mha", "flatten", "dense"]
    assert [w.name for w in model.trainable_weights] == [
        f"mha/{part}/{kind}:0" for part in ("query", "key", "value", "attention_output") for kind in ("kernel", "bias")
    ] + ["dense/kernel:0", "dense/bias:0"]
    model.compile("sgd", "mse")
    before = model.get_weights()
    rng = np.random.default_rng(0)
    model.fit(rng.standard_normal((8, 4, 8)).astype(np.float32), rng.standard_normal((8, 1)).astype(np.float32),
              epochs=1, verbose=0)
    assert all(not np.array_equal(a, b) for a, b in zip(before, model.get_weights()))  # every weight trained
