"""The ``tf.keras.layers`` graphs behind ``data/tf_keras_layers_golden.npz`` and ``.json``, written once for both
engines (TensorFlow 2.21's compat.v1 with tf-keras when the golden files are made, numflow in the tests).

Each case takes the ``tf`` module and the input placeholders (``vec``, ``seq``, ``img``, ``ids``), calls Keras
layers on them as functions, and returns the tensors to fetch and the layer facts to compare. ``run_case``
gives back, besides those, the names of the global and trainable variables, of ``UPDATE_OPS`` and
``REGULARIZATION_LOSSES``, each fetch's tensor name and static shape; the initial values of the variables;
the fetches' values with Keras' learning phase fed 1 (``.../train``) and 0 (``.../eval``), the gradients of
a loss of the float fetches with respect to every trainable variable, and the variables after one run of
the layers' ``updates``.
"""

import numpy as np

SHAPES = {"vec": (4, 5), "seq": (2, 7, 3), "img": (2, 6, 6, 3)}


def inputs():
    rng = np.random.RandomState(21)
    made = {name: rng.uniform(-1.0, 1.0, shape).astype(np.float32) for name, shape in SHAPES.items()}
    made["ids"] = rng.randint(0, 10, (3, 4)).astype(np.int32)
    return made


def _names(layer):
    return {"name": layer.name, "weights": [v.name for v in layer.weights],
            "trainable": [v.name for v in layer.trainable_weights],
            "non_trainable": [v.name for v in layer.non_trainable_weights],
            "losses": [t.name for t in layer.losses], "updates": len(layer.updates),
            "shapes": [list(w.shape) for w in layer.get_weights()]}


def dense(tf, x):
    tf.set_random_seed(7)
    keras = tf.keras
    layer = keras.layers.Dense(6, activation="relu", kernel_regularizer=keras.regularizers.l2(0.01),
                               bias_initializer="ones")
    h = layer(x["vec"])
    again = layer(x["vec"] * 2.0)
    out = keras.layers.Dense(3, use_bias=False, kernel_initializer=keras.initializers.he_normal(),
                             activation=keras.activations.tanh)(h)
    seq = keras.layers.Dense(2, name="proj", bias_regularizer=keras.regularizers.l1_l2(0.1, 0.2))(x["seq"])
    probs = keras.layers.Activation("softmax")(out)
    with tf.variable_scope("outer"):
        inner = keras.layers.Dense(2, kernel_initializer="random_normal")(h)
    return ({"h": h, "again": again, "out": out, "seq": seq, "probs": probs, "inner": inner},
            {"dense": _names(layer)})


def convolutions(tf, x):
    tf.set_random_seed(8)
    layers = tf.keras.layers
    conv1 = layers.Conv1D(4, 3, padding="same", activation="relu")(x["seq"])
    pool1 = layers.MaxPooling1D(2)(conv1)
    conv = layers.Conv2D(5, (3, 3), strides=2, padding="same")
    img = conv(x["img"])
    valid = layers.Conv2D(2, 3, kernel_initializer="he_uniform", bias_initializer="glorot_uniform")(x["img"])
    maxed = layers.MaxPooling2D()(valid)
    averaged = layers.AveragePooling2D(pool_size=(2, 2), strides=1, padding="same")(x["img"])
    up = layers.Conv2DTranspose(3, 3, strides=2, padding="same")(img)
    up_valid = layers.Conv2DTranspose(2, (2, 3), strides=(1, 2))(img)
    gap = layers.GlobalAveragePooling2D()(up)
    gmp = layers.GlobalMaxPooling2D()(x["img"])
    flat = layers.Flatten()(maxed)
    return ({"conv1": conv1, "pool1": pool1, "img": img, "valid": valid, "maxed": maxed, "averaged": averaged,
             "up": up, "up_valid": up_valid, "gap": gap, "gmp": gmp, "flat": flat}, {"conv": _names(conv)})


