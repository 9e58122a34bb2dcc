"""The ``tf.keras.backend`` graphs behind ``data/tf_keras_backend_golden.npz`` and ``.json``, run as
``keras_layer_cases.run_case`` runs its own (the same inputs, names, values, gradients): the neural-network
functions (activations, convolutions, pools, paddings, resizes, batch normalization) and the other tensor
functions (comparisons, ``batch_dot``, the learning-phase switches, random tensors and variables, focal cross
entropies, CTC)."""

import numpy as np


def _constants(tf, *shapes):
    rng = np.random.RandomState(5)
    return [tf.constant(rng.uniform(-1.0, 1.0, shape).astype(np.float32)) for shape in shapes]


def volume(tf, x):
    """The image input as a batch of 5-D volumes (``[2, 3, 2, 6, 3]``)."""
    return tf.reshape(x["img"], [2, 3, 2, 6, 3])


def backend_nn(tf, x):
    K = tf.keras.backend
    vec, seq, img = x["vec"], x["seq"], x["img"]
    vol = volume(tf, x)
    k1, k2, kt, k3, dw, pw, lk, bias, mean, var = _constants(
        tf, (2, 3, 4), (3, 3, 3, 2), (3, 3, 2, 3), (2, 2, 2, 3, 2), (3, 3, 3, 2), (1, 1, 6, 4), (3, 9, 4), (3,),
        (3,), (3,))
    first = tf.transpose(img, [0, 3, 1, 2])
    out = {"relu": K.relu(vec), "leaky": K.relu(vec, alpha=0.1), "capped": K.relu(vec, max_value=0.5),
           "relu6": K.relu(vec * 8.0, max_value=6), "full": K.relu(vec, alpha=0.2, max_value=0.6, threshold=0.1),
           "elu": K.elu(vec), "elu_half": K.elu(vec, 0.5), "softplus": K.softplus(vec), "softsign": K.softsign(vec),
           "hard_sigmoid": K.hard_sigmoid(vec * 4.0), "bias": K.bias_add(img, bias),
           "bias_first": K.bias_add(first, bias, data_format="channels_first"),
           "conv1d": K.conv1d(seq, k1, padding="causal"), "conv1d_dilated": K.conv1d(seq, k1, dilation_rate=2),
           "conv2d": K.conv2d(img, k2, strides=(2, 2), padding="same"),
           "conv2d_first": K.conv2d(first, k2, data_format="channels_first"),
           "conv2d_t": K.conv2d_transpose(img, kt, (2, 12, 12, 2), strides=(2, 2), padding="same"),
           "conv2d_t_none": K.conv2d_transpose(img, kt, (None, 8, 8, 2)),
           "conv3d": K.conv3d(vol, k3, padding="same"),
           "depthwise": K.depthwise_conv2d(img, dw, padding="same"),
           "separable": K.separable_conv2d(img, dw, pw, strides=(2, 2)),
           "max2d": K.pool2d(img, (2, 2), strides=(2, 2)),
           "avg2d": K.pool2d(first, (3, 3), padding="same", data_format="channels_first", pool_mode="avg"),
           "max3d": K.pool3d(vol, (1, 2, 2), strides=(1, 2, 2), pool_mode="max"),
           "local1d": K.local_conv1d(seq, lk, (3,), (2,)),
           "bn_img": K.batch_normalization(img, mean, tf.abs(var), bias, mean, epsilon=0.01),
           "bn_vec": K.batch_normalization(seq, mean, tf.abs(var), None, bias),
           "temporal": K.temporal_padding(seq, (2, 1)), "spatial2d": K.spatial_2d_padding(img, ((1, 0), (0, 2))),
           "spatial2d_first": K.spatial_2d_padding(first, data_format="channels_first"),
           "spatial3d": K.spatial_3d_padding(vol), "nearest": K.resize_images(img, 2, 3, "channels_last"),
           "bilinear": K.resize_images(img, 2, 2, "channels_last", interpolation="bilinear"),
           "nearest_first": K.resize_images(first, 2, 1, "channels_first"),
           "volumes": K.resize_volumes(vol, 2, 1, 2, "channels_last"), "repeat_elements": K.repeat_elements(seq, 2, 1),
           "repeat": K.repeat(vec, 3), "dropout": K.dropout(vec, 0.3, seed=5)}
    out["fused/y"], out["fused/mean"], out["fused/var"] = K.normalize_batch_in_training(img, mean, bias, [0, 1, 2],
                                                                                       epsilon=0.01)
    out["regular/y"], out["regular/mean"], out["regular/var"] = K.normalize_batch_in_training(seq, mean, bias, [0, 1])
    out["broadcast/y"], out["broadcast/mean"], out["broadcast/var"] = K.normalize_batch_in_training(
        first, mean, None, [0, 2, 3])
    return out, {}


