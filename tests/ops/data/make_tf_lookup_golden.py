"""Write ``tf_lookup_golden.json``: what TensorFlow 2.21's compat.v1 lookup tables give in each case of
``lookup_cases.py``, with the vocabulary files written in a temporary folder.

Run with TensorFlow installed: ``python tests/ops/data/make_tf_lookup_golden.py``.
"""

import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]  # the cases, and tests/golden_scripts.py

from golden_scripts import write_file_cases_golden  # noqa: E402
from lookup_cases import CASES, make_files  # noqa: E402

tf.disable_v2_behavior()


def main():
    write_file_cases_golden(tf, CASES, make_files, HERE / "tf_lookup_golden.json")


if __name__ == "__main__":
    main()