def normalization(tf, x):
    tf.set_random_seed(9)
    layers = tf.keras.layers
    bn = layers.BatchNormalization()
    fused = bn(x["img"])
    flat_layer = layers.BatchNormalization(momentum=0.9, epsilon=0.01)
    flat = flat_layer(x["vec"])
    forced_layer = layers.BatchNormalization(center=False)
    forced = forced_layer(x["vec"], training=True)
    x["updates"] += bn.updates + flat_layer.updates + forced_layer.updates
    frozen = layers.BatchNormalization(scale=False)(x["img"], training=False)
    dropped = layers.Dropout(0.4, seed=3)(x["vec"])
    kept = layers.Dropout(0.5, seed=4)(x["vec"], training=False)
    always = layers.Dropout(0.25, seed=5)(x["seq"], training=True)
    norm = layers.LayerNormalization()(x["seq"])
    return ({"fused": fused, "flat": flat, "forced": forced, "frozen": frozen, "dropped": dropped, "kept": kept,
             "always": always, "norm": norm}, {"bn": _names(bn)})


def structure(tf, x):
    tf.set_random_seed(10)
    keras = tf.keras
    layers = keras.layers
    embedded = layers.Embedding(10, 3)(x["ids"])
    first = keras.Input(shape=(5,), name="first")
    second = keras.Input(shape=(5,))
    batch = layers.InputLayer(input_shape=(2, 3)).output
    a = layers.Dense(5)(first)
    added = layers.Add()([a, second])
    multiplied = layers.Multiply()([added, second, x["vec"]])
    joined = layers.Concatenate()([multiplied, added])
    joined0 = layers.Concatenate(axis=1)([x["seq"], x["seq"]])
    reshaped = layers.Reshape((2, -1))(joined)
    squared = layers.Lambda(lambda t: t * t)(reshaped)
    return ({"embedded": embedded, "added": added, "multiplied": multiplied, "joined": joined, "joined0": joined0,
             "reshaped": reshaped, "squared": squared, "batch": batch},
            {"inputs": [first.name, second.name, list(first.shape.as_list()), batch.name]})


def losses(tf, x):
    keras = tf.keras
    probs = tf.nn.softmax(x["vec"])
    labels = tf.one_hot([0, 3, 4, 1], 5)
    sparse = tf.constant([0, 3, 4, 1])
    targets = x["vec"] * 0.5 + 0.25
    sigmoid = tf.sigmoid(x["vec"])
    clipped = tf.clip_by_value(sigmoid, 0.0, 1.0)  # not a Sigmoid op: computed from the probabilities
    out = {"mse": keras.losses.mean_squared_error(targets, x["vec"]), "mae": keras.losses.mae(targets, x["vec"]),
           "mape": keras.losses.MAPE(targets, x["vec"]), "msle": keras.losses.msle(targets, sigmoid),
           "cce": keras.losses.categorical_crossentropy(labels, probs),
           "cce_smooth": keras.losses.categorical_crossentropy(labels, probs * 1.0, label_smoothing=0.1),
           "cce_logits": keras.losses.categorical_crossentropy(labels, x["vec"], from_logits=True),
           "scce": keras.losses.sparse_categorical_crossentropy(sparse, probs),
           "scce_column": keras.losses.sparse_categorical_crossentropy(tf.reshape(sparse, [4, 1]), probs + 0.0),
           "bce": keras.losses.binary_crossentropy(tf.round(targets), sigmoid),
           "bce_probs": keras.losses.binary_crossentropy(tf.round(targets), clipped),
           "hinge": keras.losses.hinge(tf.round(targets), x["vec"]),
           "kld": keras.losses.kld(sigmoid, tf.sigmoid(targets)),
           "MSE": keras.losses.MeanSquaredError()(targets, x["vec"]),
           "CCE": keras.losses.CategoricalCrossentropy()(labels, probs),
           "CCE_sum": keras.losses.CategoricalCrossentropy(reduction="sum")(labels, probs),
           "SCCE": keras.losses.SparseCategoricalCrossentropy(from_logits=True)(sparse, x["vec"]),
           "BCE": keras.losses.BinaryCrossentropy()(tf.round(targets), sigmoid, sample_weight=[1.0, 0.0, 2.0, 1.0]),
           "MAE": keras.losses.MeanAbsoluteError(reduction="none")(targets, x["vec"]),
           "by_name": keras.losses.get("categorical_crossentropy")(labels, probs)}
    return out, {}


