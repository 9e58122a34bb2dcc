"""The ``tf.keras.layers`` graphs behind ``data/tf_keras_more_layers_golden.npz`` and ``.json``, run as
``keras_layer_cases.run_case`` runs its own (the same inputs, names, values, gradients, updates): the reshaping,
activation and noise layers, the depthwise, transposed and locally connected convolutions, the 3-D pools, ``Dot``,
the attention layers and the preprocessing layers."""

from keras_backend_cases import volume
from keras_layer_cases import _names


def reshaping(tf, x):
    layers = tf.keras.layers
    seq, img, vec = x["seq"], x["img"], x["vec"]
    vol = volume(tf, x)
    first = tf.transpose(img, [0, 3, 1, 2])
    regularized = layers.ActivityRegularization(l1=0.01, l2=0.02)
    out = {"pad1": layers.ZeroPadding1D(2)(seq), "pad1_pair": layers.ZeroPadding1D((0, 3))(seq),
           "pad2": layers.ZeroPadding2D(((1, 0), (2, 1)))(img), "pad2_int": layers.ZeroPadding2D(1)(img),
           "pad2_first": layers.ZeroPadding2D((1, 2), data_format="channels_first")(first),
           "pad3": layers.ZeroPadding3D((1, 0, 2))(vol), "crop1": layers.Cropping1D((1, 2))(seq),
           "crop1_end": layers.Cropping1D((2, 0))(seq), "crop2": layers.Cropping2D(((1, 2), (0, 1)))(img),
           "crop2_int": layers.Cropping2D(1)(img), "crop2_first": layers.Cropping2D(((0, 2), (1, 0)),
                                                                                     "channels_first")(first),
           "crop3": layers.Cropping3D(((1, 0), (0, 1), (2, 2)))(vol), "crop3_int": layers.Cropping3D(0)(vol),
           "up1": layers.UpSampling1D(3)(seq), "up2": layers.UpSampling2D((2, 3))(img),
           "up2_bilinear": layers.UpSampling2D(2, interpolation="bilinear")(img),
           "up2_first": layers.UpSampling2D(2, data_format="channels_first")(first),
           "up3": layers.UpSampling3D((1, 2, 1))(vol), "repeat": layers.RepeatVector(3)(vec),
           "permute": layers.Permute((2, 1))(seq), "permute3": layers.Permute((3, 1, 2))(img),
           "identity": layers.Identity()(seq), "regularized": regularized(vec)}
    return out, {"regularized": _names(regularized)}


def activations(tf, x):
    tf.set_random_seed(11)
    layers = tf.keras.layers
    vec, seq, img = x["vec"], x["seq"], x["img"]
    prelu = layers.PReLU(alpha_initializer=tf.keras.initializers.constant(0.25))
    shared = layers.PReLU(alpha_initializer="random_uniform", shared_axes=[1, 2],
                          alpha_regularizer=tf.keras.regularizers.l2(0.1))
    out = {"leaky": layers.LeakyReLU()(vec), "leaky_small": layers.LeakyReLU(0.1)(vec),
           "prelu": prelu(seq), "prelu_shared": shared(img), "prelu_zeros": layers.PReLU()(vec),
           "elu": layers.ELU()(vec), "elu_half": layers.ELU(0.5)(vec), "relu": layers.ReLU()(vec),
           "relu6": layers.ReLU(6.0)(vec * 8.0), "relu_full": layers.ReLU(0.6, 0.1, 0.05)(vec),
           "relu_slope": layers.ReLU(negative_slope=0.2)(vec), "softmax": layers.Softmax()(vec),
           "softmax_axis": layers.Softmax(axis=1)(seq), "softmax_axes": layers.Softmax(axis=(1, 2))(seq),
           "softmax_mask": layers.Softmax()(vec, mask=tf.cast(vec > 0, tf.float32)),
           "thresholded": layers.ThresholdedReLU(0.3)(vec)}
    return out, {"prelu": _names(prelu), "shared": _names(shared)}


