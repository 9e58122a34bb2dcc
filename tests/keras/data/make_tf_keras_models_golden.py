"""Regenerate tf_keras_models_golden.json with real TensorFlow and tf-keras (not a numflow dependency; run it by
hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_models_golden.py   # where tensorflow is installed

The models are those of ``tests/keras/keras_model_cases.py``; under ``errors``, the class and message of each
bad use of ``tests/keras/keras_error_cases.py``'s ``MODEL_CASES``; ``tf_weights/`` is the checkpoint tf-keras'
``save_weights`` writes for ``saved_weights``, ``tf_weights.h5`` the same weights in Keras' HDF5 format, and
``saved_weights`` in the .json their values and the model's predictions.
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
import keras_error_cases  # noqa: E402
from keras_model_cases import CASES, run_case, saved_weights  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    here = pathlib.Path(__file__).parent
    results = {case: run_case(tf, case) for case in CASES}
    tf.keras.backend.clear_session()
    model, x = saved_weights(tf, here / "tf_weights")
    model.save_weights(str(here / "tf_weights.h5"))
    results["saved_weights"] = {"predict": model.predict(x).tolist(),
                                "weights": [w.tolist() for w in tf.keras.backend.batch_get_value(model.weights)]}
    results["errors"] = {case: keras_error_cases.raised(tf, case) for case in keras_error_cases.MODEL_CASES}
    path = here / "tf_keras_models_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
