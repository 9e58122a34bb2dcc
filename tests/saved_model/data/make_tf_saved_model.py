"""Write ``tf_saved_model/`` (a SavedModel written by TensorFlow 2.21's compat.v1 ``simple_save``: a
linear layer y = x W + b over a placeholder) and ``tf_saved_model.json`` (the model's outputs for
the fixed inputs, and its signature), for numflow to load and run.

Run with TensorFlow installed: ``python tests/saved_model/data/make_tf_saved_model.py``.
"""

import json
import pathlib
import shutil

import numpy as np
import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
EXPORT_DIR = HERE / "tf_saved_model"
INPUTS = [[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]]

tf.disable_v2_behavior()


def main():
    shutil.rmtree(EXPORT_DIR, ignore_errors=True)
    with tf.Graph().as_default(), tf.Session() as sess:
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.get_variable("w", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 4)
        b = tf.get_variable("b", initializer=np.array([0.5, -1.0], dtype=np.float32))
        y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
        sess.run(tf.global_variables_initializer())
        sess.run(b.assign_add([0.25, 0.25]))  # the saved value, not the initializer's
        tf.saved_model.simple_save(sess, str(EXPORT_DIR), inputs={"x": x}, outputs={"y": y})
        expected = sess.run(y, {x: INPUTS})
    (HERE / "tf_saved_model.json").write_text(json.dumps({"inputs": INPUTS, "y": expected.tolist()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
