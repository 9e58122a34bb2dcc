"""The Keras models behind ``data/tf_keras_models_golden.json``, written once for both engines (TensorFlow 2.21's
compat.v1 with tf-keras when the golden file is made, numflow in the tests).

Each case builds a model in a fresh graph with fixed seeds (``tf.set_random_seed`` and numpy's), compiles and
trains it, and gives back what it printed (``summary()``, ``fit``'s log with its timings masked), the
history, the results of ``evaluate``, ``predict``, ``train_on_batch`` and ``test_on_batch``, and the names of
the model, its layers, inputs, outputs and the graph's variables.
"""

import contextlib
import io
import re

import numpy as np


def _data(n=10, features=4):
    x = np.random.rand(n, features).astype(np.float32)
    return x, np.random.randint(0, 3, n)


def _facts(tf, model):
    return {"name": model.name, "layers": [layer.name for layer in model.layers],
            "inputs": [t.name for t in model.inputs], "outputs": [t.name for t in model.outputs],
            "metrics_names": list(model.metrics_names),
            "variables": [v.name for v in tf.global_variables()],
            "trainable": [v.name for v in model.trainable_weights],
            "non_trainable": [v.name for v in model.non_trainable_weights]}


def sequential_sgd(tf):
    keras = tf.keras
    x, labels = _data()
    y = keras.utils.to_categorical(labels, 3)
    model = keras.Sequential([keras.layers.Dense(5, activation="relu", input_shape=(4,)), keras.layers.Dropout(0.2),
                              keras.layers.Dense(3, activation="softmax")])
    model.summary()
    model.compile(optimizer="sgd", loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=2, validation_data=(x[:3], y[:3]))
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:2]),
                            "train_on_batch": model.train_on_batch(x[:4], y[:4]),
                            "test_on_batch": model.test_on_batch(x[:4], y[:4]),
                            "predict_on_batch": model.predict_on_batch(x[:2])}


def functional_adam(tf):
    keras = tf.keras
    x, _ = _data(12)
    y = x.sum(axis=1, keepdims=True) * 0.5
    inputs = keras.Input(shape=(4,))
    hidden = keras.layers.Dense(3, activation="relu")(inputs)
    outputs = keras.layers.Dense(1)(hidden)
    model = keras.Model(inputs, outputs)
    model.summary()
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    history = model.fit(x, y, epochs=3, batch_size=5, verbose=0)
    return model, history, {"evaluate": model.evaluate(x, y, batch_size=4, verbose=0), "predict": model.predict(x)}


def deferred_rmsprop_sparse(tf):
    keras = tf.keras
    x, labels = _data(9, 5)
    model = keras.Sequential()
    model.add(keras.layers.Dense(8, activation="tanh", kernel_regularizer=keras.regularizers.l2(0.01)))
    model.add(keras.layers.Dense(3, activation="softmax"))
    model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=0.01), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, labels, epochs=2, batch_size=4, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, labels, verbose=0), "predict": model.predict(x[:3])}


def momentum_binary(tf):
    keras = tf.keras
    x, labels = _data(8, 3)
    y = (labels > 0).astype(np.float32)
    model = keras.Sequential([keras.layers.Dense(4, activation="relu", input_dim=3),
                              keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1, momentum=0.9), loss="binary_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=3, batch_size=3, verbose=0, shuffle=False)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0)}


def tf_train_optimizer(tf):
    keras = tf.keras
    x, _ = _data(6, 2)
    y = x[:, :1] - x[:, 1:]
    inputs = keras.Input(shape=(2,), name="features")
    outputs = keras.layers.Dense(1, name="out")(inputs)
    model = keras.Model(inputs=inputs, outputs=outputs, name="linear")
    model.compile(optimizer=tf.train.AdamOptimizer(0.05), loss=keras.losses.mean_squared_error)
    history = model.fit(x, y, epochs=2, batch_size=2, verbose=0)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0)}


def batch_norm_conv(tf):
    keras = tf.keras
    x = np.random.rand(6, 5, 5, 2).astype(np.float32)
    y = keras.utils.to_categorical(np.random.randint(0, 2, 6), 2)
    model = keras.Sequential([keras.layers.Conv2D(3, 3, input_shape=(5, 5, 2)), keras.layers.BatchNormalization(),
                              keras.layers.Activation("relu"), keras.layers.MaxPooling2D(),
                              keras.layers.Flatten(), keras.layers.Dense(2, activation="softmax")])
    model.summary()
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss=keras.losses.CategoricalCrossentropy(),
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=2)
    moving = [v for v in model.non_trainable_weights]
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0), "predict": model.predict(x[:2]),
                            "moving": keras.backend.batch_get_value(moving)}


