"""Regenerate tf_ptb_golden.json: examples/ptb_word_lm.py run by real TensorFlow (not a numflow dependency;
run it by hand where tensorflow is installed).

    TF_USE_LEGACY_KERAS=1 python tests/examples/data/make_tf_ptb_golden.py

The example's own source runs with ``tensorflow.compat.v1`` (``disable_v2_behavior()``) in place of its
numflow import, for ``EPOCHS`` epochs of ``BATCHES`` batches each; the file holds the training batches'
costs and each epoch's perplexities.
"""

import json
import os
import pathlib

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
EPOCHS, BATCHES = 3, 6
EXAMPLE = pathlib.Path(__file__).parents[3] / "examples" / "ptb_word_lm.py"


def example_module(tf_module):
    """examples/ptb_word_lm.py with ``tf_module`` in place of its numflow import, as a namespace."""
    source = EXAMPLE.read_text().replace("import numflow as tf\n", "")
    namespace = {"tf": tf_module, "__name__": "ptb_word_lm"}
    exec(compile(source, str(EXAMPLE), "exec"), namespace)
    return namespace


def main():
    example = example_module(tf)

    class Config(example["SmallConfig"]):
        max_max_epoch = EPOCHS

    results = example["main"](Config, max_batches=BATCHES, verbose=False)
    golden = {"epochs": EPOCHS, "batches": BATCHES,
              "costs": [costs for _, _, costs in results],
              "perplexities": [[float(train), float(valid)] for train, valid, _ in results]}
    (pathlib.Path(__file__).parent / "tf_ptb_golden.json").write_text(json.dumps(golden, indent=1) + "\n")


if __name__ == "__main__":
    main()
