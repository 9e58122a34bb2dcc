"""Regenerate tf_dropout_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_dropout_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/dropout_cases.py``. Keys: ``x``; ``<case>/run<r>/<i>`` (the
i-th fetch on the r-th run); ``<case>/ops`` ("name type" lines of the dropout ops).
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from dropout_cases import CASES, dropout_ops, x_value  # noqa: E402

tf.disable_v2_behavior()


def main():
    x = x_value()
    arrays = {"x": x}
    for name, build in CASES.items():
        with tf.Graph().as_default() as graph:
            fetches, feed = build(tf, x)
            arrays[f"{name}/ops"] = np.array([f"{n} {t}" for n, t in dropout_ops(graph)])
            with tf.Session() as sess:
                for run in range(2):
                    for i, value in enumerate(sess.run(fetches, feed)):
                        arrays[f"{name}/run{run}/{i}"] = value
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_dropout_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
