"""Layers made as real programs make them, for ``get_config``/``from_config`` against tf-keras' configs
(``data/make_tf_keras_config_golden.py`` writes ``data/tf_keras_config_golden.json`` from the same cases).

Each case is ``name -> function(keras)`` returning a layer; the layer is called on an input of
``INPUT_SHAPES[name]`` (batch excluded) before its config is read, as a model's layers are.
"""

INPUT_SHAPES = {
    "dense": (4,), "dense_full": (4,), "activation": (4,), "dropout": (4,), "flatten": (2, 3),
    "reshape": (6,), "conv1d": (8, 3), "conv2d": (8, 8, 3), "conv3d": (4, 4, 4, 2), "conv2d_transpose": (4, 4, 3),
    "conv1d_transpose": (8, 3), "conv3d_transpose": (4, 4, 4, 2), "max_pool2d": (8, 8, 3), "avg_pool1d": (8, 3),
    "max_pool3d": (4, 4, 4, 2), "global_avg2d": (4, 4, 3), "global_max1d": (8, 3), "batch_norm": (4, 3),
    "layer_norm": (4, 3), "embedding": (5,), "simple_rnn": (5, 3), "lstm": (5, 3), "gru": (5, 3),
    "bidirectional": (5, 3), "time_distributed": (5, 3), "zero_padding2d": (4, 4, 3), "up_sampling2d": (4, 4, 3),
    "leaky_relu": (4,), "rnn_stacked": (5, 3), "rnn_simple_cell": (5, 3),
    "einsum_dense": (4,), "multi_head_attention": (3, 4), "rescaling": (4, 4, 3), "resizing": (4, 4, 3),
    "center_crop": (4, 4, 3), "normalization": (3,), "discretization": (3,), "hashing": (3,),
    "category_encoding": (3,), "gaussian_noise": (4,), "gaussian_dropout": (4,), "alpha_dropout": (4,),
    "spatial_dropout1d": (5, 3), "spatial_dropout2d": (4, 4, 3), "spatial_dropout3d": (2, 2, 2, 3),
    "activity_regularization": (4,), "cropping1d": (6, 3), "cropping2d": (6, 6, 3), "cropping3d": (4, 4, 4, 2),
    "zero_padding1d": (4, 3), "zero_padding3d": (2, 2, 2, 3), "up_sampling1d": (4, 3), "up_sampling3d": (2, 2, 2, 3),
    "repeat_vector": (4,), "permute": (2, 3), "identity": (4,), "relu": (4,), "elu": (4,), "prelu": (4, 3),
    "softmax": (4,), "thresholded_relu": (4,), "depthwise_conv1d": (8, 3), "depthwise_conv2d": (6, 6, 3),
    "separable_conv1d": (8, 3), "separable_conv2d": (6, 6, 3), "locally_connected1d": (6, 3),
    "locally_connected2d": (5, 5, 2), "global_avg3d": (2, 2, 2, 3), "global_max3d": (2, 2, 2, 3), "masking": (5, 3),
}
# Inputs of int32 rather than float32.
INT_INPUTS = {"embedding", "hashing", "category_encoding"}
# Layers called on [query, value].
PAIR_SHAPES = {"attention": (3, 4), "additive_attention": (3, 4)}
MERGE_SHAPES = {"dot": (4,), "concatenate": (4,), "add": (4,), "multiply": (4,), "average": (4,), "maximum": (4,),
                "subtract": (4,), "minimum": (4,)}