def noise(tf, x):
    tf.set_random_seed(12)
    layers = tf.keras.layers
    vec, seq, img = x["vec"], x["seq"], x["img"]
    vol = volume(tf, x)
    noisy = layers.GaussianNoise(0.3, seed=4)
    out = {"noise": noisy(vec), "noise_again": noisy(vec), "noise_unseeded": layers.GaussianNoise(0.5)(seq),
           "noise_training": layers.GaussianNoise(0.2)(vec, training=True),
           "noise_inference": layers.GaussianNoise(0.2)(vec, training=False),
           "gaussian_dropout": layers.GaussianDropout(0.3, seed=5)(vec),
           "gaussian_dropout_off": layers.GaussianDropout(0.0)(vec),
           "alpha_dropout": layers.AlphaDropout(0.2, seed=6)(seq),
           "alpha_dropout_shape": layers.AlphaDropout(0.4, noise_shape=(2, 1, 3))(seq, training=True),
           "spatial1d": layers.SpatialDropout1D(0.5, seed=7)(seq),
           "spatial2d": layers.SpatialDropout2D(0.4)(img),
           "spatial2d_first": layers.SpatialDropout2D(0.4, data_format="channels_first", seed=8)(img),
           "spatial3d": layers.SpatialDropout3D(0.3, seed=9)(vol, training=True)}
    return out, {"noise": _names(noisy)}


def convolutions(tf, x):
    tf.set_random_seed(13)
    layers = tf.keras.layers
    vec, seq, img = x["vec"], x["seq"], x["img"]
    vol = volume(tf, x)
    depthwise = layers.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=2, activation="relu",
                                       depthwise_regularizer=tf.keras.regularizers.l2(0.01))
    transpose = layers.Conv1DTranspose(4, 3, strides=2, padding="same")
    local = layers.LocallyConnected1D(3, 3, kernel_regularizer=tf.keras.regularizers.l1(0.1))
    out = {"depthwise": depthwise(img),
           "depthwise_valid": layers.DepthwiseConv2D((2, 3), use_bias=False, bias_initializer="ones")(img),
           "depthwise_dilated": layers.DepthwiseConv2D(2, dilation_rate=2, bias_initializer="ones")(img),
           "depthwise_first": layers.DepthwiseConv2D(3, data_format="channels_first")(img),
           "depthwise1d": layers.DepthwiseConv1D(3, depth_multiplier=2, bias_initializer="ones")(seq),
           "depthwise1d_same": layers.DepthwiseConv1D(2, strides=2, padding="same")(seq),
           "transpose": transpose(seq), "transpose_valid": layers.Conv1DTranspose(2, 2, strides=3)(seq),
           "transpose_padded": layers.Conv1DTranspose(3, 3, strides=2, output_padding=1, activation="tanh")(seq),
           "conv3d": layers.Convolution3D(2, (1, 2, 2))(vol), "gap3d": layers.GlobalAveragePooling3D()(vol),
           "gmp3d": layers.GlobalMaxPool3D(keepdims=True)(vol),
           "gap3d_first": layers.GlobalAvgPool3D("channels_first")(vol),
           "max3d": layers.MaxPool3D((1, 2, 2))(vol), "avg3d": layers.AvgPool3D(1, padding="same")(vol),
           "dot": layers.Dot(axes=1)([vec, vec * 2.0]),
           "dot_normalized": layers.Dot(1, normalize=True)([vec, vec + 1.0]),
           "dot_seq": layers.Dot(axes=(2, 2))([seq, seq]), "dot_fn": layers.dot([seq, seq[:, :, :2]], axes=1),
           "local1d": local(seq), "local1d_strided": layers.LocallyConnected1D(2, 2, strides=2, use_bias=False)(seq),
           "local2d": layers.LocallyConnected2D(2, (3, 2), strides=(2, 1), activation="tanh")(img),
           "local2d_first": layers.LocallyConnected2D(3, 2, data_format="channels_first",
                                                      bias_initializer="ones")(img)}
    return out, {"depthwise": _names(depthwise), "transpose": _names(transpose), "local": _names(local)}


