"""Regenerate tf_keras_optimizers_golden.json with real TensorFlow and tf-keras (not a numflow dependency; run it
by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_optimizers_golden.py   # where tensorflow is installed

The cases are those of ``tests/keras/keras_optimizer_cases.py``.
"""

import json
import os
import pathlib
import sys
import warnings

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import tensorflow.compat.v1 as tf  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from keras_optimizer_cases import OPTIMIZERS, run_case  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    results = {case: run_case(tf, case) for case in OPTIMIZERS}
    path = pathlib.Path(__file__).parent / "tf_keras_optimizers_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
