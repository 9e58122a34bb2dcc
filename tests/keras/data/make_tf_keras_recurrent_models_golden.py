"""Regenerate tf_keras_recurrent_models_golden.json and tf_rnn_weights/ with real TensorFlow and tf-keras (not a
numflow dependency; run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_recurrent_models_golden.py   # with tensorflow

The models are those of ``tests/keras/keras_recurrent_model_cases.py``, run as ``keras_model_cases.run_case``
runs its own; ``tf_rnn_weights/`` is the checkpoint tf-keras' ``save_weights`` writes for ``saved_weights``,
``tf_rnn_saver/`` the one a ``tf.train.Saver`` of its weights writes (keyed by the variables' names), and
``saved_weights`` in the .json its weights and predictions.
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
from keras_model_cases import run_case  # noqa: E402
from keras_recurrent_model_cases import CASES, saved_weights  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    here = pathlib.Path(__file__).parent
    results = {case: run_case(tf, case, CASES) for case in CASES}
    tf.keras.backend.clear_session()
    model, x = saved_weights(tf, here / "tf_rnn_weights")
    saver = tf.train.Saver(model.weights)
    saver.save(tf.keras.backend.get_session(), str(here / "tf_rnn_saver" / "model"), write_state=False,
               write_meta_graph=False)
    results["saved_weights"] = {"predict": model.predict(x).tolist(),
                                "weights": [w.tolist() for w in tf.keras.backend.batch_get_value(model.weights)]}
    path = here / "tf_keras_recurrent_models_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
