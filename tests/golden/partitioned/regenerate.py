"""Write the TensorFlow values that tests/variables/test_partitioned.py compares numflow against.

HOW TO REGENERATE (needs TensorFlow; numflow itself never does)::

    /opt/tfenv/bin/python tests/golden/partitioned/regenerate.py

It runs every scenario of ``scenarios.py`` under ``tensorflow.compat.v1`` (graph mode) and replaces
``values.npz`` next to this file (one array per ``scenario/key``, and ``tf_version``), then writes
``model.*`` (``embedding``, 7x3 in three parts, ``plain`` and ``wide``, saved by ``tf.train.Saver``) and
``model.meta`` (its MetaGraphDef) for the Saver tests, with ``checkpoint_values.npz``.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import scenarios  # noqa: E402

# Offsets and lengths of 75: two-byte numbers in the slice keys.
WIDE = np.linspace(-1.0, 1.0, 150).reshape(150, 1)


def write_checkpoint():
    """``embedding`` (7x3, three parts, the values 0..20), ``plain`` and ``wide`` (150x1 float64 in two
    parts) saved by TF's Saver, with the meta graph."""
    full = np.arange(21, dtype=np.float32).reshape(7, 3)
    with tf.Graph().as_default(), tf.Session() as sess:
        embedding = tf.get_variable("embedding", [7, 3], partitioner=tf.fixed_size_partitioner(3))
        tf.get_variable("plain", initializer=np.float32(2.0))
        wide = tf.get_variable("wide", [150, 1], dtype=tf.float64, partitioner=tf.fixed_size_partitioner(2))
        sess.run(tf.global_variables_initializer())
        sess.run([embedding.assign(full), wide.assign(WIDE)])
        tf.train.Saver().save(sess, os.path.join(HERE, "model"), write_state=False)
    np.savez_compressed(os.path.join(HERE, "checkpoint_values.npz"), embedding=full, plain=np.float32(2.0), wide=WIDE)


def main():
    tf.disable_v2_behavior()
    write_checkpoint()
    values = scenarios.run_all(tf)
    values["tf_version"] = np.array(tf.__version__)
    path = os.path.join(HERE, "values.npz")
    np.savez_compressed(path, **values)
    print(f"{path}: {len(values) - 1} arrays, {os.path.getsize(path)} bytes, TensorFlow {tf.__version__}")


if __name__ == "__main__":
    main()
