"""Write ``tf_reader_golden.json``: what TensorFlow 2.21's compat.v1 readers read in each case of
``reader_cases.py``, from files written in a temporary folder (the TFRecord file by TensorFlow).

Run with TensorFlow installed: ``python tests/io/data/make_tf_reader_golden.py``.
"""

import pathlib
import sys

import tensorflow.compat.v1 as tf

HERE = pathlib.Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]  # the cases, and tests/golden_scripts.py

from golden_scripts import write_file_cases_golden  # noqa: E402
from reader_cases import CASES, make_files  # noqa: E402

tf.disable_v2_behavior()


def main():
    write_file_cases_golden(tf, CASES, make_files, HERE / "tf_reader_golden.json")


if __name__ == "__main__":
    main()
