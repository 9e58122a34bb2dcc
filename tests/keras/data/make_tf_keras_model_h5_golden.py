"""Writes ``tf_model.h5`` (a small compiled Sequential model trained one epoch, saved whole by tf-keras) and
``tf_model_h5_golden.json``: its inputs, targets, predictions, and its weights after one more training step
on the same batch (which needs the optimizer's saved state to come out the same).

Run with TensorFlow 2.21 and tf-keras 2.21: ``python make_tf_keras_model_h5_golden.py``.
"""

import json
import os
import pathlib

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
here = pathlib.Path(__file__).parent

X = (np.arange(24, dtype=np.float32).reshape(6, 4) / 10.0 - 1.0).tolist()
Y = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]].tolist()


def main():
    tf.set_random_seed(1)
    layers = tf.keras.layers
    model = tf.keras.Sequential([layers.Dense(5, activation="relu", input_shape=(4,), name="d1"),
                                 layers.BatchNormalization(name="bn"), layers.Dense(3, activation="softmax",
                                                                                     name="d2")])
    model.compile(tf.keras.optimizers.Adam(0.01), "categorical_crossentropy", metrics=["accuracy"])
    model.fit(np.array(X), np.array(Y), epochs=2, batch_size=3, shuffle=False, verbose=0)
    model.save(str(here / "tf_model.h5"))
    predictions = model.predict(np.array(X))
    loss = model.train_on_batch(np.array(X), np.array(Y))
    golden = {"x": X, "y": Y, "predictions": predictions.tolist(), "loss_of_next_step": [float(v) for v in loss],
              "weights_after_next_step": [w.tolist() for w in model.get_weights()],
              "optimizer_weight_names": [w.name for w in model.optimizer.weights]}
    (here / "tf_model_h5_golden.json").write_text(json.dumps(golden) + "\n")


if __name__ == "__main__":
    main()
