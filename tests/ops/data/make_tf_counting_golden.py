"""Regenerate tf_counting_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_counting_golden.py   # any Python with tensorflow installed

The graphs are those of ``tests/ops/counting_cases.py``: ``NAME/I`` holds the value of a case's ``I``-th tensor,
``NAME/names`` the names of its tensors.
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from counting_cases import CASES, run_case  # noqa: E402

tf.disable_v2_behavior()


def main():
    arrays = {}
    for name in CASES:
        values, names = run_case(tf, name)
        for i, value in enumerate(values):
            arrays[f"{name}/{i}"] = value
        arrays[f"{name}/names"] = np.array(names)
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_counting_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
