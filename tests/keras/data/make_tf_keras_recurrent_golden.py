"""Regenerate tf_keras_recurrent_golden.npz and .json with real TensorFlow and tf-keras (not a numflow dependency;
run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_golden.py   # where tensorflow is installed

The graphs are those of ``tests/keras/keras_recurrent_cases.py``, run as ``keras_layer_cases.run_case`` runs its
own; the inputs are ``tf_keras_layers_golden.npz``'s. The .npz holds ``<case>/<result>``, the .json each
case's names.
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
from keras_layer_cases import run_case  # noqa: E402
from keras_recurrent_cases import CASES  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    here = pathlib.Path(__file__).parent
    inputs = np.load(here / "tf_keras_layers_golden.npz")
    a = {k: inputs[k] for k in ("vec", "seq", "img", "ids")}
    arrays, names = {}, {}
    for case in CASES:
        tf.keras.backend.clear_session()
        names[case], results = run_case(tf, case, a, CASES)
        arrays.update({f"{case}/{k}": v for k, v in results.items()})
    np.savez_compressed(here / "tf_keras_recurrent_golden.npz", **arrays)
    (here / "tf_keras_recurrent_golden.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