def cases(keras):
    """``name -> layer`` made with ``keras`` (``tf.keras`` of either library)."""
    L = keras.layers
    return {
        "dense": L.Dense(3, name="d"),
        "dense_full": L.Dense(3, activation="relu", use_bias=False, kernel_initializer="he_normal",
                              kernel_regularizer=keras.regularizers.l2(0.01),
                              bias_constraint=keras.constraints.max_norm(2.0), name="d2"),
        "activation": L.Activation("tanh"),
        "dropout": L.Dropout(0.25, seed=3),
        "flatten": L.Flatten(),
        "reshape": L.Reshape((2, 3)),
        "conv1d": L.Conv1D(4, 3, padding="same", activation="relu"),
        "conv2d": L.Conv2D(4, (3, 3), strides=2, dilation_rate=1, name="c2"),
        "conv3d": L.Conv3D(2, 2),
        "conv2d_transpose": L.Conv2DTranspose(2, 3, strides=2, padding="same"),
        "conv1d_transpose": L.Conv1DTranspose(2, 3),
        "conv3d_transpose": L.Conv3DTranspose(2, 2),
        "max_pool2d": L.MaxPooling2D(),
        "avg_pool1d": L.AveragePooling1D(pool_size=2, strides=1, padding="same"),
        "max_pool3d": L.MaxPool3D(2),
        "global_avg2d": L.GlobalAveragePooling2D(),
        "global_max1d": L.GlobalMaxPooling1D(keepdims=True),
        "batch_norm": L.BatchNormalization(momentum=0.9, epsilon=1e-5),
        "layer_norm": L.LayerNormalization(),
        "embedding": L.Embedding(10, 3, mask_zero=True),
        "simple_rnn": L.SimpleRNN(3, return_sequences=True),
        "lstm": L.LSTM(3, dropout=0.1),
        "gru": L.GRU(3, reset_after=True, return_state=True),
        "bidirectional": L.Bidirectional(L.LSTM(2, return_sequences=True), merge_mode="sum"),
        "time_distributed": L.TimeDistributed(L.Dense(2)),
        "zero_padding2d": L.ZeroPadding2D(((1, 2), (0, 1))),
        "up_sampling2d": L.UpSampling2D(2, interpolation="bilinear"),
        "leaky_relu": L.LeakyReLU(0.2),
        "rnn_stacked": L.RNN([L.LSTMCell(2), L.GRUCell(3)]),
        "rnn_simple_cell": L.RNN(L.SimpleRNNCell(2, use_bias=False), return_sequences=True),
        "einsum_dense": L.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c", activation="relu"),
        "multi_head_attention": L.MultiHeadAttention(2, 3, dropout=0.1, kernel_initializer="he_normal"),
        "attention": L.Attention(use_scale=True, score_mode="concat", dropout=0.2),
        "additive_attention": L.AdditiveAttention(use_scale=False),
        "rescaling": L.Rescaling(1 / 255.0, offset=-1.0),
        "resizing": L.Resizing(6, 5, interpolation="nearest", crop_to_aspect_ratio=True),
        "center_crop": L.CenterCrop(2, 3),
        "normalization": L.Normalization(mean=[1.0, 2.0, 3.0], variance=[1.0, 4.0, 9.0]),
        "discretization": L.Discretization(bin_boundaries=[0.0, 1.0, 2.5]),
        "hashing": L.Hashing(8, salt=7),
        "category_encoding": L.CategoryEncoding(5, output_mode="count"),
        "gaussian_noise": L.GaussianNoise(0.5, seed=2),
        "gaussian_dropout": L.GaussianDropout(0.3),
        "alpha_dropout": L.AlphaDropout(0.2, seed=1),
        "spatial_dropout1d": L.SpatialDropout1D(0.2),
        "spatial_dropout2d": L.SpatialDropout2D(0.3, data_format="channels_last"),
        "spatial_dropout3d": L.SpatialDropout3D(0.1),
        "activity_regularization": L.ActivityRegularization(l1=0.01, l2=0.02),
        "cropping1d": L.Cropping1D((1, 2)),
        "cropping2d": L.Cropping2D(((1, 0), (2, 1))),
        "cropping3d": L.Cropping3D(1),
        "zero_padding1d": L.ZeroPadding1D(2),
        "zero_padding3d": L.ZeroPadding3D((1, 0, 2)),
        "up_sampling1d": L.UpSampling1D(3),
        "up_sampling3d": L.UpSampling3D((1, 2, 2)),
        "repeat_vector": L.RepeatVector(3),
        "permute": L.Permute((2, 1)),
        "identity": L.Identity(),
        "relu": L.ReLU(max_value=6.0, negative_slope=0.1, threshold=0.5),
        "elu": L.ELU(0.5),
        "prelu": L.PReLU(alpha_initializer="ones", shared_axes=[1]),
        "softmax": L.Softmax(axis=1),
        "thresholded_relu": L.ThresholdedReLU(0.5),
        "depthwise_conv1d": L.DepthwiseConv1D(3, depth_multiplier=2, padding="same"),
        "depthwise_conv2d": L.DepthwiseConv2D(3, strides=2, activation="relu"),
        "separable_conv1d": L.SeparableConv1D(4, 3, depth_multiplier=2),
        "separable_conv2d": L.SeparableConv2D(4, 3, padding="same", pointwise_initializer="he_normal"),
        "locally_connected1d": L.LocallyConnected1D(2, 3),
        "locally_connected2d": L.LocallyConnected2D(2, 2, strides=2),
        "global_avg3d": L.GlobalAveragePooling3D(),
        "global_max3d": L.GlobalMaxPooling3D(keepdims=True),
        "masking": L.Masking(mask_value=-1.0),
        "input_layer": L.InputLayer(input_shape=(3, 5), batch_size=2, dtype="int32", name="ids"),
        "lambda": L.Lambda(lambda x: x * 2.0),
        "dot": L.Dot(axes=1, normalize=True),
        "concatenate": L.Concatenate(axis=1),
        "add": L.Add(),
        "multiply": L.Multiply(),
        "average": L.Average(),
        "maximum": L.Maximum(),
        "minimum": L.Minimum(),
        "subtract": L.Subtract(),
    }


