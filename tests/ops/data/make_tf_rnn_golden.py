"""Regenerate tf_rnn_golden.npz and .json with real TensorFlow and its legacy Keras cells (not a numflow
dependency; run it by hand).

    TF_USE_LEGACY_KERAS=1 python tests/ops/data/make_tf_rnn_golden.py   # where tensorflow is installed

The graphs are those of ``tests/ops/rnn_cases.py``, run with TensorFlow's own initial values. The .npz
holds the inputs and, per case, ``<case>/var/<variable>`` (the initial values, which the numflow test
loads), ``<case>/<result>`` (outputs and final states) and ``<case>/d/<variable or x>`` (gradients of
a loss of the results). The .json holds each case's variable names, in creation order.
``rnn_checkpoints/<case>/model``: those initial values saved by TensorFlow's Saver, for the
``CHECKPOINTED`` cases.
"""

import json
import os
import pathlib
import shutil
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from rnn_cases import CASES, inputs, run_case  # noqa: E402

tf.disable_v2_behavior()
CHECKPOINTED = ("multi_layer_time_major", "bidirectional")


def main():
    a = inputs()
    arrays = dict(a)
    names = {}
    for case in CASES:
        names[case], values, results = run_case(tf, case, a)
        arrays.update({f"{case}/var/{k}": v for k, v in values.items()})
        arrays.update({f"{case}/{k}": np.asarray(v) for k, v in results.items()})
    here = pathlib.Path(__file__).parent
    for case in CHECKPOINTED:
        initial = {name: arrays[f"{case}/var/{name}"] for name in names[case]}
        folder = here / "rnn_checkpoints" / case
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        run_case(tf, case, a, initial, save_to=str(folder / "model"))
    np.savez_compressed(here / "tf_rnn_golden.npz", **arrays)
    (here / "tf_rnn_golden.json").write_text(json.dumps(names, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
