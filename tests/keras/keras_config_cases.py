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
}
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


def built_configs(tf):
    """``name -> layer.get_config()`` of each case, called in a graph (``tf`` in TF1 mode)."""
    configs = {}
    for name in [*INPUT_SHAPES, *MERGE_SHAPES, "input_layer", "lambda"]:
        with tf.Graph().as_default():
            layer = cases(tf.keras)[name]
            if name == "input_layer":
                pass
            elif name == "lambda":
                layer(tf.keras.Input((3,)))
            elif name in MERGE_SHAPES:
                layer([tf.keras.Input(MERGE_SHAPES[name]), tf.keras.Input(MERGE_SHAPES[name])])
            else:
                dtype = "int32" if name == "embedding" else "float32"
                layer(tf.keras.Input(INPUT_SHAPES[name], dtype=dtype))
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
    return made


def model_configs(tf):
    """``name -> model.to_json()`` of each of ``models``, each made in a graph of its own."""
    configs = {}
    for name in ("mlp", "cnn", "shared", "rnn"):
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
