"""Bad uses of ``tf.keras`` behind the ``errors`` of ``data/tf_keras_layers_golden.json``: each case takes the
``tf`` module and raises; ``raised`` gives back the error's class name and message."""

import numpy as np


def _wrong_width(tf):
    layer = tf.keras.layers.Dense(2)
    layer(tf.placeholder(tf.float32, [None, 4]))
    layer(tf.placeholder(tf.float32, [None, 5]))


def _wrong_rank(tf):
    layer = tf.keras.layers.Conv2D(2, 3)
    layer(tf.placeholder(tf.float32, [None, 6, 6, 1]))
    layer(tf.placeholder(tf.float32, [None, 6, 6]))


def _compile(tf, **kwargs):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.compile(**kwargs)
    model.train_on_batch(np.ones((1, 3)), np.ones((1, 1)))


def _fit_wrong_width(tf):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
    model.compile("sgd", "mse")
    model.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)


MODEL_CASES = {
    "unknown_optimizer": lambda tf: _compile(tf, optimizer="sgdx", loss="mse"),
    "unknown_compile_loss": lambda tf: _compile(tf, optimizer="sgd", loss="msex"),
    "fit_wrong_width": _fit_wrong_width,
    "fit_before_compile": lambda tf: tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))]).fit(
        np.ones((1, 3)), np.ones((1, 1))),
}

CASES = {
    "dense_wrong_width": _wrong_width,
    "conv_wrong_rank": _wrong_rank,
    "dense_rank": lambda tf: tf.keras.layers.Dense(2)(tf.zeros([3])),
    "unknown_activation": lambda tf: tf.keras.layers.Dense(2, activation="swishy"),
    "unknown_initializer": lambda tf: tf.keras.layers.Dense(2, kernel_initializer="wide"),
    "unknown_regularizer": lambda tf: tf.keras.layers.Dense(2, kernel_regularizer="l3"),
    "dropout_rate": lambda tf: tf.keras.layers.Dropout(1.5),
    "reshape_size": lambda tf: tf.keras.layers.Reshape((4, 4))(tf.zeros([2, 5])),
    "add_shapes": lambda tf: tf.keras.layers.Add()([tf.zeros([2, 3]), tf.zeros([2, 4])]),
    "concatenate_shapes": lambda tf: tf.keras.layers.Concatenate()([tf.zeros([2, 3, 1]), tf.zeros([2, 4, 1])]),
    "unknown_loss": lambda tf: tf.keras.losses.get("cross_entropyish"),
}


def raised(tf, case):
    """``[class name, message]`` of the error case ``case`` raises in ``tf``, in a fresh graph."""
    with tf.Graph().as_default():
        try:
            {**CASES, **MODEL_CASES}[case](tf)
        except Exception as e:  # noqa: BLE001  (any class: it is what is compared)
            return [type(e).__name__, str(e)]
    raise AssertionError(f"{case} raised nothing")
