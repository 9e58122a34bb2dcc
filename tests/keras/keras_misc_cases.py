"""The Keras constraints, activations and serialized configs behind ``data/tf_keras_misc_golden.json``, written
once for both engines (TensorFlow 2.21's compat.v1 with tf-keras when the golden file is made, numflow in the
tests).
"""

import numpy as np

CONSTRAINTS = {
    "max_norm": lambda c: c.MaxNorm(max_value=1.5),
    "max_norm_axis": lambda c: c.max_norm(0.8, axis=[0, 1]),
    "non_neg": lambda c: c.NonNeg(),
    "unit_norm": lambda c: c.UnitNorm(axis=1),
    "min_max_norm": lambda c: c.MinMaxNorm(min_value=0.5, max_value=1.2, rate=0.7),
    "by_name": lambda c: c.get("unit_norm"),
}


def _weight(shape):
    return np.random.RandomState(11).randn(*shape).astype(np.float32)


def run_constraints(tf):
    out = {}
    with tf.Graph().as_default(), tf.Session() as session:
        w = tf.constant(_weight((3, 4)))
        for case, make in CONSTRAINTS.items():
            out[case] = session.run(make(tf.keras.constraints)(w)).tolist()
        for size in (3, 5):  # tf-keras builds the even sizes on a variable it never initializes
            kernel = tf.constant(_weight((size, size, 2, 3)))
            out[f"radial_{size}"] = session.run(tf.keras.constraints.RadialConstraint()(kernel)).tolist()
    return out


def constrained_fit(tf):
    """A fit whose kernels are constrained: the optimizer assigns the constraint's value after each update."""
    keras = tf.keras
    rng = np.random.RandomState(2)
    x = rng.rand(8, 3).astype(np.float32)
    y = rng.rand(8, 2).astype(np.float32) * 4.0
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        model = keras.Sequential([
            keras.layers.Dense(4, input_shape=(3,), kernel_constraint=keras.constraints.MaxNorm(0.5),
                               bias_constraint="non_neg"),
            keras.layers.Dense(2, kernel_constraint=keras.constraints.UnitNorm())])
        model.compile(keras.optimizers.SGD(0.5, momentum=0.5), "mse")
        history = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
        return {"loss": history.history["loss"], "weights": [w.tolist() for w in model.get_weights()]}


def run_activations(tf):
    x = np.linspace(-4.0, 4.0, 9).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as session:
        t = tf.constant(x)
        activations = tf.keras.activations
        return {name: session.run(activations.get(name)(t)).tolist()
                for name in ("swish", "mish", "elu", "selu", "softplus", "softsign", "hard_sigmoid", "exponential")}


def configs(tf):
    keras = tf.keras
    return {"regularizers": [keras.regularizers.serialize(r) for r in (
                keras.regularizers.l2(0.1), keras.regularizers.L1L2(0.3, 0.2), keras.regularizers.get("l1"))],
            "constraints": [keras.constraints.serialize(c) for c in (
                keras.constraints.MaxNorm(3), keras.constraints.get("min_max_norm"))],
            "activations": [keras.activations.serialize(a) for a in (
                keras.activations.swish, keras.activations.get("mish"), keras.activations.relu)],
            "losses": [keras.losses.serialize(loss) for loss in (
                keras.losses.Huber(delta=0.5), keras.losses.CategoricalFocalCrossentropy(gamma=3.0))]}


def callbacks_fit(tf, csv_path):
    """A fit with the learning-rate callbacks, the loggers and TerminateOnNaN: the history (with ``lr``) and the
    CSV file's rows."""
    import csv

    keras = tf.keras
    rng = np.random.RandomState(8)
    x = rng.rand(12, 3).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0], [2.0]], np.float32)).astype(np.float32)
    with tf.Graph().as_default():
        tf.set_random_seed(8)
        model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
        model.compile(keras.optimizers.SGD(0.2), "mse", metrics=["mae"])
        callbacks = [keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5 if epoch == 2 else lr),
                     keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=10.0),
                     keras.callbacks.BaseLogger(), keras.callbacks.TerminateOnNaN(),
                     keras.callbacks.CSVLogger(str(csv_path))]
        history = model.fit(x, y, epochs=5, batch_size=5, verbose=0, shuffle=False, validation_split=0.25,
                            callbacks=callbacks)
        with open(csv_path) as written:
            rows = list(csv.reader(written))
        return {"history": {k: [float(v) for v in values] for k, values in history.history.items()},
                "csv_header": rows[0], "csv_rows": [[float(v) for v in row] for row in rows[1:]]}


def sequence_fit(tf):
    """fit, evaluate and predict on a keras.utils.Sequence of uneven, weighted batches (in order: tf-keras'
    shuffle, by Python's random in its enqueuer's thread, does not repeat from run to run)."""
    keras = tf.keras
    rng = np.random.RandomState(9)
    x = rng.rand(10, 3).astype(np.float32)
    y = (x.sum(1, keepdims=True) > 1.5).astype(np.float32)
    weights = np.linspace(0.5, 1.5, 10).astype(np.float32)

    class Batches(keras.utils.Sequence):
        def __init__(self, with_weights):
            self.with_weights = with_weights

        def __len__(self):
            return 3

        def __getitem__(self, index):
            part = slice(4 * index, 4 * index + 4)
            return (x[part], y[part], weights[part]) if self.with_weights else (x[part], y[part])

    with tf.Graph().as_default():
        tf.set_random_seed(9)
        model = keras.Sequential([keras.layers.Dense(4, activation="relu", input_shape=(3,)),
                                  keras.layers.Dense(1, activation="sigmoid")])
        model.compile(keras.optimizers.Adam(0.05), "binary_crossentropy", metrics=["acc"])
        history = model.fit(Batches(True), epochs=3, verbose=0, validation_data=Batches(False), shuffle=False)
        return {"history": history.history, "evaluate": [float(v) for v in model.evaluate(Batches(False), verbose=0)],
                "predict": model.predict(Batches(False)).tolist()}


def clone_models(tf):
    """clone_model of a Sequential and of a functional model with two inputs and a shared layer: the clones'
    names, and their outputs once given the originals' weights."""
    keras = tf.keras
    rng = np.random.RandomState(10)
    out = {}
    with tf.Graph().as_default():
        sequential = keras.Sequential([keras.layers.Dense(3, activation="relu", input_shape=(4,), name="first"),
                                       keras.layers.Dropout(0.3), keras.layers.Dense(2)])
        left, right = keras.Input(shape=(4,), name="left"), keras.Input(shape=(4,))
        shared = keras.layers.Dense(3, activation="tanh")
        joined = keras.layers.add([shared(left), shared(right)])
        functional = keras.Model([left, right], keras.layers.Dense(1, name="out")(joined), name="two")
        x = [rng.rand(3, 4).astype(np.float32), rng.rand(3, 4).astype(np.float32)]
        for name, model, data in (("sequential", sequential, x[0]), ("functional", functional, x)):
            clone = keras.models.clone_model(model)
            clone.set_weights(model.get_weights())
            out[name] = {"name": clone.name, "layers": [layer.name for layer in clone.layers],
                         "weights": [w.name for w in clone.weights], "inputs": [t.name for t in clone.inputs],
                         "outputs": [t.name for t in clone.outputs],
                         "same_outputs": bool(np.allclose(clone.predict(data), model.predict(data)))}
    return out