def call_case(keras, name, layer):
    """``layer`` (case ``name``) called on Keras inputs of its case's shapes (the input layer is not called)."""
    if name == "input_layer":
        return None
    if name == "lambda":
        return layer(keras.Input((3,)))
    if name in MERGE_SHAPES or name in PAIR_SHAPES:
        shape = {**MERGE_SHAPES, **PAIR_SHAPES}[name]
        return layer([keras.Input(shape), keras.Input(shape)])
    if name == "multi_head_attention":
        return layer(keras.Input(INPUT_SHAPES[name]), keras.Input(INPUT_SHAPES[name]))
    return layer(keras.Input(INPUT_SHAPES[name], dtype="int32" if name in INT_INPUTS else "float32"))


def built_configs(tf):
    """``name -> layer.get_config()`` of each case, called in a graph (``tf`` in TF1 mode)."""
    configs = {}
    for name in [*INPUT_SHAPES, *MERGE_SHAPES, *PAIR_SHAPES, "input_layer", "lambda"]:
        with tf.Graph().as_default():
            layer = cases(tf.keras)[name]
            call_case(tf.keras, name, layer)
            configs[name] = layer.get_config()
    return configs


def models(keras):
    """``name -> model`` of the kinds real programs save: Sequential stacks (with an input shape), and functional
    models with shared layers, several inputs and outputs, recurrent layers."""
    L = keras.layers
    made = {"mlp": keras.Sequential([L.Dense(3, activation="relu", input_shape=(4,)), L.Dropout(0.5), L.Dense(2)],
                                    name="mlp"),
            "cnn": keras.Sequential([L.Conv2D(4, 3, padding="same", activation="relu", input_shape=(8, 8, 1)),
                                     L.BatchNormalization(), L.MaxPooling2D(), L.Flatten(), L.Dense(3)])}
    a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    shared = L.Dense(3, name="shared")
    x = L.Concatenate()([shared(a), shared(b)])
    made["shared"] = keras.Model([a, b], [L.Dense(1, name="o1")(x), L.Dense(2, name="o2")(L.add([x, x]))],
                                 name="two_heads")
    ids = keras.Input((5,), dtype="int32")
    h = L.Bidirectional(L.LSTM(3, return_sequences=True))(L.Embedding(10, 4)(ids))
    made["rnn"] = keras.Model(ids, L.Dense(2, activation="softmax")(L.GlobalMaxPooling1D()(L.GRU(3,
                              return_sequences=True)(h))))
    steps = keras.Input((6, 3))
    h = L.PReLU()(L.SeparableConv1D(4, 3, padding="same")(L.GaussianNoise(0.1)(L.Rescaling(0.5)(steps))))
    h = L.Attention(use_scale=True)([h, L.EinsumDense("abc,cd->abd", (6, 4))(h)])
    h = L.SpatialDropout1D(0.2)(L.UpSampling1D(2)(L.Cropping1D((1, 0))(L.DepthwiseConv1D(2)(h))))
    made["mixed"] = keras.Model(steps, L.ELU()(L.Flatten()(L.LocallyConnected1D(2, 3, strides=2)(h))))
    return made


def model_configs(tf):
    """``name -> model.to_json()`` of each of ``models``, each made in a graph of its own."""
    configs = {}
    for name in ("mlp", "cnn", "shared", "rnn", "mixed"):
        with tf.Graph().as_default():
            configs[name] = models(tf.keras)[name].to_json()
    return configs


def scale_layer(keras):
    """A custom layer class (``inputs * factor``) with a config, known to deserialization only through
    ``custom_objects``."""

    class Scale(keras.layers.Layer):
        def __init__(self, factor=1.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, inputs):
            return inputs * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    return Scale
