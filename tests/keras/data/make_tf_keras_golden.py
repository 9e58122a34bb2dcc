"""Regenerate tf_keras_layers_golden.npz and .json with real TensorFlow and tf-keras (not a numflow dependency;
run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_golden.py   # where tensorflow is installed

The graphs are those of ``tests/keras/keras_layer_cases.py``. The .npz holds the inputs and, per case,
``<case>/<result>``; the .json holds each case's names, and under ``errors`` the class and message of each
bad use of ``tests/keras/keras_error_cases.py``.
"""

import json
import os
import pathlib
import sys
import warnings

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
import keras_error_cases  # noqa: E402
from keras_layer_cases import CASES, inputs, run_case  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    a = inputs()
    arrays = dict(a)
    names = {}
    for case in CASES:
        tf.keras.backend.clear_session()
        names[case], results = run_case(tf, case, a)
        arrays.update({f"{case}/{k}": v for k, v in results.items()})
    names["errors"] = {case: keras_error_cases.raised(tf, case) for case in keras_error_cases.CASES}
    here = pathlib.Path(__file__).parent
    np.savez_compressed(here / "tf_keras_layers_golden.npz", **arrays)
    (here / "tf_keras_layers_golden.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
