"""Regenerate tf_auc_golden.npz with real TensorFlow (not a numflow dependency; run it by hand).

    /opt/tfenv/bin/python tests/ops/data/make_tf_auc_golden.py   # any Python with tensorflow installed

The streams are those of ``tests/ops/auc_cases.py``: ``NAME/updates``, ``NAME/value`` and ``NAME/names`` for each.
"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from auc_cases import CASES, run_case  # noqa: E402

tf.disable_v2_behavior()


def main():
    arrays = {}
    for name in CASES:
        updates, value, names = run_case(tf, name)
        arrays.update({f"{name}/updates": updates, f"{name}/value": value, f"{name}/names": np.array(names)})
    np.savez_compressed(pathlib.Path(__file__).with_name("tf_auc_golden.npz"), **arrays)


if __name__ == "__main__":
    main()