def attention(tf, x):
    tf.set_random_seed(14)
    layers = tf.keras.layers
    seq = x["seq"]
    query = seq[:, :4]
    value_mask = tf.constant([[True] * 7, [True] * 5 + [False] * 2])
    scaled = layers.Attention(use_scale=True, score_mode="concat")
    additive = layers.AdditiveAttention()
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=2)
    einsum = layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4), bias_axes="de", activation="relu")
    attended, scores = layers.Attention()([query, seq], return_attention_scores=True)
    mha_out, mha_scores = mha(query, seq, return_attention_scores=True)
    out = {"attended": attended, "scores": scores, "scaled": scaled([query, seq, seq * 2.0]),
           "masked": layers.Attention()([query, seq], mask=[tf.constant([[True, False, True, True]] * 2),
                                                             value_mask]),
           "causal": layers.Attention(dropout=0.3, seed=2)([seq, seq], use_causal_mask=True),
           "additive": additive([query, seq]), "additive_plain": layers.AdditiveAttention(use_scale=False)([seq, seq]),
           "mha": mha_out, "mha_scores": mha_scores,
           "mha_masked": layers.MultiHeadAttention(1, 2, output_shape=5, use_bias=False)(
               seq, seq, attention_mask=tf.constant([[[True] * 7] * 7, [[True] * 4 + [False] * 3] * 7])),
           "mha_causal": layers.MultiHeadAttention(2, 2, dropout=0.5, kernel_initializer="he_normal")(
               seq, seq * 0.5, seq, use_causal_mask=True),
           "mha_axes": layers.MultiHeadAttention(2, 2, attention_axes=(1, 2))(x["img"], x["img"]),
           "einsum": einsum(seq), "einsum_elided": layers.EinsumDense("...b,bc->...c", 4, bias_axes="c")(seq)}
    return out, {"scaled": _names(scaled), "additive": _names(additive), "mha": _names(mha),
                 "einsum": _names(einsum)}


def preprocessing(tf, x):
    layers = tf.keras.layers
    vec, img = x["vec"], x["img"]
    any_batch = tf.placeholder_with_default(img, [None, 6, 6, 3])  # a batch size known only at run time
    normalization = layers.Normalization(mean=[0.5, -0.25, 0.0, 1.0, 2.0], variance=[1.0, 4.0, 0.25, 9.0, 0.0])
    adapted = layers.Normalization(axis=None)
    out = {"rescaled": layers.Rescaling(1.0 / 255, offset=-1.0)(img * 255.0),
           "rescaled_ints": layers.Rescaling(0.5)(x["ids"]),
           "resized": layers.Resizing(4, 5)(img), "resized_nearest": layers.Resizing(9, 3, "nearest")(img),
           "resized_bicubic": layers.Resizing(3, 4, "bicubic")(img[0]),
           "resized_crop": layers.Resizing(4, 2, crop_to_aspect_ratio=True)(any_batch),
           "cropped": layers.CenterCrop(4, 3)(any_batch), "cropped_odd": layers.CenterCrop(3, 5)(any_batch),
           "cropped_up": layers.CenterCrop(8, 4)(any_batch), "normalized": normalization(vec),
           "inverted": layers.Normalization(axis=(1, 3), mean=0.5, variance=4.0, invert=True)(img),
           "normalized_weights": adapted(vec),
           "bins": layers.Discretization(bin_boundaries=[-0.5, 0.0, 0.5])(vec),
           "bins_hot": layers.Discretization([0.0, 0.25], output_mode="one_hot")(vec[:, 0]),
           "hashed": layers.Hashing(7)(tf.as_string(x["ids"])),
           "hashed_ints": layers.Hashing(5, mask_value=3)(x["ids"]),
           "hashed_salted": layers.Hashing(6, salt=[7, 9], output_mode="multi_hot")(x["ids"][:, :2]),
           "multi_hot": layers.CategoryEncoding(10)(x["ids"]),
           "counted": layers.CategoryEncoding(10, output_mode="count")(x["ids"]),
           "weighted": layers.CategoryEncoding(10, output_mode="count")(
               x["ids"], count_weights=tf.reshape(tf.range(12.0), [3, 4]) * 0.25),
           "one_hot": layers.CategoryEncoding(12, output_mode="one_hot")(x["ids"][:, 0])}
    return out, {"adapted": _names(adapted)}


def features(tf, x):
    tf.set_random_seed(15)
    fc = tf.feature_column
    price = fc.numeric_column("price", shape=(2,))
    cat = fc.categorical_column_with_identity("cat", 10)
    embedded = fc.embedding_column(cat, 3)
    age = fc.bucketized_column(fc.numeric_column("age"), [-0.5, 0.0, 0.5])
    layer = tf.keras.layers.DenseFeatures([price, embedded, fc.indicator_column(cat), age])
    data = {"price": x["vec"][:3, :2], "cat": x["ids"][:, :1], "age": x["vec"][:3, 4:]}
    outputs = {}
    out = {"features": layer(data, cols_to_output_tensors=outputs), "embedded": outputs[embedded],
           "one": tf.keras.layers.DenseFeatures(price)({"price": x["vec"][:, 1:3]})}
    return out, {"layer": _names(layer)}


CASES = {f.__name__: f for f in (reshaping, activations, noise, convolutions, attention, preprocessing, features)}
