"""Write ``tf_feature_column_golden.json``: what TensorFlow 2.21's compat.v1 feature columns build and compute in
each case of ``feature_column_cases.py``, with the vocabulary file written in a temporary folder.

Run with TensorFlow installed: ``python tests/layers/data/make_tf_feature_column_golden.py``.
"""

import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]  # the cases, and tests/golden_scripts.py

from feature_column_cases import CASES, make_files  # noqa: E402
from golden_scripts import write_file_cases_golden  # noqa: E402

tf.disable_v2_behavior()


def main():
    write_file_cases_golden(tf, CASES, make_files, HERE / "tf_feature_column_golden.json")


if __name__ == "__main__":
    main()
