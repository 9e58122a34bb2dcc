"""Regenerate tf_keras_metrics_golden.json with real TensorFlow and tf-keras (not a numflow dependency; run it by
hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py   # where tensorflow is installed

The cases are those of ``tests/keras/keras_metric_cases.py``: each metric's values, name and variables; each
loss under each reduction; the per-example functions; models compiled with metric objects.
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
import keras_metric_cases as cases  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    results = {"metrics": {case: cases.run_metric(tf, case) for case in cases.METRICS},
               "losses": {case: cases.run_loss(tf, case) for case in cases.LOSSES},
               "functions": {case: cases.run_function(tf, case) for case in cases.FUNCTIONS},
               "models": {case: make(tf) for case, make in cases.MODELS.items()}}
    path = pathlib.Path(__file__).parent / "tf_keras_metrics_golden.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
