"""Regenerate tf_deep_mnist.json: TensorFlow's losses over the first steps of examples/deep_mnist.py.

    /opt/tfenv/bin/python tests/examples/data/make_tf_deep_mnist_golden.py   # any Python with tensorflow

The steps are those of ``tests/examples/deep_mnist_steps.py``: the example's graph built with a graph
seed, so that the initial weights and the dropout masks are TensorFlow's for that seed.
"""

import json
import pathlib
import sys

import tensorflow.compat.v1 as tf

sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
from deep_mnist_steps import first_losses  # noqa: E402

tf.disable_v2_behavior()


def main():
    losses, final = first_losses(tf)
    path = pathlib.Path(__file__).with_name("tf_deep_mnist.json")
    path.write_text(json.dumps({"losses": losses, "final_loss": final}, indent=1) + "\n")


if __name__ == "__main__":
    main()
