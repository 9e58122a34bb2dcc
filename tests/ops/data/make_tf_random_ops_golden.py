"""Regenerate tf_random_ops_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_random_ops_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/sampling_cases.py``: ``NAME`` holds a case's values over its runs with
op seeds alone, ``NAME/graph_seed`` the same under ``tf.set_random_seed(1234)``; ``gamma_gradients/<dtype>/...``
the samples of ``gamma_gradients`` and their gradients with respect to alpha and beta.
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from sampling_cases import CASES, gamma_gradients, run_case  # noqa: E402

tf.disable_v2_behavior()


def main():
    arrays = {}
    for name in CASES:
        arrays[name] = run_case(tf, name)
        arrays[f"{name}/graph_seed"] = run_case(tf, name, graph_seed=1234)
    for dtype in (tf.float32, tf.float64):
        for key, value in zip(("sample", "grad_alpha", "grad_beta"), gamma_gradients(tf, dtype)):
            arrays[f"gamma_gradients/{dtype.name}/{key}"] = value
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_random_ops_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