def backend_ops(tf, x):
    K = tf.keras.backend
    vec, seq, img, ids = x["vec"], x["seq"], x["img"], x["ids"]
    vol = volume(tf, x)
    labels = tf.one_hot([1, 0, 4, 2], 5)
    y_pred = tf.nn.softmax(seq)
    with K.learning_phase_scope(1):
        scoped = K.in_train_phase(vec * 3.0, vec)
    decoded, log_prob = K.ctc_decode(y_pred, tf.constant([7, 5]))
    beams, beam_log_prob = K.ctc_decode(y_pred, tf.constant([7, 6]), greedy=False, beam_width=3, top_paths=2)
    out = {"all": K.cast(K.all(vec > -0.9, axis=1), "int32"), "any": K.cast(K.any(seq > 0.9, 1, True), "int32"),
           "arange": K.arange(5), "arange_float": K.arange(1, 7, 2, dtype="float32"), "arange_neg": K.arange(-3),
           "argmin": K.argmin(vec), "batch_dot": K.batch_dot(seq, seq, axes=(2, 2)),
           "batch_dot_vec": K.batch_dot(vec, vec, axes=1), "batch_dot_default": K.batch_dot(seq, tf.ones([2, 3, 4])),
           "batch_dot_4d": K.batch_dot(img, img, axes=(1, 2)), "batch_dot_5d": K.batch_dot(vol, seq[:, :2], (2, 1)),
           "batch_dot_mat": K.batch_dot(seq, vec[:2, :3], axes=(2, 1)), "batch_flatten": K.batch_flatten(img),
           "floatx": K.cast_to_floatx(ids), "cos": K.cos(vec), "sin": K.sin(vec), "round": K.round(vec * 3.0),
           "cumsum": K.cumsum(seq, 1), "cumprod": K.cumprod(vec, 1), "flatten": K.flatten(seq),
           "gather": K.gather(vec, [0, 2]), "greater": K.cast(K.greater(vec, 0.1), "int32"),
           "greater_equal": K.cast(K.greater_equal(vec, 0.1), "int32"), "less": K.cast(K.less(vec, 0.1), "int32"),
           "less_equal": K.cast(K.less_equal(vec, 0.1), "int32"),
           "not_equal": K.cast(K.not_equal(ids, 3), "int32"),
           "in_top_k": K.cast(K.in_top_k(vec, tf.constant([0, 1, 2, 3]), 2), "int32"),
           "one_hot": K.one_hot(ids, 10), "permuted": K.permute_dimensions(seq, (0, 2, 1)),
           "reverse": K.reverse(seq, 1), "reverse2": K.reverse(img, [1, 2]), "stack": K.stack([vec, vec * 2.0], 1),
           "std": K.std(seq, 1), "var": K.var(vec), "var_bool": K.var(vec > 0, 0), "tile": K.tile(vec, [2, 1]),
           "tile_int": K.tile(vec[0], 2), "map_fn": K.map_fn(lambda t: t * 2.0, vec),
           "foldl": K.foldl(lambda a, b: a * 0.5 + b, vec), "foldr": K.foldr(lambda a, b: a * 0.5 + b, vec),
           "switch": K.switch(vec > 0, vec, -vec), "switch_rows": K.switch(seq[:, :, 0] > 0, seq, seq * 3.0),
           "switch_scalar": K.switch(tf.reduce_sum(vec) > 0, lambda: vec, lambda: vec * 2.0),
           "train_phase": K.in_train_phase(vec * 2.0, vec), "test_phase": K.in_test_phase(vec * 2.0, lambda: vec),
           "train_given": K.in_train_phase(vec * 2.0, vec, training=0), "scoped": scoped,
           "after_scope": K.in_train_phase(vec * 4.0, vec),
           "printed": K.print_tensor(vec * 1.0, message="vec"),
           "bfce": K.binary_focal_crossentropy(tf.round(vec * 0.5 + 0.5), K.sigmoid(vec)),
           "bfce_logits": K.binary_focal_crossentropy(tf.round(vec * 0.5 + 0.5), vec, True, from_logits=True),
           "cfce": K.categorical_focal_crossentropy(labels, tf.nn.softmax(vec)),
           "cfce_logits": K.categorical_focal_crossentropy(labels, vec, gamma=1.0, from_logits=True),
           "ctc_cost": K.ctc_batch_cost(tf.constant([[1, 1], [1, 0]]), y_pred, tf.constant([[7], [6]]),
                                        tf.constant([[2], [1]])),
           "decoded": decoded[0], "log_prob": log_prob, "beam0": beams[0], "beam1": beams[1],
           "beam_log_prob": beam_log_prob, "bernoulli": K.random_bernoulli((3, 4), 0.5, seed=2),
           "truncated": K.truncated_normal((2, 3), 1.0, 2.0, seed=4)}
    variables = [K.random_normal_variable((2, 3), 0.5, 2.0, seed=6, name="normal"),
                 K.random_uniform_variable((3,), -1.0, 2.0, seed=7), K.eye(3, name="identity")]
    out["variables"] = tf.concat([tf.reshape(v, [-1]) for v in variables], 0) * 1.0
    return out, {"count_params": [int(K.count_params(v)) for v in variables], "backend": K.backend()}


CASES = {f.__name__: f for f in (backend_nn, backend_ops)}
