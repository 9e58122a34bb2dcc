"""Regenerate tf_keras_metrics_golden.json, tf_keras_optimizers_golden.json and tf_keras_misc_golden.json with real
TensorFlow and tf-keras (not a numflow dependency; run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/keras/data/make_tf_keras_metrics_golden.py   # where tensorflow is installed

The cases are those of ``tests/keras/keras_metric_cases.py`` (each metric's values, name and variables; each
loss under each reduction; the per-example functions; models compiled with metric objects),
``keras_optimizer_cases.py`` and ``keras_misc_cases.py`` (constraints, activations, configs).
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
import keras_metric_cases as metric_cases  # noqa: E402
import keras_misc_cases as misc_cases  # noqa: E402
import keras_optimizer_cases as optimizer_cases  # noqa: E402

tf.disable_v2_behavior()
warnings.filterwarnings("ignore")


def main():
    here = pathlib.Path(__file__).parent
    goldens = {
        "tf_keras_metrics_golden.json": {
            "metrics": {case: metric_cases.run_metric(tf, case) for case in metric_cases.METRICS},
            "losses": {case: metric_cases.run_loss(tf, case) for case in metric_cases.LOSSES},
            "functions": {case: metric_cases.run_function(tf, case) for case in metric_cases.FUNCTIONS},
            "models": {case: make(tf) for case, make in metric_cases.MODELS.items()}},
        "tf_keras_optimizers_golden.json": {case: optimizer_cases.run_case(tf, case)
                                            for case in [*optimizer_cases.OPTIMIZERS, *optimizer_cases.EMBEDDINGS]},
        "tf_keras_misc_golden.json": {
            "constraints": misc_cases.run_constraints(tf), "constrained_fit": misc_cases.constrained_fit(tf),
            "activations": misc_cases.run_activations(tf), "configs": misc_cases.configs(tf),
            "callbacks_fit": misc_cases.callbacks_fit(tf, here / "callbacks_fit.csv"),
            "sequence_fit": misc_cases.sequence_fit(tf), "clone_models": misc_cases.clone_models(tf)},
    }
    (here / "callbacks_fit.csv").unlink()
    for name, results in goldens.items():
        (here / name).write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
