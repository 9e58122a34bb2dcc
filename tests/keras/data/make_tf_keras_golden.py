"""Regenerate the tf.keras layer and backend goldens with real TensorFlow and tf-keras (not a numflow
dependency; run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_golden.py [STEM...]   # where tensorflow is installed

Each golden ``STEM`` (all of ``GOLDENS`` when none is named) is a ``STEM.npz`` and a ``STEM.json`` made from the
graphs of one cases module of ``tests/keras`` (run by ``keras_layer_cases.run_case``). The .npz holds the
inputs and, per case, ``<case>/<result>``; the .json holds each case's names, and for
``tf_keras_layers_golden`` under ``errors`` the class and message of each bad use of
``tests/keras/keras_error_cases.py``.
"""

import importlib
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
from keras_layer_cases import inputs, run_case  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")

GOLDENS = {"tf_keras_layers_golden": "keras_layer_cases", "tf_keras_backend_golden": "keras_backend_cases",
           "tf_keras_more_layers_golden": "keras_more_layer_cases"}


def write(stem):
    cases = importlib.import_module(GOLDENS[stem]).CASES
    a = inputs()
    arrays = dict(a)
    names = {}
    for case in cases:
        tf.keras.backend.clear_session()
        names[case], results = run_case(tf, case, a, cases)
        arrays.update({f"{case}/{k}": v for k, v in results.items()})
    if stem == "tf_keras_layers_golden":
        names["errors"] = {case: keras_error_cases.raised(tf, case) for case in keras_error_cases.CASES}
    here = pathlib.Path(__file__).parent
    np.savez_compressed(here / f"{stem}.npz", **arrays)
    (here / f"{stem}.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    for name in sys.argv[1:] or GOLDENS:
        write(name)