def weighted(tf):
    keras = tf.keras
    x, labels = _data(12, 3)
    y = keras.utils.to_categorical(labels, 3)
    model = keras.Sequential([keras.layers.Dense(3, activation="softmax", input_shape=(3,))])
    model.compile(keras.optimizers.SGD(0.5), "categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, epochs=2, batch_size=5, verbose=2, class_weight={0: 0.5, 1: 2.0, 2: 1.0})
    weights = np.linspace(0.0, 2.0, 12)
    history2 = model.fit(x, labels[:, None] * 0 + y, epochs=1, batch_size=6, verbose=0, sample_weight=weights)
    return model, history, {"evaluate": model.evaluate(x, y, sample_weight=weights[::-1], verbose=1),
                            "second_fit": history2.history["loss"],
                            "train_on_batch": model.train_on_batch(x[:4], y[:4], sample_weight=weights[:4])}


def subclassed(tf):
    keras = tf.keras

    class Net(keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = keras.layers.Dense(4, activation="relu")
            self.out = keras.layers.Dense(2)

        def call(self, inputs):
            return self.out(self.hidden(inputs))

    x, _ = _data(8, 3)
    y = np.random.rand(8, 2).astype(np.float32)
    called = Net()
    output = called(tf.placeholder(tf.float32, [None, 3]))
    called.compile("sgd", "mse")
    first = called.fit(x, y, epochs=2, batch_size=4, verbose=0)
    model = Net()
    model.compile("adam", "mse")
    history = model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    model.summary()
    return model, history, {"first": first.history["loss"], "first_output": [output.name],
                            "predict": model.predict(x[:2])}


def two_outputs(tf):
    keras = tf.keras
    inputs = keras.Input(shape=(2,), name="a")
    first = keras.layers.Dense(2, name="first", activation="softmax")(inputs)
    second = keras.layers.Dense(1, name="second")(inputs)
    model = keras.Model(inputs, [first, second])
    model.compile("sgd", ["categorical_crossentropy", "mse"], metrics=["accuracy"], loss_weights=[1.0, 0.5])
    x = np.random.rand(6, 2).astype(np.float32)
    y = [keras.utils.to_categorical([0, 1, 1, 0, 1, 0], 2), np.random.rand(6, 1)]
    history = model.fit(x, y, epochs=2, batch_size=3, verbose=2)
    return model, history, {"evaluate": model.evaluate(x, y, verbose=0)}


def cross_attention(tf):
    keras = tf.keras
    queries = keras.Input(shape=(3, 4), name="queries")
    memory = keras.Input(shape=(5, 4), name="memory")
    values = keras.layers.Dense(4, name="values")(memory)
    keys = keras.layers.Dense(4, name="keys")(memory)
    attended = keras.layers.MultiHeadAttention(2, 3, name="attention")(queries, values, key=keys)
    outputs = keras.layers.Dense(1, name="out")(keras.layers.GlobalAveragePooling1D(name="pool")(attended))
    model = keras.Model([queries, memory], outputs)
    model.summary()
    model.compile("adam", "mse")
    x = [np.random.rand(8, 3, 4).astype(np.float32), np.random.rand(8, 5, 4).astype(np.float32)]
    y = np.random.rand(8, 1).astype(np.float32)
    history = model.fit(x, y, epochs=3, batch_size=4, verbose=0)
    again = keras.Model.from_config(model.get_config())
    return model, history, {"predict": model.predict(x), "config_layers": [layer.name for layer in again.layers],
                            "config_weights": [w.shape.as_list() for w in again.weights]}


CASES = {f.__name__: f for f in (sequential_sgd, functional_adam, deferred_rmsprop_sparse, momentum_binary,
                                 tf_train_optimizer, batch_norm_conv, weighted, subclassed, two_outputs,
                                 cross_attention)}

_TIMES = re.compile(r" - \d+m?u?s(/(epoch|sample|step))?")


def mask_times(text):
    """``text`` with the durations of ``fit``'s log (`` - 1s``, `` - 505ms/epoch``) left out."""
    return _TIMES.sub("", text)


def _plain(value):
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return np.asarray(value).tolist()


# The results compared exactly; the others are numbers.
NAMES = ("printed", "epoch", "params", "name", "layers", "inputs", "outputs", "metrics_names", "variables",
         "trainable", "non_trainable", "first_output", "config_layers", "config_weights")


def assert_numbers_as_golden(case, got, want, how, rtol=1e-5, atol=1e-6):
    """``run_case``'s numbers of ``case`` (the history, ``evaluate``, ``predict``...) as the golden's, to ``rtol``
    and ``atol``; ``how`` (the regenerate command) ends each failure message."""
    assert sorted(got) == sorted(want), how
    for key in (k for k in want if k not in NAMES):
        if key == "history":
            assert sorted(got[key]) == sorted(want[key]), how
            for name, values in want[key].items():
                np.testing.assert_allclose(got[key][name], values, rtol=rtol, err_msg=f"{case} {name}")
        else:
            np.testing.assert_allclose(got[key], want[key], rtol=rtol, atol=atol, err_msg=f"{case}/{key}; {how}")


def run_case(tf, name, cases=CASES):
    """``{result: value}`` of case ``name`` (of ``cases``) in ``tf`` (see the module docstring), in a fresh Keras
    session."""
    tf.keras.backend.clear_session()
    tf.set_random_seed(1)
    np.random.seed(2)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        model, history, results = cases[name](tf)
    return {"printed": mask_times(printed.getvalue()), "history": history.history, "epoch": history.epoch,
            "params": {k: v for k, v in history.params.items() if k != "metrics"}, **_facts(tf, model),
            **{k: _plain(v) for k, v in results.items()}}


def saved_weights(tf, directory):
    """A model trained one step and its weights saved to ``directory/weights``: ``(model, inputs)``."""
    keras = tf.keras
    tf.set_random_seed(3)
    model = keras.Sequential([keras.layers.Dense(3, activation="relu", input_shape=(4,)),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    model.compile("adam", "mse")
    x = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(4, 4)
    model.fit(x, np.ones((4, 2)), verbose=0)
    model.save_weights(str(directory / "weights"))
    return model, x
