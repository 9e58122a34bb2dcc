"""A Keras classifier as TF1 programs train one: a Sequential model compiled with Adam and fitted on numpy
data with a validation set, then evaluated and used to predict; and a functional regression model with
two inputs trained by RMSprop, its weights saved and loaded back into a fresh model."""

import numpy as np


def main(tf, workdir):
    keras = tf.keras
    tf.set_random_seed(11)
    np.random.seed(12)
    x = np.random.rand(40, 6).astype(np.float32)
    y = keras.utils.to_categorical((x[:, 0] + x[:, 1] > 1.0).astype(int) + (x[:, 2] > 0.8), 3)
    model = keras.Sequential([keras.layers.Dense(12, activation="relu", input_shape=(6,)),
                              keras.layers.Dropout(0.25), keras.layers.Dense(3, activation="softmax")])
    model.summary()
    model.compile(optimizer=keras.optimizers.Adam(0.02), loss="categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(x[:32], y[:32], epochs=4, batch_size=8, verbose=0, validation_data=(x[32:], y[32:]))
    for key in sorted(history.history):
        print(key, ["%.5f" % v for v in history.history[key]])
    print("evaluate", model.evaluate(x, y, verbose=0))
    print(np.round(model.predict(x[:3]), 5))
    print([v.name for v in tf.global_variables()])

    a, b = keras.Input(shape=(3,), name="a"), keras.Input(shape=(3,), name="b")
    joined = keras.layers.concatenate([a, keras.layers.Dense(3, activation="tanh")(b)])
    out = keras.layers.Dense(1, name="price")(joined)
    regression = keras.Model([a, b], out)
    regression.compile("rmsprop", "mse", metrics=["mae"])
    target = x[:, :1] * 2.0 - x[:, 3:4]
    history = regression.fit([x[:, :3], x[:, 3:]], target, epochs=3, batch_size=10, verbose=0)
    print("regression", ["%.5f" % v for v in history.history["loss"]], regression.metrics_names)
    regression.save_weights(workdir + "/regression")
    print(np.round(regression.predict([x[:2, :3], x[:2, 3:]]), 5))