def backend_functions(tf, x):
    K = tf.keras.backend
    vec, seq = x["vec"], x["seq"]
    probs = K.softmax(vec)
    out = {"mean": K.mean(vec, axis=1), "mean_bool": K.mean(K.equal(K.argmax(vec), 2)), "sum": K.sum(seq, 1, True),
           "max": K.max(vec), "sqrt": K.sqrt(vec), "clip": K.clip(vec, 0.5, 0.2), "square": K.square(vec),
           "dot": K.dot(vec, K.transpose(vec)), "dot3": K.dot(seq, K.reshape(vec[:3, :2], (3, 2))),
           "concat": K.concatenate([vec, vec * 2.0]), "normalized": K.l2_normalize(vec, axis=1),
           "cce": K.categorical_crossentropy(tf.one_hot([1, 0, 4, 2], 5), probs),
           "cce_logits": K.categorical_crossentropy(tf.one_hot([1, 0, 4, 2], 5), vec, from_logits=True),
           "scce": K.sparse_categorical_crossentropy(tf.constant([[1], [0], [4], [2]]), probs * 1.0),
           "bce": K.binary_crossentropy(tf.round(vec * 0.5 + 0.5), K.sigmoid(vec)),
           "bce_probs": K.binary_crossentropy(tf.round(vec * 0.5 + 0.5), K.clip(K.sigmoid(vec), 0.0, 1.0)),
           "pow": K.pow(K.abs(vec), 3), "expanded": K.expand_dims(K.exp(vec), 1), "log": K.log(K.abs(vec) + 1.0)}
    return out, {}


CASES = {f.__name__: f for f in (dense, convolutions, normalization, structure, losses, backend_functions)}


def assert_as_golden(case, values, golden, how):
    """``run_case``'s ``values`` of ``case`` as the ``golden`` npz's (``<case>/<result>``), to float rounding; ``how``
    (the regenerate command) ends each failure message."""
    want = {k[len(case) + 1:]: golden[k] for k in golden.files if k.startswith(case + "/")}
    assert sorted(values) == sorted(want), how
    for key, value in values.items():
        atol = 2e-5 if key.startswith("d/") else 2e-6
        scale = max(1.0, float(np.abs(want[key]).max(initial=0.0)))
        np.testing.assert_allclose(value, want[key], rtol=2e-5, atol=atol * scale, err_msg=f"{case}/{key}; {how}")


def run_case(tf, name, a, cases=CASES):
    """``(names, {result: value})`` of case ``name`` (of ``cases``) in ``tf``, as the module docstring says."""
    with tf.Graph().as_default():
        x = {k: tf.placeholder(tf.float32, SHAPES[k], name=k) for k in SHAPES}
        x["ids"] = tf.placeholder(tf.int32, [None, 4], name="ids")
        x["updates"] = []
        fetches, info = cases[name](tf, x)
        graph = tf.get_default_graph()
        extra = {}
        for op in graph.get_operations():  # Keras' Input placeholders: fed with the vector inputs
            if op.type == "Placeholder" and op.name not in x and op.name != "keras_learning_phase":
                shape = op.outputs[0].shape.as_list()
                extra[op.outputs[0]] = np.resize(a["vec"], [4 if d is None else d for d in shape])
        variables = tf.global_variables()
        trainable = tf.trainable_variables()
        names = {"global": [v.name for v in variables], "trainable": [v.name for v in trainable],
                 "update_ops": [op.name for op in tf.get_collection(tf.GraphKeys.UPDATE_OPS)],
                 "regularization_losses": [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)],
                 "fetches": {k: [t.name, t.shape.as_list()] for k, t in fetches.items()}, "layers": info}
        floats = [t for t in fetches.values() if t.dtype.base_dtype == tf.float32]
        loss = tf.add_n([tf.reduce_sum(t + tf.square(t) * (k + 1.0)) for k, t in enumerate(floats)])
        grads = tf.gradients(loss, trainable + [x["vec"]])
        grads = {f"d/{v.op.name}": tf.convert_to_tensor(g) for v, g in zip(trainable + [x["vec"]], grads)
                 if g is not None}
        phase = tf.keras.backend.learning_phase()
        updates = x["updates"]
        feed = {**{x[k]: a[k] for k in (*SHAPES, "ids")}, **extra}
        results = {}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            results.update({f"init/{v.op.name}": value for v, value in zip(variables, sess.run(variables))})
            for label, flag in (("train", 1), ("eval", 0)):
                values = sess.run(fetches, {**feed, phase: flag})
                results.update({f"{k}/{label}": v for k, v in values.items()})
            results.update(sess.run(grads, {**feed, phase: 1}))
            if updates:
                sess.run(updates, {**feed, phase: 1})
            results.update({f"after/{v.op.name}": value for v, value in zip(variables, sess.run(variables))})
    return names, {k: np.asarray(v) for k, v in results.items()}

