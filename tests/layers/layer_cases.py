"""The ``tf.layers`` graphs behind ``data/tf_layers_golden.npz`` and ``.json``, written once for both engines.

Each case takes the ``tf`` module (TensorFlow 2.21's compat.v1 with its legacy Keras layers when the golden
files are made, numflow in the tests) and the inputs (placeholders ``vec``, ``seq``, ``img``, ``vol`` and
the bool ``is_training``), builds layers, and returns the tensors to fetch and the layer facts to compare
(names of layers, scopes and weights). ``run_case`` gives back, besides those:

- the names: global, trainable and moving-average variables, ``UPDATE_OPS`` and ``REGULARIZATION_LOSSES``,
  each fetch's tensor name and static shape, and every op of the graph;
- the initial values of the variables (TensorFlow's seeds, so numflow's must be the same bits);
- the fetches' values with ``is_training`` True (``.../train``) and False (``.../eval``), the gradients
  of a loss of the fetches with respect to every trainable variable and to the inputs (``d/...``), and
  every variable after one run of ``UPDATE_OPS`` (``after/...``).
"""

import numpy as np

SHAPES = {"vec": (4, 5), "seq": (2, 7, 3), "img": (2, 6, 6, 3), "vol": (2, 4, 5, 4, 2)}


def inputs():
    rng = np.random.RandomState(12)
    return {name: rng.uniform(-1.0, 1.0, shape).astype(np.float32) for name, shape in SHAPES.items()}


def _names(layer):
    return {"name": layer.name, "scope": layer.scope_name, "weights": [v.name for v in layer.weights],
            "trainable": [v.name for v in layer.trainable_weights],
            "non_trainable": [v.name for v in layer.non_trainable_weights],
            "updates": [u.name for u in layer.updates], "losses": len(layer.losses)}


def dense(tf, x):
    tf.set_random_seed(7)
    reg = lambda w: 0.01 * tf.nn.l2_loss(w)  # noqa: E731
    h = tf.layers.dense(x["vec"], 6, activation=tf.nn.relu, kernel_regularizer=reg,
                        bias_initializer=tf.ones_initializer())
    h = tf.layers.dense(h, 4, activation="tanh", use_bias=False, activity_regularizer=lambda a: tf.reduce_sum(a * a),
                        kernel_initializer=tf.truncated_normal_initializer(stddev=0.3))
    seq = tf.layers.dense(x["seq"], 2, name="seq_proj", bias_regularizer=reg,
                          bias_initializer=tf.constant_initializer(0.5))
    layer = tf.layers.Dense(3, kernel_initializer="he_normal", name="head")
    out = layer(h)
    again = layer(h * 2.0)
    total = tf.losses.get_regularization_loss()
    return {"h": h, "seq": seq, "out": out, "again": again, "reg": total}, {"head": _names(layer)}


