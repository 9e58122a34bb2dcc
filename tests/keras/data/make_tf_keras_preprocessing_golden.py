"""Regenerate tf_keras_preprocessing_golden.json with real tf-keras (not a numflow dependency; run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_preprocessing_golden.py   # with tensorflow

The uses are those of ``tests/keras/keras_preprocessing_cases.py``.
"""

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow.compat.v1 as tf  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from keras_preprocessing_cases import CASES  # noqa: E402


def main():
    results = {name: case(tf.keras) for name, case in CASES.items()}
    path = pathlib.Path(__file__).parent / "tf_keras_preprocessing_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