def reuse(tf, x):
    tf.set_random_seed(8)
    v = x["vec"]
    a = tf.layers.dense(v, 3, name="shared")
    b = tf.layers.dense(v * 2.0, 3, name="shared", reuse=True)
    with tf.variable_scope("model"):
        c = tf.layers.dense(v, 2)
        d = tf.layers.dense(v, 2)
    with tf.variable_scope("model", reuse=True):
        e = tf.layers.dense(v, 2, name="dense")
    with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
        f = tf.layers.dense(v, 2, name="fc")
        g = tf.layers.dense(v + 1.0, 2, name="fc")
    frozen = tf.layers.Dense(2, trainable=False)
    h = frozen(v)
    with tf.variable_scope("init", initializer=tf.random_normal_initializer(stddev=0.5)):
        i = tf.layers.dense(v, 2)
    with tf.name_scope("block"):
        j = tf.layers.dense(v, 2)

    def scaled_getter(getter, name, *args, **kwargs):
        return getter(name, *args, **kwargs) * 0.5

    with tf.variable_scope("custom", custom_getter=scaled_getter):
        k = tf.layers.dense(v, 2)
    unnamed = [tf.layers.Dense(1).name, tf.layers.Conv2D(1, 1).name, tf.layers.Dense(1).name]
    return ({"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g, "h": h, "i": i, "j": j, "k": k},
            {"frozen": _names(frozen), "unnamed": unnamed})


def conv1d(tf, x):
    tf.set_random_seed(9)
    s = x["seq"]
    out = {"valid": tf.layers.conv1d(s, 4, 3),
           "causal": tf.layers.conv1d(s, 2, 3, padding="causal", dilation_rate=2, activation=tf.nn.relu),
           "strided": tf.layers.conv1d(s, 3, 2, strides=2, padding="same"),
           "sep": tf.layers.separable_conv1d(s, 4, 3, depth_multiplier=2, padding="same"),
           "sep_causal": tf.layers.separable_conv1d(s, 2, 2, padding="causal", dilation_rate=2)}
    return out, {}


def conv2d(tf, x):
    tf.set_random_seed(10)
    img = x["img"]
    layer = tf.layers.Conv2D(4, (3, 2), name="c2", kernel_regularizer=lambda w: tf.reduce_sum(tf.abs(w)))
    out = {"valid": layer(img),
           "same": tf.layers.conv2d(img, 5, 3, strides=2, padding="SAME", activation=tf.nn.relu),
           "dilated": tf.layers.conv2d(img, 2, 3, dilation_rate=2, padding="same", use_bias=False),
           "sep": tf.layers.separable_conv2d(img, 4, 3, depth_multiplier=2, padding="same", strides=2),
           "transpose": tf.layers.conv2d_transpose(img, 3, 3, strides=2, padding="same"),
           "transpose_valid": tf.layers.conv2d_transpose(img, 2, (2, 3), strides=(2, 1), activation=tf.nn.relu),
           "transpose_first": tf.layers.conv2d_transpose(tf.transpose(img, [0, 3, 1, 2]), 2, 3, strides=2,
                                                         data_format="channels_first")}
    return out, {"c2": _names(layer)}


def conv3d(tf, x):
    tf.set_random_seed(11)
    vol = x["vol"]
    out = {"valid": tf.layers.conv3d(vol, 3, 2),
           "same": tf.layers.conv3d(vol, 2, (3, 2, 3), strides=(1, 2, 1), padding="same"),
           "transpose": tf.layers.conv3d_transpose(vol, 2, 2, strides=2),
           "transpose_same": tf.layers.conv3d_transpose(vol, 3, 3, padding="same")}
    return out, {}


def pooling(tf, x):
    s, img, vol = x["seq"], x["img"], x["vol"]
    img_first = tf.transpose(img, [0, 3, 1, 2])
    out = {"max1": tf.layers.max_pooling1d(s, 2, 2), "avg1": tf.layers.average_pooling1d(s, 3, 2, padding="same"),
           "max1_first": tf.layers.max_pooling1d(tf.transpose(s, [0, 2, 1]), 2, 1, data_format="channels_first"),
           "max2": tf.layers.max_pooling2d(img, 2, 2), "avg2": tf.layers.average_pooling2d(img, 3, 2, padding="same"),
           "max2_named": tf.layers.MaxPooling2D(2, 1, name="mp")(img),
           "max3": tf.layers.max_pooling3d(vol, 2, 2), "avg3": tf.layers.average_pooling3d(vol, (2, 3, 2), 1),
           "avg3_first": tf.layers.average_pooling3d(tf.transpose(vol, [0, 4, 1, 2, 3]), 2, 2, padding="same",
                                                     data_format="channels_first"),
           "flat": tf.layers.flatten(img), "flat_first": tf.layers.flatten(img_first, data_format="channels_first"),
           "flat_seq": tf.layers.Flatten()(s)}
    return out, {}


def dropout(tf, x):
    tf.set_random_seed(12)
    img = x["img"]
    layer = tf.layers.Dropout(0.4, seed=3)
    out = {"switch": tf.layers.dropout(img, rate=0.3, training=x["is_training"]),
           "on": tf.layers.dropout(x["vec"], 0.5, seed=5, training=True),
           "off": tf.layers.dropout(x["vec"], 0.5, training=False),
           "noise": tf.layers.dropout(img, 0.5, noise_shape=[None, 1, 1, 3], training=x["is_training"], seed=2),
           "layer1": layer(x["vec"], training=True), "layer2": layer(x["vec"], training=True),
           "zero": tf.layers.dropout(x["vec"], 0.0, training=True)}
    return out, {}


def batch_norm(tf, x):
    tf.set_random_seed(13)
    img, vec, training = x["img"], x["vec"], x["is_training"]
    out = {"fused": tf.layers.batch_normalization(img, training=training, momentum=0.9),
           "unfused": tf.layers.batch_normalization(vec, training=training, epsilon=0.01),
           "train": tf.layers.batch_normalization(img, training=True, fused=False, name="bn_train"),
           "train_fused": tf.layers.batch_normalization(img, training=True, center=False),
           "eval": tf.layers.batch_normalization(img, training=False, scale=False),
           "first": tf.layers.batch_normalization(tf.transpose(img, [0, 3, 1, 2]), axis=1, training=training),
           "seq": tf.layers.batch_normalization(x["seq"], training=training, axis=[1, 2]),
           "vol": tf.layers.batch_normalization(x["vol"], training=training,
                                                gamma_regularizer=lambda g: tf.reduce_sum(g))}
    layer = tf.layers.BatchNormalization(name="frozen", trainable=False)
    out["frozen"] = layer(img, training=True)
    return out, {"frozen": _names(layer)}


def batch_norm_extras(tf, x):
    tf.set_random_seed(14)
    img, vec, training = x["img"], x["vec"], x["is_training"]
    out = {"renorm": tf.layers.batch_normalization(vec, training=training, renorm=True, renorm_momentum=0.8,
                                                   renorm_clipping={"rmax": 1.5, "rmin": 0.7, "dmax": 0.2}),
           "virtual": tf.layers.batch_normalization(img, training=training, virtual_batch_size=1),
           "adjusted": tf.layers.batch_normalization(
               img, training=training, adjustment=lambda shape: (tf.ones([3]) * 1.5, tf.ones([3]) * 0.25))}
    # Called twice (the second time in inference: two updates of one variable in one run would race in
    # TensorFlow, where numflow runs their reads first).
    layer = tf.layers.BatchNormalization(momentum=0.5, name="twice")
    out["twice_a"] = layer(img, training=training)
    out["twice_b"] = layer(img * 2.0)
    return out, {"twice": _names(layer)}


def custom(tf, x):
    tf.set_random_seed(15)

    class Scale(tf.layers.Layer):
        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        def build(self, input_shape):
            self.w = self.add_weight("w", [int(input_shape[-1]), self.units])
            self.b = self.add_variable("b", [self.units], initializer=tf.zeros_initializer(),
                                       regularizer=lambda b: tf.reduce_sum(b + 1.0))
            self.count = self.add_weight("count", [], dtype=tf.int32, trainable=False)
            self.input_spec = tf.layers.InputSpec(min_ndim=2, axes={-1: int(input_shape[-1])})

        def call(self, inputs, training=False, scope=None):
            self.add_loss(tf.reduce_mean(inputs))
            self.add_update(tf.assign_add(self.count, 1))
            out = tf.matmul(inputs, self.w) + self.b
            return out * 2.0 if training else out

    layer = Scale(3)
    a = layer(x["vec"])
    b = layer(x["vec"] + 1.0, training=True)
    with tf.variable_scope("outer"):
        c = Scale(2, name="named")(x["vec"])
    return {"a": a, "b": b, "c": c}, {"scale": _names(layer)}


CASES = {f.__name__: f for f in (dense, reuse, conv1d, conv2d, conv3d, pooling, dropout, batch_norm,
                                 batch_norm_extras, custom)}


def _graph_names(tf, fetches, info):
    graph = tf.get_default_graph()
    keys = tf.GraphKeys

    def names(key):
        return [getattr(item, "name", str(item)) for item in graph.get_collection(key)]

    return {"global": names(keys.GLOBAL_VARIABLES), "trainable": names(keys.TRAINABLE_VARIABLES),
            "moving_average": names(keys.MOVING_AVERAGE_VARIABLES), "update_ops": names(keys.UPDATE_OPS),
            "regularization_losses": names(keys.REGULARIZATION_LOSSES),
            "fetches": {k: [t.name, t.shape.as_list() if t.shape.ndims is not None else None]
                        for k, t in fetches.items()},
            "layers": info, "ops": [op.name for op in graph.get_operations()]}


def run_case(tf, name, a):
    """``(names, {result: value})`` of case ``name`` in ``tf``, as the module docstring says."""
    with tf.Graph().as_default():
        x = {k: tf.placeholder(tf.float32, SHAPES[k], name=k) for k in SHAPES}
        x["is_training"] = tf.placeholder(tf.bool, [], name="is_training")
        fetches, info = CASES[name](tf, x)
        names = _graph_names(tf, fetches, info)
        variables = tf.global_variables()
        trainable = tf.trainable_variables()
        floats = {k: t for k, t in fetches.items() if t.dtype.base_dtype == tf.float32}
        loss = tf.add_n([tf.reduce_sum(t + tf.square(t) * (k + 1.0)) for k, t in enumerate(floats.values())])
        inputs = [x[k] for k in SHAPES]
        grads = tf.gradients(loss, trainable + inputs)
        grad_names = [v.op.name for v in trainable] + list(SHAPES)
        grads = {f"d/{n}": g for n, g in zip(grad_names, grads) if g is not None}
        updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        feed = {x[k]: a[k] for k in SHAPES}
        results = {}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            results.update({f"init/{v.op.name}": value for v, value in zip(variables, sess.run(variables))})
            for phase, flag in (("train", True), ("eval", False)):
                values = sess.run(fetches, {**feed, x["is_training"]: flag})
                results.update({f"{k}/{phase}": v for k, v in values.items()})
            results.update(sess.run(grads, {**feed, x["is_training"]: True}))
            if updates:
                sess.run(updates, {**feed, x["is_training"]: True})
            results.update({f"after/{v.op.name}": value for v, value in zip(variables, sess.run(variables))})
    return names, {k: np.asarray(v) for k, v in results.items()}
